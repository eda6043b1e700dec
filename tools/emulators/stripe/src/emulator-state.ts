/**
 * Everything the emulator remembers, in memory: accounts (one per secret key), PaymentIntents
 * (each account sees only its own), idempotency records, webhook endpoints, deliveries, stats and
 * (in FaultRegistry) faults. No HTTP here; routes and the lifecycle call these methods.
 */
import { createHash } from 'node:crypto';
import { activityStats, EmulatorStateBase, refill, type DeliveryRecord } from '../../kit';
import type { StoredPaymentIntent } from './payment-intent-model';
import type { StoredCardPaymentMethod } from './payment-methods';
import type { StoredRefund } from './refunds';
import { stripeErrors } from './stripe-errors';
import { accountIdForKey } from './stripe-ids';

export interface Account {
  id: string;
  livemode: boolean;
}

export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  enabledEvents: string[];
  secret: string;
  apiVersion: string | null;
  description: string | null;
  metadata: Record<string, string>;
  created: number;
  /** A Connect endpoint: events of the account's connected accounts (and only those). */
  connect?: boolean;
}

export interface IdempotencyRecord {
  method: string;
  path: string;
  fingerprint: string;
  createdAtMs: number;
  requestId: string;
  /** Absent while the first request is still executing. */
  response?: { status: number; body: unknown };
}

export interface WebhookDelivery extends DeliveryRecord {
  id: number;
  eventId: string;
  eventType: string;
  accountId: string;
  endpointId: string;
  /** The URL posted to, without its query string (it may carry the receiver's secret). */
  urlWithoutQuery: string;
  paymentIntentId?: string;
}

/** Stripe prunes idempotency keys once they are at least 24 hours old. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const keyDigest = (secretKey: string) => createHash('sha256').update(secretKey).digest('hex');

export class EmulatorState extends EmulatorStateBase<WebhookDelivery> {
  /** sha256(secret key) → account: lookups never compare the key itself. */
  private readonly accountsByKey = new Map<string, Account>();
  private readonly intents = new Map<string, StoredPaymentIntent>();
  private readonly refunds = new Map<string, StoredRefund>();
  private readonly idempotency = new Map<string, IdempotencyRecord>();
  private readonly endpoints = new Map<string, WebhookEndpoint>();
  /** Card PaymentMethods created from raw card fields (payment-methods.ts): last4 and brand only, never the number. */
  private readonly paymentMethods = new Map<string, StoredCardPaymentMethod>();
  private counters = EmulatorState.zeroCounters();

  private static zeroCounters() {
    return { charges_created: 0, by_account: {} as Record<string, number> };
  }

  nowSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  // --- accounts -------------------------------------------------------------------------------

  /** Registers a secret key as a valid sandbox credential (idempotent). */
  registerAccount(secretKey: string): { account: Account; created: boolean } {
    const digest = keyDigest(secretKey);
    const existing = this.accountsByKey.get(digest);
    if (existing) return { account: existing, created: false };
    const account = { id: accountIdForKey(secretKey), livemode: secretKey.includes('_live_') };
    this.accountsByKey.set(digest, account);
    return { account, created: true };
  }

  accountForKey(secretKey: string): Account | undefined {
    return this.accountsByKey.get(keyDigest(secretKey));
  }

  /** Fault scopes name an account by its secret key or its `acct_…` id. */
  accountIdFor(keyOrId: string): string {
    return this.accountForKey(keyOrId)?.id ?? keyOrId;
  }

  // --- payment intents ------------------------------------------------------------------------

  addIntent(intent: StoredPaymentIntent): void {
    this.intents.set(intent.id, intent);
    this.counters.charges_created += 1;
    this.counters.by_account[intent.accountId] = (this.counters.by_account[intent.accountId] ?? 0) + 1;
  }

  /** The account's PaymentIntent; another account's is as missing as an unknown one. */
  getIntent(accountId: string, id: string): StoredPaymentIntent {
    const intent = this.intents.get(id);
    if (!intent || intent.accountId !== accountId) throw stripeErrors.resourceMissing('payment_intent', id, 'intent');
    return intent;
  }

  findIntent(id: string): StoredPaymentIntent | undefined {
    return this.intents.get(id);
  }

  findByBoletoToken(token: string): StoredPaymentIntent | undefined {
    for (const intent of this.intents.values()) if (intent.boletoToken === token) return intent;
    return undefined;
  }

  findByPixToken(token: string): StoredPaymentIntent | undefined {
    for (const intent of this.intents.values()) if (intent.pixToken === token) return intent;
    return undefined;
  }

  // --- card PaymentMethods (payment-methods.ts) ------------------------------------------------

  addPaymentMethod(pm: StoredCardPaymentMethod): void {
    this.paymentMethods.set(pm.id, pm);
  }

  /** The account's PaymentMethod; another account's is as missing as an unknown one ("No such PaymentMethod"). */
  findPaymentMethod(accountId: string, id: string): StoredCardPaymentMethod | undefined {
    const pm = this.paymentMethods.get(id);
    return pm && pm.accountId === accountId ? pm : undefined;
  }

  /** Newest first, as Stripe lists. */
  listIntents(accountId: string): StoredPaymentIntent[] {
    return [...this.intents.values()].filter((i) => i.accountId === accountId).reverse();
  }

  allIntents(): IterableIterator<StoredPaymentIntent> {
    return this.intents.values();
  }

  // --- refunds --------------------------------------------------------------------------------

  addRefund(refund: StoredRefund): void {
    this.refunds.set(refund.id, refund);
  }

  /** The account's refund; another account's is as missing as an unknown one. */
  getRefund(accountId: string, id: string): StoredRefund {
    const refund = this.refunds.get(id);
    if (!refund || refund.accountId !== accountId) throw stripeErrors.resourceMissing('refund', id, 'id');
    return refund;
  }

  findRefund(id: string): StoredRefund | undefined {
    return this.refunds.get(id);
  }

  refundsOfCharge(chargeId: string): StoredRefund[] {
    return [...this.refunds.values()].filter((r) => r.chargeId === chargeId);
  }

  /** Newest first, as Stripe lists. */
  listRefunds(accountId: string, filter: { paymentIntentId?: string; chargeId?: string } = {}): StoredRefund[] {
    return [...this.refunds.values()]
      .filter((r) => r.accountId === accountId && (!filter.paymentIntentId || r.paymentIntentId === filter.paymentIntentId) && (!filter.chargeId || r.chargeId === filter.chargeId))
      .reverse();
  }

  // --- idempotency ----------------------------------------------------------------------------

  private idempotencyKey(accountId: string, key: string): string {
    return `${accountId}\u0000${key}`;
  }

  getIdempotency(accountId: string, key: string): IdempotencyRecord | undefined {
    const id = this.idempotencyKey(accountId, key);
    const record = this.idempotency.get(id);
    if (record && this.now().getTime() - record.createdAtMs >= IDEMPOTENCY_TTL_MS) {
      this.idempotency.delete(id);
      return undefined;
    }
    return record;
  }

  setIdempotency(accountId: string, key: string, record: IdempotencyRecord): void {
    this.idempotency.set(this.idempotencyKey(accountId, key), record);
  }

  deleteIdempotency(accountId: string, key: string): void {
    this.idempotency.delete(this.idempotencyKey(accountId, key));
  }

  // --- webhook endpoints and deliveries -------------------------------------------------------

  addEndpoint(endpoint: WebhookEndpoint): void {
    this.endpoints.set(endpoint.id, endpoint);
  }

  getEndpoint(accountId: string, id: string): WebhookEndpoint {
    const endpoint = this.endpoints.get(id);
    if (!endpoint || endpoint.accountId !== accountId) throw stripeErrors.resourceMissing('webhook_endpoint', id, 'id');
    return endpoint;
  }

  deleteEndpoint(accountId: string, id: string): WebhookEndpoint {
    const endpoint = this.getEndpoint(accountId, id);
    this.endpoints.delete(id);
    return endpoint;
  }

  listEndpoints(accountId: string): WebhookEndpoint[] {
    return [...this.endpoints.values()].filter((e) => e.accountId === accountId).reverse();
  }

  // --- stats and reset ------------------------------------------------------------------------

  stats() {
    return {
      ...this.counters,
      by_account: { ...this.counters.by_account },
      ...activityStats(this.deliveries, this.faults),
      charges_stored: this.intents.size,
      accounts: this.accountsByKey.size,
      webhook_endpoints: this.endpoints.size,
    };
  }

  /**
   * Clears PaymentIntents, idempotency records, deliveries, stats and faults. Accounts and webhook
   * endpoints stay: they are account set-up, which a running stack does once at connect time.
   */
  reset(): void {
    this.intents.clear();
    this.paymentMethods.clear();
    this.refunds.clear();
    this.idempotency.clear();
    this.deliveries.clear();
    this.faults.clear();
    this.faults.injected = 0;
    this.counters = EmulatorState.zeroCounters();
  }

  // --- persistence (kit/state-file.ts) ------------------------------------------------------

  /** What a restart keeps: accounts, PaymentIntents, refunds, idempotency records and endpoints; stats and faults start afresh. */
  snapshot() {
    return {
      accountsByKey: this.accountsByKey,
      intents: this.intents,
      refunds: this.refunds,
      idempotency: this.idempotency,
      endpoints: this.endpoints,
      paymentMethods: this.paymentMethods,
    };
  }

  restore(snapshot: ReturnType<EmulatorState['snapshot']>): void {
    refill(this.accountsByKey, snapshot.accountsByKey);
    refill(this.intents, snapshot.intents);
    refill(this.refunds, snapshot.refunds);
    refill(this.idempotency, snapshot.idempotency);
    refill(this.endpoints, snapshot.endpoints);
    // Absent in state files written before card PaymentMethods existed.
    if (snapshot.paymentMethods) refill(this.paymentMethods, snapshot.paymentMethods);
  }
}
