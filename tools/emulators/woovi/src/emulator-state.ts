/**
 * Everything the emulator remembers, in memory: sandbox accounts (AppIDs), charges (each account
 * sees only its own), webhook registrations, deliveries, stats, and (in FaultRegistry) faults.
 * No HTTP here: routes call these methods and turn thrown WooviApiErrors into responses.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { activityStats, EmulatorStateBase, PayoutBook, refill, type DeliveryRecord } from '../../kit';
import { accountIdFor, newEndToEndId } from './woovi-ids';
import { wooviErrors } from './woovi-errors';
import { RecurringBook } from './pix-recurring';
import type { SentPayment, WooviPaymentData } from './payments';
import { splitsTotal, type StoredSplit } from './splits';
import { SubaccountBook } from './subaccounts';

export type ChargeStatus = 'ACTIVE' | 'COMPLETED' | 'EXPIRED';

export interface CustomerRecord {
  name: string;
  taxID?: { taxID: string; type: 'BR:CPF' | 'BR:CNPJ' };
  email?: string;
  phone?: string;
  correlationID: string;
}

export interface PixPayment {
  endToEndId: string;
  time: Date;
  infoPagador?: string;
}

export interface StoredCharge {
  accountId: string;
  correlationID: string;
  globalID: string;
  transactionID: string;
  paymentLinkID: string;
  value: number;
  comment: string;
  customer?: CustomerRecord;
  additionalInfo: { key: string; value: string }[];
  expiresIn: number;
  createdAt: Date;
  updatedAt: Date;
  status: ChargeStatus;
  brCode: string;
  /** Woovi's fee in cents (the emulator's assumption: a percentage of the value). */
  fee: number;
  /** Scheme and host the charge was created through: base of its image and payment-link URLs. */
  publicBase: string;
  pix?: PixPayment;
  /** Parts for subaccounts (splits.ts), credited to their balances when the charge is paid. */
  splits?: StoredSplit[];
}

export interface WebhookRecord {
  id: string;
  accountId: string;
  name: string;
  event: string;
  url: string;
  authorization?: string;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookDelivery extends DeliveryRecord {
  id: number;
  event: string;
  accountId: string;
  /** The URL posted to, without its query string (it may carry the integrator's secret). */
  urlWithoutQuery: string;
  correlationID?: string;
}

function sameSecret(a: string, b: string): boolean {
  // Hash first so differing lengths do not leak through timingSafeEqual's length check.
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

export class EmulatorState extends EmulatorStateBase<WebhookDelivery> {
  /** accountId → AppID. */
  private readonly accounts = new Map<string, string>();
  /** accountId → correlationID → charge: a correlationID is unique per account. */
  private readonly charges = new Map<string, Map<string, StoredCharge>>();
  private readonly webhooks = new Map<string, WebhookRecord[]>();
  private counters = EmulatorState.zeroCounters();
  /** Subaccounts and their balances (subaccounts.ts): split parts land there. */
  readonly subaccounts = new SubaccountBook();
  /** Pix Automático subscriptions (pix-recurring.ts). */
  readonly recurring = new RecurringBook(this.now);
  /** The balance and the Pix payments sent (payments.ts, on the kit's PayoutBook). */
  readonly payments = new PayoutBook<WooviPaymentData>(this.now, (payment) => this.onPaymentSettled(payment));
  /** Payments created and not yet approved (nothing has left): accountId → correlationID → payment. */
  private readonly createdPayments = new Map<string, Map<string, WooviPaymentData>>();
  /** Called when a sent payment is confirmed or failed (the emulator sends its webhook). */
  onPaymentSettled: (payment: SentPayment) => void = () => undefined;
  /** Called once when an ACTIVE charge passes its expiry (the emulator sends CHARGE_EXPIRED). */
  onExpired: (charge: StoredCharge) => void = () => undefined;

  private static zeroCounters() {
    return { charges_created: 0, by_account: {} as Record<string, number> };
  }

  // --- accounts -----------------------------------------------------------------------------

  /** Registers an AppID as a valid sandbox credential (idempotent). */
  registerAccount(appId: string): { accountId: string; created: boolean } {
    const accountId = accountIdFor(appId);
    const created = !this.accounts.has(accountId);
    this.accounts.set(accountId, appId);
    return { accountId, created };
  }

  /** The account of a presented AppID, or undefined. */
  authenticate(appId: string): string | undefined {
    const accountId = accountIdFor(appId);
    const known = this.accounts.get(accountId);
    // Compare against a dummy when unknown so both paths take the same time.
    return sameSecret(known ?? '\u0000unknown', appId) && known !== undefined ? accountId : undefined;
  }

  // --- charges ------------------------------------------------------------------------------

  findCharge(accountId: string, correlationID: string): StoredCharge | undefined {
    const charge = this.charges.get(accountId)?.get(correlationID);
    return charge ? this.expireIfDue(charge) : undefined;
  }

  createCharge(charge: StoredCharge): StoredCharge {
    const own = this.charges.get(charge.accountId) ?? new Map<string, StoredCharge>();
    if (own.has(charge.correlationID)) throw wooviErrors.correlationIdInUse();
    own.set(charge.correlationID, charge);
    this.charges.set(charge.accountId, own);
    this.counters.charges_created += 1;
    this.counters.by_account[charge.accountId] = (this.counters.by_account[charge.accountId] ?? 0) + 1;
    return charge;
  }

  /** By correlationID or by the charge's own id (`globalID`), as GET/DELETE /charge/{id} accept. */
  getCharge(accountId: string, id: string): StoredCharge {
    const own = this.charges.get(accountId);
    const charge = own?.get(id) ?? [...(own?.values() ?? [])].find((c) => c.globalID === id);
    if (!charge) throw wooviErrors.chargeNotFound();
    return this.expireIfDue(charge);
  }

  listCharges(accountId: string): StoredCharge[] {
    return [...(this.charges.get(accountId)?.values() ?? [])].map((c) => this.expireIfDue(c));
  }

  /** DELETE removes an unpaid charge: it can no longer be paid and is no longer found. */
  removeCharge(accountId: string, id: string): StoredCharge {
    const charge = this.getCharge(accountId, id);
    if (charge.status === 'COMPLETED') throw wooviErrors.chargeNotActive(charge.status);
    this.charges.get(accountId)?.delete(charge.correlationID);
    return charge;
  }

  /** Charges with this id (correlationID or globalID) across accounts: the control API pays by id. */
  findChargesById(id: string): StoredCharge[] {
    const found: StoredCharge[] = [];
    for (const own of this.charges.values()) {
      for (const charge of own.values()) if (charge.correlationID === id || charge.globalID === id) found.push(this.expireIfDue(charge));
    }
    return found;
  }

  findByPaymentLinkId(paymentLinkID: string): StoredCharge | undefined {
    for (const own of this.charges.values()) {
      for (const charge of own.values()) if (charge.paymentLinkID === paymentLinkID) return this.expireIfDue(charge);
    }
    return undefined;
  }

  expiresAt(charge: StoredCharge): Date {
    return new Date(charge.createdAt.getTime() + charge.expiresIn * 1000);
  }

  /** An ACTIVE charge past `createdAt + expiresIn` becomes EXPIRED (once; onExpired is told). */
  expireIfDue(charge: StoredCharge): StoredCharge {
    if (charge.status === 'ACTIVE' && this.now().getTime() >= this.expiresAt(charge).getTime()) {
      charge.status = 'EXPIRED';
      charge.updatedAt = this.now();
      this.onExpired(charge);
    }
    return charge;
  }

  /** Settles an ACTIVE charge with one Pix of its full value; the caller checks the status first. */
  settleCharge(charge: StoredCharge, infoPagador?: string): PixPayment {
    const time = this.now();
    charge.pix = { endToEndId: newEndToEndId(time), time, ...(infoPagador ? { infoPagador } : {}) };
    charge.status = 'COMPLETED';
    charge.updatedAt = time;
    // The money is in the balance at once, net of Woovi's fee; each split part goes to its
    // subaccount's balance, only the rest to the account (splits.ts).
    for (const part of charge.splits ?? []) this.subaccounts.credit(charge.accountId, part.pixKey, part.value);
    this.payments.credit(charge.accountId, charge.value - charge.fee - splitsTotal(charge.splits));
    return charge.pix;
  }

  // --- Pix Out not yet approved (payments.ts) ------------------------------------------------

  createdPayment(accountId: string, correlationID: string): WooviPaymentData | undefined {
    return this.createdPayments.get(accountId)?.get(correlationID);
  }

  addCreatedPayment(payment: WooviPaymentData): WooviPaymentData {
    const own = this.createdPayments.get(payment.accountId) ?? new Map<string, WooviPaymentData>();
    own.set(payment.correlationID, payment);
    this.createdPayments.set(payment.accountId, own);
    return payment;
  }

  /** Once approved, a payment lives in the book. */
  dropCreatedPayment(accountId: string, correlationID: string): void {
    this.createdPayments.get(accountId)?.delete(correlationID);
  }

  // --- webhook registrations ----------------------------------------------------------------

  addWebhook(webhook: WebhookRecord): WebhookRecord {
    this.webhooks.set(webhook.accountId, [...(this.webhooks.get(webhook.accountId) ?? []), webhook]);
    return webhook;
  }

  listWebhooks(accountId: string, url?: string): WebhookRecord[] {
    return (this.webhooks.get(accountId) ?? []).filter((w) => url === undefined || w.url === url);
  }

  deleteWebhook(accountId: string, id: string): boolean {
    const own = this.webhooks.get(accountId) ?? [];
    const kept = own.filter((w) => w.id !== id);
    this.webhooks.set(accountId, kept);
    return kept.length !== own.length;
  }

  /** Active registrations of the account for this event. */
  webhooksFor(accountId: string, event: string): WebhookRecord[] {
    return this.listWebhooks(accountId).filter((w) => w.isActive && w.event === event);
  }

  // --- deliveries ---------------------------------------------------------------------------

  // --- stats and reset ----------------------------------------------------------------------

  stats() {
    let charges_stored = 0;
    for (const own of this.charges.values()) charges_stored += own.size;
    let webhooks_registered = 0;
    for (const own of this.webhooks.values()) webhooks_registered += own.length;
    return {
      ...this.counters,
      by_account: { ...this.counters.by_account },
      ...activityStats(this.deliveries, this.faults),
      charges_stored,
      accounts: this.accounts.size,
      webhooks_registered,
      payments_sent: [...this.accounts.keys()].reduce((n, id) => n + this.payments.list(id).length, 0),
    };
  }

  /** Clears charges, subscriptions, payments out (balances stay, as the kit's book keeps them), stats, faults and deliveries; keeps accounts and webhook registrations (account set-up). */
  reset(): void {
    this.charges.clear();
    this.recurring.clear();
    this.payments.reset();
    this.createdPayments.clear();
    this.faults.clear();
    this.faults.injected = 0;
    this.deliveries.clear();
    this.counters = EmulatorState.zeroCounters();
  }

  // --- persistence (kit/state-file.ts) ------------------------------------------------------

  /** What a restart keeps: accounts, charges, subscriptions, webhook registrations and the clock; stats and faults start afresh. */
  snapshot() {
    return { accounts: this.accounts, charges: this.charges, webhooks: this.webhooks, recurring: this.recurring.snapshot(), payments: this.payments.snapshot(), createdPayments: this.createdPayments, clockOffsetMs: this.clock.offset() };
  }

  restore(snapshot: ReturnType<EmulatorState['snapshot']>): void {
    refill(this.accounts, snapshot.accounts);
    refill(this.charges, snapshot.charges);
    refill(this.webhooks, snapshot.webhooks);
    this.recurring.restore(snapshot.recurring);
    // A file written before Pix Out existed has none.
    if (snapshot.payments) this.payments.restore(snapshot.payments);
    refill(this.createdPayments, snapshot.createdPayments);
    this.clock.restoreOffset(snapshot.clockOffsetMs);
  }
}
