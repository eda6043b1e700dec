/**
 * Everything the emulator remembers, in memory: sandbox accounts (by secret key), customers,
 * orders with their one Pix charge (each account sees only its own), idempotency keys, webhook
 * URLs, deliveries, stats and (in FaultRegistry) faults. No HTTP here: routes call these methods
 * and turn thrown PagarmeApiErrors into responses.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { activityStats, EmulatorStateBase, PayoutBook, refill } from '../../kit';
import { accountIdFor, newEndToEndId, newId, recipientIdFor } from './pagarme-ids';
import { takeBack } from './split-rules';
import { pagarmeErrors } from './pagarme-errors';
import type { PagarmeWithdrawalData } from './withdrawals';
import type { StoredRecipient } from './recipients';
import type { StoredCard } from './card-payments';
import type { Account, AccountRegistration, RefundTransaction, StoredCustomer, StoredOrder, WebhookConfig, WebhookDelivery } from './emulator-records';

export type {
  Account,
  AccountRegistration,
  ChargeStatus,
  OrderStatus,
  PixTransaction,
  PixTransactionStatus,
  StoredCharge,
  StoredCustomer,
  StoredOrder,
  WebhookConfig,
  WebhookDelivery,
} from './emulator-records';

/** Pagar.me keeps an idempotency key for 24 h after the first request that carried it. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

function sameSecret(a: string, b: string): boolean {
  // Hash first so differing lengths do not leak through timingSafeEqual's length check.
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

const zeroCounters = () => ({ charges_created: 0, by_account: {} as Record<string, number> });

export class EmulatorState extends EmulatorStateBase<WebhookDelivery> {
  private readonly accounts = new Map<string, Account>();
  private readonly customers = new Map<string, StoredCustomer>();
  /** accountId → orderId → order. */
  private readonly orders = new Map<string, Map<string, StoredOrder>>();
  /** chargeId → order, across accounts (charge ids are unique; lookups still check the account). */
  private readonly byChargeId = new Map<string, StoredOrder>();
  private readonly idempotency = new Map<string, { at: number; status: number; body: unknown }>();
  private readonly webhooks = new Map<string, WebhookConfig>();
  /** Recipients created by API (recipients.ts), by id; each has its own balance in `withdrawals`. */
  private readonly recipients = new Map<string, StoredRecipient>();
  /** Cards saved by card orders (card-payments.ts), by `card_…` id: digits kept are first six and last four only. */
  readonly cards = new Map<string, StoredCard>();
  private counters = zeroCounters();
  /** The balance and withdrawals (withdrawals.ts, on the kit's PayoutBook; Pagar.me sends no withdrawal webhooks). */
  readonly withdrawals = new PayoutBook<PagarmeWithdrawalData>(this.now, () => undefined);
  /** Called when a pending charge passes its `expires_at` (the emulator sends webhooks from it). */
  onExpired: (order: StoredOrder) => void = () => undefined;

  // --- accounts -----------------------------------------------------------------------------

  registerAccount(registration: AccountRegistration): { account: Account; created: boolean } {
    const id = accountIdFor(registration.secret_key);
    const existing = this.accounts.get(id);
    const account: Account = {
      id,
      secretKey: registration.secret_key,
      name: registration.name ?? existing?.name ?? 'Orquestra Sandbox',
      mode: registration.secret_key.startsWith('sk_test_') ? 'test' : 'live',
    };
    this.accounts.set(id, account);
    return { account, created: !existing };
  }

  /** The account of a secret key, compared in constant time. */
  authenticate(secretKey: string): Account | undefined {
    const account = this.accounts.get(accountIdFor(secretKey));
    return account && sameSecret(account.secretKey, secretKey) ? account : undefined;
  }

  /** An account by its id or by its secret key (control routes accept either). */
  resolveAccount(idOrKey: string): Account | undefined {
    return idOrKey.startsWith('acc_') ? this.accounts.get(idOrKey) : this.authenticate(idOrKey);
  }

  // --- customers ----------------------------------------------------------------------------

  saveCustomer(accountId: string, customer: StoredCustomer): StoredCustomer {
    const key = `${accountId}\u0000${customer.id}`;
    const existing = this.customers.get(key);
    const saved = existing ? { ...customer, createdAt: existing.createdAt } : customer;
    this.customers.set(key, saved);
    return saved;
  }

  getCustomer(accountId: string, customerId: string): StoredCustomer | undefined {
    return this.customers.get(`${accountId}\u0000${customerId}`);
  }

  // --- idempotency --------------------------------------------------------------------------

  replay(accountId: string, key: string): { status: number; body: unknown } | undefined {
    const entry = this.idempotency.get(`${accountId}\u0000${key}`);
    if (!entry || this.now().getTime() - entry.at >= IDEMPOTENCY_TTL_MS) return undefined;
    return { status: entry.status, body: entry.body };
  }

  remember(accountId: string, key: string, status: number, body: unknown): void {
    this.idempotency.set(`${accountId}\u0000${key}`, { at: this.now().getTime(), status, body });
  }

  // --- orders and charges -------------------------------------------------------------------

  addOrder(order: StoredOrder): StoredOrder {
    const own = this.orders.get(order.accountId) ?? new Map<string, StoredOrder>();
    own.set(order.id, order);
    this.orders.set(order.accountId, own);
    this.byChargeId.set(order.charge.id, order);
    this.counters.charges_created += 1;
    this.counters.by_account[order.accountId] = (this.counters.by_account[order.accountId] ?? 0) + 1;
    return order;
  }

  getOrder(accountId: string, orderId: string): StoredOrder {
    const order = this.orders.get(accountId)?.get(orderId);
    if (!order) throw pagarmeErrors.orderNotFound();
    return this.expireIfDue(order);
  }

  /** The order holding a charge of this account. */
  getChargeOrder(accountId: string, chargeId: string): StoredOrder {
    const order = this.byChargeId.get(chargeId);
    if (!order || order.accountId !== accountId) throw pagarmeErrors.chargeNotFound();
    return this.expireIfDue(order);
  }

  /** Newest first, as Pagar.me lists them. */
  listOrders(accountId: string): StoredOrder[] {
    return [...(this.orders.get(accountId)?.values() ?? [])].reverse().map((o) => this.expireIfDue(o));
  }

  /** The order of a charge id or order id of any account (the control API pays by id alone). */
  findAnywhere(id: string): StoredOrder | undefined {
    const order = this.byChargeId.get(id) ?? [...this.orders.values()].map((own) => own.get(id)).find(Boolean);
    return order ? this.expireIfDue(order) : undefined;
  }

  findByTransaction(transactionId: string): StoredOrder | undefined {
    return [...this.byChargeId.values()].find((o) => o.charge.transaction.id === transactionId);
  }

  /** A pending Pix past `expires_at` fails (charge, transaction and order), as an unpaid Pix does. */
  private expireIfDue(order: StoredOrder): StoredOrder {
    const { charge } = order;
    // A boleto past due stays payable at Pagar.me until the bank's limit: it does not expire here.
    if (charge.status === 'pending' && !charge.transaction.boleto && this.now().getTime() >= charge.transaction.expiresAt.getTime()) {
      const at = this.now();
      charge.status = 'failed';
      charge.updatedAt = at;
      charge.transaction.status = 'failed';
      charge.transaction.updatedAt = at;
      order.status = 'failed';
      order.updatedAt = at;
      this.onExpired(order);
    }
    return order;
  }

  /** Expires every due charge (a timer calls this so expiry webhooks go out without a read). */
  sweepExpired(): void {
    for (const order of this.byChargeId.values()) this.expireIfDue(order);
  }

  /** Pays a pending charge in full; the caller checks the status first. */
  settle(order: StoredOrder, payerName = 'PAGADOR SANDBOX'): void {
    const at = this.now();
    const { charge } = order;
    charge.status = 'paid';
    charge.paidAmount = charge.amount;
    charge.paidAt = at;
    charge.updatedAt = at;
    charge.transaction.status = 'paid';
    if (!charge.transaction.boleto) charge.transaction.endToEndId = newEndToEndId(at);
    if (!charge.transaction.boleto) charge.transaction.payer = {
      name: payerName,
      document: '***456789**',
      document_type: 'cpf',
      bank_account: { bank_name: 'Stone Instituição de Pagamento S.A.', ispb: '16501555' },
    };
    charge.transaction.updatedAt = at;
    order.status = 'paid';
    order.updatedAt = at;
    // The money is in the recipients' available balances at once (Pagar.me's release schedule is
    // not emulated): each split rule's part to its recipient, or all of it to the account's own.
    if (charge.split) for (const rule of charge.split) this.withdrawals.credit(rule.owner, rule.amount);
    else this.withdrawals.credit(order.accountId, charge.amount);
  }

  /** A card order captured at creation: paid at once, the money in the balances as for a paid Pix. */
  settleCard(order: StoredOrder): void {
    const at = this.now();
    const { charge } = order;
    charge.status = 'paid';
    charge.paidAmount = charge.amount;
    charge.paidAt = at;
    order.status = 'paid';
    if (charge.split) for (const rule of charge.split) this.withdrawals.credit(rule.owner, rule.amount);
    else this.withdrawals.credit(order.accountId, charge.amount);
  }

  /** Money a refund returns leaves the balances: in proportion to the split rules (split-rules.ts), or the account's own. */
  private takeBack(order: StoredOrder, canceledBefore: number, amount: number): void {
    const { charge } = order;
    if (!charge.split) {
      this.withdrawals.debit(order.accountId, amount);
      return;
    }
    for (const debit of takeBack(charge.split, charge.paidAmount ?? charge.amount, canceledBefore + amount)) this.withdrawals.debit(debit.owner, debit.amount);
  }

  /** The balance owner of a recipient id this account may name in a split rule: its own recipient or one it created. */
  splitRecipientOwner(accountId: string, recipientId: string): string | undefined {
    if (recipientId === recipientIdFor(accountId)) return accountId;
    const created = this.recipients.get(recipientId);
    return created?.accountId === accountId ? created.id : undefined;
  }

  /** `DELETE /charges/:id`: cancels a pending charge, refunds a paid one (Pagar.me does both). */
  cancel(order: StoredOrder): 'canceled' | 'refunded' {
    const { charge } = order;
    const refund = charge.status === 'paid' || charge.status === 'overpaid';
    if (charge.status !== 'pending' && !refund) throw pagarmeErrors.chargeNotCancelable(charge.status);
    const at = this.now();
    // A paid charge canceled is refunded: what was not yet returned leaves the balance.
    if (refund) this.takeBack(order, charge.canceledAmount ?? 0, (charge.paidAmount ?? charge.amount) - (charge.canceledAmount ?? 0));
    charge.status = 'canceled';
    charge.canceledAmount = charge.amount;
    charge.canceledAt = at;
    charge.updatedAt = at;
    charge.transaction.status = refund ? 'refunded' : 'canceled';
    charge.transaction.updatedAt = at;
    order.status = 'canceled';
    order.updatedAt = at;
    return refund ? 'refunded' : 'canceled';
  }

  /**
   * `DELETE /charges/:id` on a paid charge: returns `amount` (default: all that is left). A boleto
   * needs the payer's bank account (`bank_account`), since a boleto has no account to return to.
   * The charge becomes `canceled` once everything is returned; before that it stays `paid`.
   */
  refund(order: StoredOrder, request: { amount?: number; operationReference?: string; bankAccount?: boolean }): { transition: 'refunded' | 'partial_canceled'; refund: RefundTransaction } {
    const { charge } = order;
    if (charge.status !== 'paid' && charge.status !== 'overpaid') throw pagarmeErrors.chargeNotCancelable(charge.status);
    if (charge.transaction.boleto && !request.bankAccount) {
      throw pagarmeErrors.invalid({ bank_account: ['The bank_account field is required to refund a boleto charge.'] }, {});
    }
    const paid = charge.paidAmount ?? charge.amount;
    const left = paid - (charge.canceledAmount ?? 0);
    const amount = request.amount ?? left;
    if (amount > left) throw pagarmeErrors.invalid({ amount: [`The amount to cancel (${amount}) is greater than the available amount (${left}).`] }, {});
    const at = this.now();
    const refund: RefundTransaction = {
      id: newId('tran'),
      amount,
      status: 'refunded',
      ...(request.operationReference ? { operationReference: request.operationReference } : {}),
      toBankAccount: Boolean(charge.transaction.boleto),
      createdAt: at,
    };
    charge.refunds = [...(charge.refunds ?? []), refund];
    this.takeBack(order, charge.canceledAmount ?? 0, amount);
    charge.canceledAmount = (charge.canceledAmount ?? 0) + amount;
    charge.updatedAt = at;
    if (charge.canceledAmount < paid) return { transition: 'partial_canceled', refund };
    charge.status = 'canceled';
    charge.canceledAt = at;
    charge.transaction.status = 'refunded';
    charge.transaction.updatedAt = at;
    order.status = 'canceled';
    order.updatedAt = at;
    return { transition: 'refunded', refund };
  }

  // --- webhooks -----------------------------------------------------------------------------

  setWebhook(accountId: string, config: WebhookConfig): void {
    this.webhooks.set(accountId, config);
  }

  getWebhook(accountId: string): WebhookConfig | undefined {
    return this.webhooks.get(accountId);
  }

  // --- recipients created by API (recipients.ts) ----------------------------------------------

  createRecipient(recipient: StoredRecipient): StoredRecipient {
    this.recipients.set(recipient.id, recipient);
    return recipient;
  }

  /** An account's created recipient by its id or its `code` (Pagar.me's getRecipientByCode shares the path). */
  recipientOf(accountId: string, idOrCode: string): StoredRecipient | undefined {
    const byId = this.recipients.get(idOrCode);
    if (byId) return byId.accountId === accountId ? byId : undefined;
    return [...this.recipients.values()].find((r) => r.accountId === accountId && r.request.code === idOrCode);
  }

  /** Any account's created recipient (the control routes name it by id alone). */
  recipient(id: string): StoredRecipient | undefined {
    return this.recipients.get(id);
  }

  /** Newest first. */
  recipientsOf(accountId: string): StoredRecipient[] {
    return [...this.recipients.values()].filter((r) => r.accountId === accountId).reverse();
  }

  accountName(accountId: string): string {
    return this.accounts.get(accountId)?.name ?? 'Orquestra Sandbox';
  }

  // --- stats and reset ----------------------------------------------------------------------

  stats() {
    return {
      ...this.counters,
      by_account: { ...this.counters.by_account },
      ...activityStats(this.deliveries, this.faults),
      charges_stored: this.byChargeId.size,
      accounts: this.accounts.size,
      webhooks_configured: this.webhooks.size,
      withdrawals: [...this.accounts.keys()].reduce((n, id) => n + this.withdrawals.list(id).length, 0),
      recipients_created: this.recipients.size,
    };
  }

  /** Clears orders, withdrawals (balances stay, as the kit's book keeps them), idempotency keys, stats, faults and deliveries; accounts, created recipients and webhook URLs stay. */
  reset(): void {
    this.orders.clear();
    this.byChargeId.clear();
    this.customers.clear();
    this.cards.clear();
    this.idempotency.clear();
    this.withdrawals.reset();
    this.faults.clear();
    this.deliveries.clear();
    this.counters = zeroCounters();
  }

  // --- persistence (kit/state-file.ts) ------------------------------------------------------

  /** What a restart keeps: accounts, customers, orders, idempotency keys, webhook URLs, created recipients and balances; stats and faults start afresh. */
  snapshot() {
    return {
      accounts: this.accounts,
      customers: this.customers,
      orders: this.orders,
      idempotency: this.idempotency,
      webhooks: this.webhooks,
      withdrawals: this.withdrawals.snapshot(),
      recipients: this.recipients,
      cards: this.cards,
    };
  }

  restore(snapshot: ReturnType<EmulatorState['snapshot']>): void {
    refill(this.accounts, snapshot.accounts);
    refill(this.customers, snapshot.customers);
    refill(this.orders, snapshot.orders);
    // The index shares the orders' objects, so it is rebuilt rather than stored twice.
    this.byChargeId.clear();
    for (const own of this.orders.values()) for (const order of own.values()) this.byChargeId.set(order.charge.id, order);
    refill(this.idempotency, snapshot.idempotency);
    refill(this.webhooks, snapshot.webhooks);
    // A file written before withdrawals existed has none.
    if (snapshot.withdrawals) this.withdrawals.restore(snapshot.withdrawals);
    refill(this.recipients, snapshot.recipients);
    // A file written before card orders existed has none.
    refill(this.cards, snapshot.cards);
  }
}
