/**
 * Everything the emulator remembers, in memory: sandbox accounts (access token, webhook secret,
 * Pix key, dashboard webhook URL), payments (each account sees only its own), idempotency keys,
 * webhook deliveries, stats and (in FaultRegistry) faults. No HTTP here: routes call these
 * methods and turn thrown MpApiErrors into responses.
 */
import { randomBytes } from 'node:crypto';
import { activityStats, EmulatorStateBase, refill, type DeliveryRecord } from '../../kit';
import { evpKeyFor, idSeed, newEndToEndId, userIdForToken } from './mp-ids';
import { mpErrors } from './mp-errors';
import { CARD_TOKEN_TTL_MS, type StoredCardToken } from './card-tokens';
import type { PixPaymentRequest } from './payment-request';
import type { StoredRefund } from './refunds';
import { chargebackNotFound, type StoredChargeback } from './chargebacks';

export interface AccountRegistration {
  access_token: string;
  /** The "assinatura secreta" webhooks are signed with; generated when not given, as the dashboard does. */
  webhook_secret?: string;
}

export interface Account {
  accessToken: string;
  userId: number;
  webhookSecret: string;
  pixKey: string;
  /** URL configured "in the dashboard" (control route); a payment's notification_url wins over it. */
  dashboardWebhookUrl?: string;
}

export type PaymentStatus = 'pending' | 'approved' | 'cancelled' | 'refunded' | 'rejected' | 'in_process';
export type PaymentStatusDetail =
  | 'pending_waiting_transfer'
  | 'pending_waiting_payment'
  | 'pending_contingency'
  | 'accredited'
  | 'by_collector'
  | 'expired'
  | 'partially_refunded'
  | 'refunded'
  | `cc_rejected_${string}`;

export interface StoredPayment {
  id: number;
  userId: number;
  request: PixPaymentRequest;
  status: PaymentStatus;
  statusDetail: PaymentStatusDetail;
  createdAt: Date;
  updatedAt: Date;
  approvedAt?: Date;
  /** Pix only ('' for boleto and card). */
  qrCode: string;
  qrCodeBase64: string;
  ticketUrl: string;
  endToEndId?: string;
  /** Boleto: the bar code, linha digitável and PDF (`external_resource_url`). */
  boleto?: { barcode: string; digitableLine: string; pdfUrl: string };
  /** Card: what the token showed (never the number). */
  card?: { firstSix: string; lastFour: string; expMonth: number; expYear: number; holderName: string };
  /** Mercado Pago's fee, known once the payment is approved. */
  feeCents?: number;
  /** Refunds of this payment, oldest first (see refunds.ts). */
  refunds?: StoredRefund[];
  /** Card: its chargeback, once the control port opened one (see chargebacks.ts). */
  chargeback?: StoredChargeback;
}

export interface WebhookDelivery extends DeliveryRecord {
  id: number;
  /** `webhook` (signed, JSON body) or the legacy `ipn` (topic/id query, not verifiable). */
  kind: 'webhook' | 'ipn';
  userId: number;
  paymentId: number;
  action: string;
  /** The URL posted to, without its query string (it may carry the integrator's secret). */
  urlWithoutQuery: string;
}

/** Mercado Pago's Pix fee for sellers in Brazil: 0.99 % of the amount, rounded half up to the cent. */
export function pixFeeCents(amountCents: number): number {
  return Math.floor((amountCents * 99 + 5_000) / 10_000);
}

/** The emulator's boleto fee: a flat R$ 3,49. */
export const BOLETO_FEE_CENTS = 349;

/** The emulator's card fee: 4.98 % of the amount, rounded half up to the cent. */
export function cardFeeCents(amountCents: number): number {
  return Math.floor((amountCents * 498 + 5_000) / 10_000);
}

/** The fee of an approved payment by its kind. */
export function feeFor(payment: StoredPayment): number {
  const kind = payment.request.kind ?? 'pix';
  if (kind === 'boleto') return Math.min(BOLETO_FEE_CENTS, payment.request.amountCents);
  if (kind === 'card') return cardFeeCents(payment.request.amountCents);
  return pixFeeCents(payment.request.amountCents);
}

export class EmulatorState extends EmulatorStateBase<WebhookDelivery> {
  private readonly accounts = new Map<string, Account>();
  /** userId → payment id → payment. */
  private readonly payments = new Map<number, Map<number, StoredPayment>>();
  private readonly byId = new Map<number, StoredPayment>();
  /** `${userId}\0${X-Idempotency-Key}` → payment id. */
  private readonly idempotency = new Map<string, number>();
  /** Card tokens by id (memory only: they live minutes in practice, 7 days at most). */
  private readonly cardTokens = new Map<string, StoredCardToken>();
  private nextPaymentId = idSeed(1_320_000_000);
  private nextNotificationId = idSeed(120_000_000_000);
  private counters = EmulatorState.zeroCounters();
  /** Faults on the API port, keyed by access token, or global. */

  private static zeroCounters() {
    return { charges_created: 0, by_account: {} as Record<string, number> };
  }

  // --- accounts -----------------------------------------------------------------------------

  /** Registers or updates sandbox credentials (idempotent; a new secret replaces the old one). */
  registerAccount(registration: AccountRegistration): { created: boolean; account: Account } {
    const existing = this.accounts.get(registration.access_token);
    const userId = userIdForToken(registration.access_token);
    const account: Account = {
      accessToken: registration.access_token,
      userId,
      webhookSecret: registration.webhook_secret ?? existing?.webhookSecret ?? randomBytes(32).toString('hex'),
      pixKey: evpKeyFor(userId),
      ...(existing?.dashboardWebhookUrl ? { dashboardWebhookUrl: existing.dashboardWebhookUrl } : {}),
    };
    this.accounts.set(account.accessToken, account);
    return { created: !existing, account };
  }

  accountForToken(token: string): Account | undefined {
    return this.accounts.get(token);
  }

  accountForUser(userId: number): Account | undefined {
    for (const account of this.accounts.values()) if (account.userId === userId) return account;
    return undefined;
  }

  // --- payments -----------------------------------------------------------------------------

  allocatePaymentId(): number {
    this.nextPaymentId += 1;
    return this.nextPaymentId;
  }

  allocateNotificationId(): number {
    this.nextNotificationId += 1;
    return this.nextNotificationId;
  }

  /** The payment an idempotency key already made for this account, if any. */
  paymentForKey(userId: number, idempotencyKey: string): StoredPayment | undefined {
    const id = this.idempotency.get(`${userId}\u0000${idempotencyKey}`);
    return id === undefined ? undefined : this.getPayment(userId, id);
  }

  createPayment(payment: StoredPayment, idempotencyKey: string): StoredPayment {
    const own = this.payments.get(payment.userId) ?? new Map<number, StoredPayment>();
    own.set(payment.id, payment);
    this.payments.set(payment.userId, own);
    this.byId.set(payment.id, payment);
    this.idempotency.set(`${payment.userId}\u0000${idempotencyKey}`, payment.id);
    this.counters.charges_created += 1;
    const key = String(payment.userId);
    this.counters.by_account[key] = (this.counters.by_account[key] ?? 0) + 1;
    return payment;
  }

  /** The payment as it is now (a pending one past its expiry reads cancelled/expired); 404 for others'. */
  getPayment(userId: number, id: number): StoredPayment {
    const payment = this.payments.get(userId)?.get(id);
    if (!payment) throw mpErrors.paymentNotFound();
    return this.expireIfDue(payment);
  }

  /** The account's payments as they are now (expiry applied), in creation order. */
  listPayments(userId: number): StoredPayment[] {
    return [...(this.payments.get(userId)?.values() ?? [])].map((payment) => this.expireIfDue(payment));
  }

  /** Any account's payment by id (the control API pays by id alone: ids are unique here). */
  findPayment(id: number): StoredPayment | undefined {
    const payment = this.byId.get(id);
    return payment ? this.expireIfDue(payment) : undefined;
  }

  /** The account's chargeback by id; 404 for an unknown one or another account's. */
  getChargeback(userId: number, id: string): StoredChargeback {
    for (const payment of this.payments.get(userId)?.values() ?? []) if (payment.chargeback?.id === id) return payment.chargeback;
    throw chargebackNotFound();
  }

  /** Any account's chargeback by id, with its payment (the control API decides by id alone). */
  findChargeback(id: string): { payment: StoredPayment; chargeback: StoredChargeback } | undefined {
    for (const payment of this.byId.values()) if (payment.chargeback?.id === id) return { payment, chargeback: payment.chargeback };
    return undefined;
  }

  private expireIfDue(payment: StoredPayment): StoredPayment {
    if (payment.status === 'pending' && this.now().getTime() >= payment.request.expiresAt.getTime()) {
      payment.status = 'cancelled';
      payment.statusDetail = 'expired';
      payment.updatedAt = payment.request.expiresAt;
    }
    return payment;
  }

  // --- card tokens --------------------------------------------------------------------------

  storeCardToken(token: StoredCardToken): void {
    this.cardTokens.set(token.id, token);
  }

  /**
   * Spends a token on a payment of `userId`: unknown, expired, already used or another account's
   * → 400 cause 2006 ("Card Token not found": a token works only on the account that issued it).
   */
  spendCardToken(userId: number, id: string): StoredCardToken {
    const token = this.cardTokens.get(id);
    if (!token || token.userId !== userId || token.used || this.now().getTime() - token.createdAt.getTime() > CARD_TOKEN_TTL_MS) throw mpErrors.cardTokenNotFound();
    token.used = true;
    return token;
  }

  cancelPayment(userId: number, id: number): StoredPayment {
    const payment = this.getPayment(userId, id);
    if (payment.status !== 'pending') throw mpErrors.notCancellable();
    payment.status = 'cancelled';
    payment.statusDetail = 'by_collector';
    payment.updatedAt = this.now();
    return payment;
  }

  /** Settles a pending payment with one Pix of its full amount; the caller checks the status first. */
  approvePayment(payment: StoredPayment): StoredPayment {
    const at = this.now();
    payment.status = 'approved';
    payment.statusDetail = 'accredited';
    payment.approvedAt = at;
    payment.updatedAt = at;
    if ((payment.request.kind ?? 'pix') === 'pix') payment.endToEndId = newEndToEndId(at);
    payment.feeCents = feeFor(payment);
    return payment;
  }

  // --- webhook deliveries -------------------------------------------------------------------

  // --- stats and reset ----------------------------------------------------------------------

  stats() {
    return {
      ...this.counters,
      by_account: { ...this.counters.by_account },
      ...activityStats(this.deliveries, this.faults),
      charges_stored: this.byId.size,
      accounts: this.accounts.size,
    };
  }

  /** Clears payments, idempotency keys, stats, faults and deliveries; accounts and webhook URLs stay. */
  reset(): void {
    this.payments.clear();
    this.byId.clear();
    this.idempotency.clear();
    this.cardTokens.clear();
    this.faults.clear();
    this.faults.injected = 0;
    this.deliveries.clear();
    this.counters = EmulatorState.zeroCounters();
  }

  // --- persistence (kit/state-file.ts) ------------------------------------------------------

  /** What a restart keeps: accounts, payments, idempotency keys and id sequences; stats and faults start afresh. */
  snapshot() {
    return {
      accounts: this.accounts,
      payments: this.payments,
      idempotency: this.idempotency,
      nextPaymentId: this.nextPaymentId,
      nextNotificationId: this.nextNotificationId,
    };
  }

  restore(snapshot: ReturnType<EmulatorState['snapshot']>): void {
    refill(this.accounts, snapshot.accounts);
    refill(this.payments, snapshot.payments);
    // The index shares the payments' objects, so it is rebuilt rather than stored twice.
    this.byId.clear();
    for (const own of this.payments.values()) for (const payment of own.values()) this.byId.set(payment.id, payment);
    refill(this.idempotency, snapshot.idempotency);
    this.nextPaymentId = snapshot.nextPaymentId;
    this.nextNotificationId = snapshot.nextNotificationId;
  }
}
