/**
 * Everything the emulator remembers, in memory: sandbox accounts (by API key), customers,
 * payments and their Pix transactions (each account sees only its own), webhook configurations and
 * deliveries (WebhookStore), stats and faults. No HTTP here: routes call these methods and turn
 * thrown AsaasApiErrors into answers.
 */
import type { ChargebackPaymentStatus, StoredChargeback } from './chargebacks';
import type { StoredRefund } from './refunds';
import { activityStats, EmulatorClock, FaultRegistry, PayoutBook, refill } from '../../kit';
import { AuthorizationBook } from './pix-automatic';
import { asaasErrors } from './asaas-errors';
import { accountIdFor, newEndToEndId, newUuid } from './asaas-ids';
import { spDate } from './sao-paulo-time';
import { WebhookStore } from './webhook-store';
import type { AsaasTransfer, AsaasTransferData } from './transfers';
import type { RegistrationStatus, StoredSubaccount } from './subaccounts';
import { splitTotal, type StoredSplit } from './splits';

export interface AccountRegistration {
  api_key: string;
}

export interface Account {
  id: string;
  apiKey: string;
  walletId: string;
}

export interface StoredCustomer {
  id: string;
  accountId: string;
  dateCreated: string;
  name: string;
  cpfCnpj: string;
  email?: string;
  phone?: string;
  mobilePhone?: string;
  externalReference?: string;
}

/**
 * The statuses the emulator's charges go through. Pix skips CONFIRMED (it is RECEIVED at once); a
 * card paid on the invoice page is CONFIRMED (paid, balance released later, as at Asaas).
 */
export type PaymentStatus = 'PENDING' | 'OVERDUE' | 'CONFIRMED' | 'RECEIVED' | 'REFUNDED' | ChargebackPaymentStatus;

/** PIX, BOLETO, or a card typed on the invoice page (CREDIT_CARD; UNDEFINED lets the buyer choose). */
export type BillingType = 'PIX' | 'BOLETO' | 'CREDIT_CARD' | 'UNDEFINED';

/** A BOLETO charge's slip, as `GET /payments/:id/identificationField` answers it (boleto.ts). */
export interface StoredBoleto {
  /** The 47-digit linha digitável. */
  identificationField: string;
  /** The 44-digit barcode. */
  barCode: string;
  nossoNumero: string;
}

/** The card that paid a charge (invoice page or sent in the create call), as Asaas reports it (`creditCard`). */
export interface PaidCard {
  last4: string;
  brand: string;
  /** The `creditCardToken` Asaas answers for a card sent in full (tied to the account and customer). */
  token?: string;
}

/** A `creditCardToken` of one account's customer. */
export interface StoredCardToken {
  accountId: string;
  customerId: string;
  last4: string;
  brand: string;
}

export interface StoredPayment {
  id: string;
  accountId: string;
  customerId: string;
  createdAt: Date;
  billingType: BillingType;
  valueCents: number;
  feeCents: number;
  description?: string;
  externalReference?: string;
  dueDate: string;
  status: PaymentStatus;
  deleted: boolean;
  invoiceNumber: string;
  /** The BR Code of its dynamic QR (`payload` of /pixQrCode). */
  brCode: string;
  /** BOLETO only: its slip. */
  boleto?: StoredBoleto;
  pixTransactionId?: string;
  paidAt?: Date;
  /** Set when a card paid it on the invoice page. */
  creditCard?: PaidCard;
  /** Estornos, oldest first (refunds.ts). */
  refunds?: StoredRefund[];
  /** A card chargeback on it (chargebacks.ts). */
  chargeback?: StoredChargeback;
  /** A Pix Automático cycle (or immediate QR code) of this authorization (pix-automatic.ts). */
  pixAutomaticAuthorizationId?: string;
  /** Parts for other wallets (splits.ts), credited when the charge is received. */
  split?: StoredSplit[];
}

export interface StoredPixTransaction {
  id: string;
  accountId: string;
  paymentId: string;
  endToEndIdentifier: string;
  valueCents: number;
  feeCents: number;
  effectiveAt: Date;
}

export class EmulatorState {
  private readonly accounts = new Map<string, Account>();
  private readonly customers = new Map<string, StoredCustomer>();
  private readonly payments = new Map<string, StoredPayment>();
  private readonly pixTransactions = new Map<string, StoredPixTransaction>();
  /** Subaccounts by their Asaas id (subaccounts.ts); each is also an account under its own API key. */
  private readonly subaccounts = new Map<string, StoredSubaccount>();
  /** `creditCardToken`s minted for cards sent in full (card-payments.ts): brand and last4 only, never the number. */
  readonly cardTokens = new Map<string, StoredCardToken>();
  private counters = EmulatorState.zeroCounters();
  readonly webhooks = new WebhookStore();
  /** Faults on every API request, per account or global (the shared control shape). */
  readonly faults = new FaultRegistry();
  /** Faults on charge creation (`POST /v3/payments`) only: Asaas's create is one step of several. */
  readonly createFaults = new FaultRegistry();

  /** The emulator's time, moved forward by tests (`/__control/clock`) to run Pix Automático cycles. */
  readonly clock: EmulatorClock;
  readonly now: () => Date;
  /** Pix Automático authorizations (pix-automatic.ts). */
  readonly pixAutomatic: AuthorizationBook;
  /** The balance and transfers out (transfers.ts, on the kit's PayoutBook). */
  readonly transfers: PayoutBook<AsaasTransferData>;
  /** Called when a transfer is paid or failed (the emulator sends its webhook). */
  onTransferSettled: (transfer: AsaasTransfer) => void = () => undefined;

  constructor(baseNow: () => Date) {
    this.clock = new EmulatorClock(baseNow);
    this.now = this.clock.now;
    this.pixAutomatic = new AuthorizationBook(this.now);
    this.transfers = new PayoutBook<AsaasTransferData>(this.now, (transfer) => this.onTransferSettled(transfer));
  }

  private static zeroCounters() {
    return { charges_created: 0, by_account: {} as Record<string, number>, customers_created: 0 };
  }

  // --- accounts -----------------------------------------------------------------------------

  registerAccount(registration: AccountRegistration): { account: Account; created: boolean } {
    const existing = this.accounts.get(registration.api_key);
    if (existing) return { account: existing, created: false };
    const account = { id: accountIdFor(registration.api_key), apiKey: registration.api_key, walletId: newUuid() };
    this.accounts.set(registration.api_key, account);
    return { account, created: true };
  }

  accountByKey(apiKey: string): Account | undefined {
    return this.accounts.get(apiKey);
  }

  /** The account whose wallet this is (a split names wallets). */
  accountByWallet(walletId: string): Account | undefined {
    return [...this.accounts.values()].find((a) => a.walletId === walletId);
  }

  // --- subaccounts (subaccounts.ts) ---------------------------------------------------------

  createSubaccount(sub: StoredSubaccount): StoredSubaccount {
    this.subaccounts.set(sub.id, sub);
    return sub;
  }

  subaccount(id: string): StoredSubaccount | undefined {
    return this.subaccounts.get(id);
  }

  /** The subaccount whose own API key this is, if the key is a subaccount's. */
  subaccountOfKey(apiKey: string): StoredSubaccount | undefined {
    return [...this.subaccounts.values()].find((s) => s.apiKey === apiKey);
  }

  /** Asaas keeps one account per e-mail. */
  subaccountWithEmail(email: string): StoredSubaccount | undefined {
    return [...this.subaccounts.values()].find((s) => s.fields['email'] === email);
  }

  /** A root account's subaccounts, newest first. */
  subaccountsOf(parentAccountId: string): StoredSubaccount[] {
    return [...this.subaccounts.values()].filter((s) => s.parentAccountId === parentAccountId).reverse();
  }

  setSubaccountStatus(sub: StoredSubaccount, status: RegistrationStatus): void {
    sub.status = status;
  }

  // --- customers ----------------------------------------------------------------------------

  createCustomer(customer: StoredCustomer): StoredCustomer {
    this.customers.set(customer.id, customer);
    this.counters.customers_created += 1;
    return customer;
  }

  getCustomer(accountId: string, id: string): StoredCustomer | undefined {
    const customer = this.customers.get(id);
    return customer?.accountId === accountId ? customer : undefined;
  }

  findCustomers(accountId: string, filter: (c: StoredCustomer) => boolean): StoredCustomer[] {
    return [...this.customers.values()].filter((c) => c.accountId === accountId && filter(c)).reverse();
  }

  // --- payments -----------------------------------------------------------------------------

  createPayment(payment: StoredPayment): StoredPayment {
    this.payments.set(payment.id, payment);
    this.counters.charges_created += 1;
    this.counters.by_account[payment.accountId] = (this.counters.by_account[payment.accountId] ?? 0) + 1;
    return payment;
  }

  /** The payment as it is now: a PENDING one whose due date passed (São Paulo calendar) is OVERDUE. */
  private refresh(payment: StoredPayment): StoredPayment {
    if (payment.status === 'PENDING' && spDate(this.now()) > payment.dueDate) payment.status = 'OVERDUE';
    return payment;
  }

  /** An account's payment, removed ones included (Asaas answers them with `deleted: true`). */
  getPayment(accountId: string, id: string): StoredPayment {
    const payment = this.payments.get(id);
    if (!payment || payment.accountId !== accountId) throw asaasErrors.notFound('Cobrança');
    return this.refresh(payment);
  }

  /** Any account's payment (the control API pays by id alone: ids are unique across accounts). */
  findPayment(id: string): StoredPayment | undefined {
    const payment = this.payments.get(id);
    return payment ? this.refresh(payment) : undefined;
  }

  /** Newest first, removed ones left out, as Asaas lists. */
  listPayments(accountId: string, filter: (p: StoredPayment) => boolean): StoredPayment[] {
    return [...this.payments.values()]
      .filter((p) => p.accountId === accountId && !p.deleted)
      .map((p) => this.refresh(p))
      .filter(filter)
      .reverse()
      // Newest first by creation: charges made "in the dashboard" may carry an earlier date than
      // ones stored before them (a stable sort keeps the newest stored first among equals).
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }

  /** Only charges awaiting payment (PENDING, OVERDUE) can be removed; removing twice is harmless. */
  deletePayment(accountId: string, id: string): StoredPayment {
    const payment = this.getPayment(accountId, id);
    if (payment.status !== 'PENDING' && payment.status !== 'OVERDUE') {
      throw asaasErrors.invalidAction(`Não é possível remover uma cobrança com status ${payment.status}.`);
    }
    payment.deleted = true;
    return payment;
  }

  /**
   * Pays an open, not removed charge in full: a BOLETO by its slip (no Pix transaction), any other
   * with one Pix. The caller checks payability first.
   */
  settlePayment(payment: StoredPayment): StoredPixTransaction | undefined {
    if (payment.billingType === 'BOLETO') {
      this.receive(payment, this.now());
      return undefined;
    }
    const at = this.now();
    const transaction: StoredPixTransaction = {
      id: newUuid(),
      accountId: payment.accountId,
      paymentId: payment.id,
      endToEndIdentifier: newEndToEndId(at),
      valueCents: payment.valueCents,
      feeCents: payment.feeCents,
      effectiveAt: at,
    };
    this.pixTransactions.set(transaction.id, transaction);
    this.receive(payment, at);
    payment.pixTransactionId = transaction.id;
    return transaction;
  }

  /** RECEIVED at `at`, the money credited at once. */
  private receive(payment: StoredPayment, at: Date): void {
    payment.status = 'RECEIVED';
    payment.paidAt = at;
    // The money is in the balance at once, net of Asaas's fee (a card's CONFIRMED is released later,
    // never here); each split part goes to its wallet's own balance, only the rest to this account.
    for (const part of payment.split ?? []) {
      this.transfers.credit(part.accountId, part.valueCents);
      part.status = 'DONE';
    }
    this.transfers.credit(payment.accountId, payment.valueCents - payment.feeCents - splitTotal(payment.split));
  }

  /** A card approved on the invoice page: CONFIRMED (Asaas releases the balance later). */
  confirmByCard(payment: StoredPayment, card: PaidCard): void {
    payment.status = 'CONFIRMED';
    payment.paidAt = this.now();
    payment.creditCard = card;
    for (const part of payment.split ?? []) part.status = 'AWAITING_CREDIT';
  }

  getPixTransaction(accountId: string, id: string): StoredPixTransaction {
    const transaction = this.pixTransactions.get(id);
    if (!transaction || transaction.accountId !== accountId) throw asaasErrors.notFound('Transação');
    return transaction;
  }

  // --- stats and reset ----------------------------------------------------------------------

  stats() {
    return {
      ...this.counters,
      by_account: { ...this.counters.by_account },
      ...activityStats(this.webhooks.deliveries, this.faults, this.createFaults),
      charges_stored: this.payments.size,
      accounts: this.accounts.size,
      webhooks_registered: this.webhooks.count(),
      pix_automatic_authorizations: this.pixAutomatic.count(),
      transfers: [...this.accounts.values()].reduce((n, a) => n + this.transfers.list(a.id).length, 0),
      subaccounts: this.subaccounts.size,
    };
  }

  /**
   * Clears charges, Pix transactions, authorizations, transfers (balances stay, as the kit's book keeps them), stats, faults and deliveries. Keeps accounts, subaccounts, customers and
   * webhook configurations: those are account set-up, done once when an account is connected.
   */
  reset(): void {
    this.payments.clear();
    this.cardTokens.clear();
    this.pixTransactions.clear();
    this.pixAutomatic.clear();
    this.transfers.reset();
    this.faults.clear();
    this.createFaults.clear();
    this.faults.injected = 0;
    this.createFaults.injected = 0;
    this.webhooks.deliveries.clear();
    this.counters = EmulatorState.zeroCounters();
  }

  // --- persistence (kit/state-file.ts) ------------------------------------------------------

  /** What a restart keeps: accounts, subaccounts, customers, charges, authorizations, webhook set-up and the clock; stats and faults start afresh. */
  snapshot() {
    return {
      clockOffsetMs: this.clock.offset(),
      pixAutomatic: this.pixAutomatic.snapshot(),
      accounts: this.accounts,
      customers: this.customers,
      payments: this.payments,
      pixTransactions: this.pixTransactions,
      webhooks: this.webhooks.snapshot(),
      transfers: this.transfers.snapshot(),
      subaccounts: this.subaccounts,
      cardTokens: this.cardTokens,
    };
  }

  restore(snapshot: ReturnType<EmulatorState['snapshot']>): void {
    refill(this.accounts, snapshot.accounts);
    refill(this.customers, snapshot.customers);
    refill(this.payments, snapshot.payments);
    refill(this.pixTransactions, snapshot.pixTransactions);
    this.webhooks.restore(snapshot.webhooks);
    this.pixAutomatic.restore(snapshot.pixAutomatic);
    // A file written before transfers existed has none.
    if (snapshot.transfers) this.transfers.restore(snapshot.transfers);
    refill(this.subaccounts, snapshot.subaccounts);
    // A file written before card tokens existed has none.
    refill(this.cardTokens, snapshot.cardTokens);
    this.clock.restoreOffset(snapshot.clockOffsetMs);
  }
}
