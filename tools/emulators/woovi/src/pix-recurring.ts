/**
 * Pix Automático as Woovi offers it (psp-apis.md §5, §8; developers.woovi.com "Como criar um Pix
 * Automático?", "Como implementar passo a passo", "Fluxograma"): a subscription of `type:
 * "PIX_RECURRING"` whose charges Woovi creates itself.
 *
 * From Woovi's docs: the body's `value` (cents), `customer` (with its address), `dayGenerateCharge`
 * (day of the month, or an ISO date that starts the recurrence; today for PAYMENT_ON_APPROVAL; a
 * day already past this month starts next month), `dayDue` (days until the charge expires),
 * `comment` (< 30 characters, the contract), `frequency`, `pixRecurringOptions{journey:
 * ONLY_RECURRENCY (journey 2) | PAYMENT_ON_APPROVAL (journey 3), retryPolicy}`; a cycle's charge is
 * created 4 days before its payment date; with retries, up to 3 more attempts: the day after the
 * payment date, midway to the charge's expiry, and on the expiry date; events PIX_AUTOMATIC_APPROVED,
 * PIX_AUTOMATIC_COBR_COMPLETED, PIX_AUTOMATIC_COBR_TRY_REJECTED (an attempt failed) and
 * PIX_AUTOMATIC_COBR_REJECTED (the charge expired after its last attempt failed).
 *
 * Decisions where they are silent:
 * - `retryPolicy` NON_PERMITED (default; the docs show only "NON_P…") or THREE_RETRIES_7_DAYS;
 *   `frequency` WEEKLY|MONTHLY|QUARTERLY|SEMIANNUALLY|ANNUALLY (the docs name those five periods);
 *   `dayDue` 1–7 (default 7, so that every retry fits the 7-day rule); `correlationID` optional.
 * - Status PENDING → ACTIVE | REJECTED | EXPIRED (PAYMENT_ON_APPROVAL's charge expired unpaid),
 *   and CANCELED (DELETE, which removes open cycle charges); events PIX_AUTOMATIC_REJECTED,
 *   PIX_AUTOMATIC_CANCELED, PIX_AUTOMATIC_EXPIRED; every PIX_AUTOMATIC_* body is
 *   `{event, subscription, charge?, company, account}`.
 * - PAYMENT_ON_APPROVAL's approval charge is the first cycle; ONLY_RECURRENCY is approved in the
 *   payer's bank (control port). A cycle less than 2 days away when created is skipped.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { addDays, cycleDate, refill, saoPauloDate, type Frequency } from '../../kit';
import { wooviErrors } from './woovi-errors';

export type SubscriptionStatus = 'PENDING' | 'ACTIVE' | 'REJECTED' | 'CANCELED' | 'EXPIRED';
export type Journey = 'ONLY_RECURRENCY' | 'PAYMENT_ON_APPROVAL';
export type RetryPolicy = 'NON_PERMITED' | 'THREE_RETRIES_7_DAYS';

export const SUBSCRIPTION_EVENTS = {
  ACTIVE: 'PIX_AUTOMATIC_APPROVED',
  REJECTED: 'PIX_AUTOMATIC_REJECTED',
  CANCELED: 'PIX_AUTOMATIC_CANCELED',
  EXPIRED: 'PIX_AUTOMATIC_EXPIRED',
} as const;

export const CYCLE_EVENTS = {
  completed: 'PIX_AUTOMATIC_COBR_COMPLETED',
  tryRejected: 'PIX_AUTOMATIC_COBR_TRY_REJECTED',
  rejected: 'PIX_AUTOMATIC_COBR_REJECTED',
} as const;

/** Woovi creates a cycle's charge this many days before its payment date. */
const LEAD_DAYS = 4;
/** Placeholder ISPB of Woovi in recurrence ids (the emulator's; not asserted anywhere). */
const WOOVI_ISPB = '54811417';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** One cycle's charge, by the charge's correlationID, with its debit attempts. */
export interface CycleRecord {
  index: number;
  /** The payment date (first debit attempt). */
  dueDate: string;
  /** The charge's expiry date: payment date + dayDue. */
  expiresOn: string;
  correlationID: string;
  /** The date of the debit attempt pending, if any. */
  nextAttempt?: string;
  failures: string[];
}

export interface StoredSubscription {
  accountId: string;
  globalID: string;
  correlationID: string;
  value: number;
  customer: { name: string; taxID: { taxID: string; type: 'BR:CPF' | 'BR:CNPJ' } };
  comment?: string;
  frequency: Frequency;
  /** The payment date of the first cycle. */
  startDate: string;
  dayDue: number;
  journey: Journey;
  retryPolicy: RetryPolicy;
  recurrencyId: string;
  emv: string;
  status: SubscriptionStatus;
  createdAt: Date;
  /** PAYMENT_ON_APPROVAL: the charge whose payment approves it (and pays cycle 0). */
  approvalCorrelationID?: string;
  cycles: CycleRecord[];
  /** Cycles whose charge was created or skipped. */
  cyclesDone: number[];
  /** Scheme and host the subscription was created through: base of its charges' URLs. */
  publicBase: string;
}

export function subscriptionJson(s: StoredSubscription) {
  return {
    globalID: s.globalID,
    correlationID: s.correlationID,
    type: 'PIX_RECURRING',
    value: s.value,
    customer: s.customer,
    ...(s.comment !== undefined ? { comment: s.comment } : {}),
    frequency: s.frequency,
    startDate: s.startDate,
    dayDue: s.dayDue,
    status: s.status,
    createdAt: s.createdAt.toISOString(),
    pixRecurring: {
      recurrencyId: s.recurrencyId,
      emv: s.emv,
      journey: s.journey,
      retryPolicy: s.retryPolicy,
      status: s.status,
      ...(s.approvalCorrelationID ? { approvalChargeCorrelationID: s.approvalCorrelationID } : {}),
    },
    cycles: s.cycles.map((c) => ({ dueDate: c.dueDate, expiresDate: c.expiresOn, chargeCorrelationID: c.correlationID, failedAttempts: c.failures, ...(c.nextAttempt ? { nextAttempt: c.nextAttempt } : {}) })),
  };
}

export class RecurringBook {
  private readonly subscriptions = new Map<string, StoredSubscription>();

  constructor(private readonly now: () => Date) {}

  private today(): string {
    return saoPauloDate(this.now());
  }

  newRecurrencyId(retryPolicy: RetryPolicy): string {
    let tail = '';
    for (let i = 0; i < 11; i += 1) tail += ALNUM[randomInt(ALNUM.length)];
    return `R${retryPolicy === 'THREE_RETRIES_7_DAYS' ? 'R' : 'N'}${WOOVI_ISPB}${this.today().replace(/-/g, '')}${tail}`;
  }

  create(subscription: Omit<StoredSubscription, 'globalID' | 'status' | 'createdAt' | 'cycles' | 'cyclesDone'>): StoredSubscription {
    if ([...this.subscriptions.values()].some((s) => s.accountId === subscription.accountId && s.correlationID === subscription.correlationID)) {
      throw wooviErrors.invalid('Já existe uma assinatura com esse correlationID');
    }
    const stored: StoredSubscription = {
      ...subscription,
      globalID: Buffer.from(`Subscription:${randomBytes(12).toString('hex')}`).toString('base64'),
      status: 'PENDING',
      createdAt: this.now(),
      cycles: [],
      cyclesDone: [],
    };
    this.subscriptions.set(stored.globalID, stored);
    return stored;
  }

  /** By globalID or correlationID. */
  get(accountId: string, id: string): StoredSubscription {
    const found = [...this.subscriptions.values()].find((s) => s.accountId === accountId && (s.globalID === id || s.correlationID === id));
    if (!found) throw wooviErrors.invalid('Assinatura não encontrada');
    return found;
  }

  find(id: string): StoredSubscription | undefined {
    return [...this.subscriptions.values()].find((s) => s.globalID === id || s.correlationID === id);
  }

  list(accountId: string): StoredSubscription[] {
    return [...this.subscriptions.values()].filter((s) => s.accountId === accountId);
  }

  all(): StoredSubscription[] {
    return [...this.subscriptions.values()];
  }

  /** PENDING → ACTIVE | REJECTED | EXPIRED; false when not pending. */
  decide(subscription: StoredSubscription, status: 'ACTIVE' | 'REJECTED' | 'EXPIRED'): boolean {
    if (subscription.status !== 'PENDING') return false;
    subscription.status = status;
    if (status === 'ACTIVE' && subscription.journey === 'PAYMENT_ON_APPROVAL') subscription.cyclesDone.push(0);
    return true;
  }

  cancel(subscription: StoredSubscription): void {
    if (subscription.status !== 'PENDING' && subscription.status !== 'ACTIVE') throw wooviErrors.invalid(`Assinatura não pode ser cancelada: status ${subscription.status}`);
    subscription.status = 'CANCELED';
  }

  /** Cycles whose charge Woovi creates today (4 days ahead), recorded with their first debit date. */
  cyclesToCreate(): { subscription: StoredSubscription; cycle: CycleRecord }[] {
    const today = this.today();
    const due: { subscription: StoredSubscription; cycle: CycleRecord }[] = [];
    for (const subscription of this.subscriptions.values()) {
      if (subscription.status !== 'ACTIVE') continue;
      for (let index = 0; ; index += 1) {
        const dueDate = cycleDate(subscription.startDate, subscription.frequency, index);
        if (dueDate > addDays(today, LEAD_DAYS)) break;
        if (subscription.cyclesDone.includes(index)) continue;
        subscription.cyclesDone.push(index);
        if (dueDate < addDays(today, 2)) continue;
        const cycle: CycleRecord = { index, dueDate, expiresOn: addDays(dueDate, subscription.dayDue), correlationID: `${subscription.correlationID}-${index}`, nextAttempt: dueDate, failures: [] };
        subscription.cycles.push(cycle);
        due.push({ subscription, cycle });
      }
    }
    return due;
  }

  /** The cycle a charge belongs to. */
  cycleOf(accountId: string, correlationID: string): { subscription: StoredSubscription; cycle: CycleRecord } | undefined {
    for (const subscription of this.subscriptions.values()) {
      if (subscription.accountId !== accountId) continue;
      const cycle = subscription.cycles.find((c) => c.correlationID === correlationID);
      if (cycle) return { subscription, cycle };
    }
    return undefined;
  }

  /** Why the pending debit cannot be settled or failed today, if it cannot. */
  notDebitable(cycle: CycleRecord): string | undefined {
    if (!cycle.nextAttempt) return 'no debit attempt is pending';
    return cycle.nextAttempt > this.today() ? `the debit is scheduled for ${cycle.nextAttempt}` : undefined;
  }

  settled(cycle: CycleRecord): void {
    delete cycle.nextAttempt;
  }

  /**
   * A failed debit. With retries, the next of: the day after the payment date, midway to the
   * expiry, the expiry date (later than today); answers whether another attempt is scheduled.
   */
  failed(subscription: StoredSubscription, cycle: CycleRecord): boolean {
    const today = this.today();
    cycle.failures.push(today);
    delete cycle.nextAttempt;
    if (subscription.retryPolicy !== 'THREE_RETRIES_7_DAYS') return false;
    const span = subscription.dayDue;
    const retries = [addDays(cycle.dueDate, 1), addDays(cycle.dueDate, Math.floor(span / 2)), cycle.expiresOn];
    const next = retries.find((date) => date > today && date <= cycle.expiresOn);
    if (next) cycle.nextAttempt = next;
    return cycle.nextAttempt !== undefined;
  }

  clear(): void {
    this.subscriptions.clear();
  }

  snapshot(): Map<string, StoredSubscription> {
    return this.subscriptions;
  }

  restore(snapshot: Map<string, StoredSubscription> | undefined): void {
    refill(this.subscriptions, snapshot);
  }
}
