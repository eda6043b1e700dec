/**
 * Pix Automático as Woovi offers it (psp-apis.md §5, §8): a subscription of `type:
 * "PIX_RECURRING"` with `pixRecurringOptions{journey, retryPolicy}`; Woovi creates each cycle's
 * charge itself. The facts name only that much; the rest is the emulator's decision, written
 * here and in the README:
 * - Body: `{type, correlationID, value (integer cents), customer{name, taxID}, comment?,
 *   frequency (WEEKLY|MONTHLY|QUARTERLY|SEMIANNUALLY|ANNUALLY, default MONTHLY), startDate?
 *   (first due date, default today), endDate?, pixRecurringOptions{journey ONLY_RECURRENCY |
 *   PAYMENT_ON_APPROVAL, retryPolicy NAO_PERMITE | PERMITE_3R_7D (the Banco Central's names;
 *   Woovi's are unconfirmed), default NAO_PERMITE}}`.
 * - Status PENDING → ACTIVE | REJECTED | EXPIRED (the approval charge of PAYMENT_ON_APPROVAL
 *   expired unpaid), and CANCELED (DELETE). ONLY_RECURRENCY is approved in the payer's bank
 *   (control port); PAYMENT_ON_APPROVAL by paying its approval charge, which is the first cycle.
 * - Woovi creates a cycle's charge 10 calendar days before its due date (skipping a cycle less
 *   than 2 days away at activation); the charge is debited on its due date (control port), and a
 *   failed debit is retried by Woovi the next day while PERMITE_3R_7D allows (3 retries within 7
 *   days after the due date); the last failure expires the charge (OPENPIX:CHARGE_EXPIRED).
 * - Subscription events `OPENPIX:PIX_AUTOMATIC_APPROVED`, `_REJECTED`, `_CANCELED`, `_EXPIRED`
 *   with body `{event, subscription, company, account}` (names unconfirmed).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { addDays, cycleDate, refill, saoPauloDate, type Frequency } from '../../kit';
import { wooviErrors } from './woovi-errors';

export type SubscriptionStatus = 'PENDING' | 'ACTIVE' | 'REJECTED' | 'CANCELED' | 'EXPIRED';
export type Journey = 'ONLY_RECURRENCY' | 'PAYMENT_ON_APPROVAL';
export type RetryPolicy = 'NAO_PERMITE' | 'PERMITE_3R_7D';

export const SUBSCRIPTION_EVENTS = {
  ACTIVE: 'OPENPIX:PIX_AUTOMATIC_APPROVED',
  REJECTED: 'OPENPIX:PIX_AUTOMATIC_REJECTED',
  CANCELED: 'OPENPIX:PIX_AUTOMATIC_CANCELED',
  EXPIRED: 'OPENPIX:PIX_AUTOMATIC_EXPIRED',
} as const;

const LEAD_DAYS = 10;
const MAX_RETRIES = 3;
const RETRY_DAYS = 7;
/** Placeholder ISPB of Woovi in recurrence ids (the emulator's; not asserted anywhere). */
const WOOVI_ISPB = '54811417';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** One cycle's charge, by the charge's correlationID, with its debit attempts. */
export interface CycleRecord {
  index: number;
  dueDate: string;
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
  startDate: string;
  endDate?: string;
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
    ...(s.endDate !== undefined ? { endDate: s.endDate } : {}),
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
    cycles: s.cycles.map((c) => ({ dueDate: c.dueDate, chargeCorrelationID: c.correlationID, failedAttempts: c.failures, ...(c.nextAttempt ? { nextAttempt: c.nextAttempt } : {}) })),
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
    return `R${retryPolicy === 'PERMITE_3R_7D' ? 'R' : 'N'}${WOOVI_ISPB}${this.today().replace(/-/g, '')}${tail}`;
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

  /** Cycles whose charge Woovi creates today, recorded with their first debit date. */
  cyclesToCreate(): { subscription: StoredSubscription; cycle: CycleRecord }[] {
    const today = this.today();
    const due: { subscription: StoredSubscription; cycle: CycleRecord }[] = [];
    for (const subscription of this.subscriptions.values()) {
      if (subscription.status !== 'ACTIVE') continue;
      for (let index = 0; ; index += 1) {
        const dueDate = cycleDate(subscription.startDate, subscription.frequency, index);
        if (dueDate > addDays(today, LEAD_DAYS) || (subscription.endDate !== undefined && dueDate > subscription.endDate)) break;
        if (subscription.cyclesDone.includes(index)) continue;
        subscription.cyclesDone.push(index);
        if (dueDate < addDays(today, 2)) continue;
        const cycle: CycleRecord = { index, dueDate, correlationID: `${subscription.correlationID}-${index}`, nextAttempt: dueDate, failures: [] };
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

  /** A failed debit: Woovi retries the next day while the policy allows; answers whether it gave up. */
  failed(subscription: StoredSubscription, cycle: CycleRecord): boolean {
    const today = this.today();
    cycle.failures.push(today);
    const next = addDays(today, 1);
    if (subscription.retryPolicy === 'PERMITE_3R_7D' && cycle.failures.length <= MAX_RETRIES && next <= addDays(cycle.dueDate, RETRY_DAYS)) {
      cycle.nextAttempt = next;
      return false;
    }
    delete cycle.nextAttempt;
    return true;
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
