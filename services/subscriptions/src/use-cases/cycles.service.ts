/**
 * Over 300 lines: one cycle's whole life (schedule, send, merchant charge, provider reports,
 * outcome, cancel) shares the lease and replay rules that make sending exactly-once; split, they
 * would have to be re-read across files.
 */
import { modeFromName, toPublicPayment, type common, type payments, type ProviderCycleChargeUpdated } from '@orquestra/contracts';
import { AppError, newId } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { Clock } from '../clock/service-clock';
import { addDays, saoPauloDate } from '../domain/calendar-date';
import { CHARGE_LEAD_CALENDAR_DAYS_MAX, chargeSendWindow, validateChargeDueDate, windowPosition } from '../domain/charge-window';
import { retryDateFrom, retryPolicyOf } from '../domain/cycle-retries';
import { cycleAt, cycleContaining, type CycleSchedule } from '../domain/cycle-schedule';
import { cycleEvent } from '../db/cycle-events';
import type { CycleDoc, CycleStatus } from '../db/cycle.model';
import type { CycleStore, NewCycle } from '../db/cycle.store';
import type { SubscriptionDoc } from '../db/subscription.model';
import type { CallerScope, SubscriptionStore } from '../db/subscription.store';
import type { CyclePayments, CycleProvider } from './cycle-ports';

/** Refusals of CreateCyclePayment that a repeat with the same payment id cannot change. */
const PERMANENT_REFUSALS = new Set(['parameter_invalid', 'parameter_missing', 'invalid_request', 'not_found', 'idempotency_conflict']);

/** The cycle's payment is being sent by another call: try again when the lease ends. */
export class CycleStillSending extends Error {
  constructor(cycleId: string) {
    super(`cycle ${cycleId}: its charge is still being sent`);
    this.name = 'CycleStillSending';
  }
}

/** Largest amount of one cycle, in cents (the payments' own limit applies too). */
const MAX_CYCLE_AMOUNT = 100_000_000_00;

export interface CyclesOptions {
  clock: Clock;
  /** How long one sender holds a cycle before another replica may send it again (same payment id). */
  sendLeaseMs: number;
  /** Tells the cycle sender that a cycle became due now (a pass without waiting for the poll). */
  kickSender?: () => void;
}

export interface ChargeCommand {
  scope: CallerScope;
  amount?: number;
  dueDate?: string;
  idempotencyKey: string;
  requestHash: string;
}

const scheduleOf = (sub: SubscriptionDoc): CycleSchedule => ({ start_date: sub.start_date, frequency: sub.frequency, end_date: sub.end_date });

/** The caller the payments service sees for a subscription's cycles: its merchant and mode, never restricted. */
/** Payments' largest list page. */
const PAYMENTS_PAGE_SIZE = 100;

function callerOf(sub: Pick<SubscriptionDoc, 'merchant_id' | 'mode'>): common.Caller {
  return { merchant_id: sub.merchant_id, mode: modeFromName(sub.mode), key_id: '', restricted: false } as common.Caller;
}

function cycleStatusOf(paymentStatus: string): CycleStatus {
  switch (paymentStatus) {
    case 'succeeded':
    case 'refunded':
    case 'partially_refunded':
      return 'paid';
    case 'failed':
      return 'failed';
    case 'canceled':
      return 'canceled';
    default:
      return 'scheduled';
  }
}

/**
 * The cycles of subscriptions (issue 13 item 4). Each cycle is first a document here, inserted on
 * `<subscription>:<sequence>` with its payment id chosen up front, then a payment of the payments
 * service made with that id (CreateCyclePayment, idempotent on it, sends the charge or adopts the
 * provider's). So a cycle is charged at most once whoever gets there first (scheduler passes on
 * two replicas, an API request, a retry after a crash), and a cycle inserted but not yet sent is
 * sent by whichever replica's sender finds it when its lease ends.
 */
export class CyclesService {
  constructor(
    private readonly subscriptions: SubscriptionStore,
    private readonly cycles: CycleStore,
    private readonly payments: CyclePayments,
    private readonly provider: CycleProvider,
    private readonly logger: Logger,
    private readonly options: CyclesOptions,
  ) {}

  private today(): string {
    return saoPauloDate(this.options.clock());
  }

  // --- the schedule --------------------------------------------------------------------------

  /**
   * One scheduler pass: every active subscription whose next cycle may be sent now gets it
   * (fixed amounts at providers where we send the cycles; variable amounts are charged by the
   * merchant, and providers that make their own cycles report them). Answers how many were sent.
   */
  async schedulePass(limit = 100): Promise<number> {
    const today = this.today();
    let sent = 0;
    for (const sub of await this.subscriptions.findWithCycleDueBy(addDays(today, CHARGE_LEAD_CALENDAR_DAYS_MAX), limit)) {
      if (await this.scheduleNext(sub, today)) sent += 1;
    }
    // A cycle is due at most a few days after its anchor (business days): 10 days after end_date
    // nothing of the schedule can still be charged.
    for (const sub of await this.subscriptions.findEnded(today, addDays(today, -CHARGE_LEAD_CALENDAR_DAYS_MAX), limit)) {
      await this.subscriptions.transition(sub, { to: 'expired', event: 'subscription.expired' });
    }
    return sent;
  }

  private async scheduleNext(sub: SubscriptionDoc, today: string): Promise<boolean> {
    const cycle = cycleAt(scheduleOf(sub), sub.next_cycle);
    if (!cycle) {
      await this.subscriptions.advanceNextCycle(sub._id, sub.next_cycle, null);
      return false;
    }
    const position = windowPosition(chargeSendWindow(cycle.due_date), today);
    if (position === 'before') return false;
    const following = cycleAt(scheduleOf(sub), cycle.sequence + 1);
    if (position === 'missed') {
      // Pix Automático takes a cycle's charge only 2 to 10 business days ahead: a cycle whose
      // window passed unsent (the service was down through it) cannot be charged any more.
      this.logger.warn({ subscription_id: sub._id, sequence: cycle.sequence, due_date: cycle.due_date }, 'cycle send window missed: skipped');
      await this.subscriptions.advanceNextCycle(sub._id, cycle.sequence, following);
      return false;
    }
    const inserted = await this.cycles.insert(this.newCycle(sub, { sequence: cycle.sequence, due_date: cycle.due_date, amount: sub.amount ?? 0, origin: 'schedule' }));
    await this.subscriptions.advanceNextCycle(sub._id, cycle.sequence, following);
    if (inserted) this.options.kickSender?.();
    return inserted;
  }

  private newCycle(
    sub: SubscriptionDoc,
    cycle: { sequence: number; due_date: string; amount: number; origin: CycleDoc['origin']; providerChargeId?: string; idempotencyKey?: string; requestHash?: string; claimed?: boolean },
  ): NewCycle {
    const id = `${sub._id}:${cycle.sequence}`;
    const now = new Date();
    return {
      _id: id,
      subscription_id: sub._id,
      merchant_id: sub.merchant_id,
      mode: sub.mode,
      sequence: cycle.sequence,
      due_date: cycle.due_date,
      amount: cycle.amount,
      payment_id: newId('payment'),
      provider_charge_id: cycle.providerChargeId ?? '',
      origin: cycle.origin,
      status: 'sending',
      failed_attempts: 0,
      next_attempt_date: null,
      idempotency_ref: cycle.idempotencyKey ? `${sub._id}:key:${cycle.idempotencyKey}` : id,
      request_hash: cycle.requestHash ?? '',
      // Due now for the sender; one the caller sends itself is leased to it first.
      due_at: cycle.claimed ? new Date(Date.now() + this.options.sendLeaseMs) : now,
      created_at: now,
      updated_at: now,
    };
  }

  // --- sending -------------------------------------------------------------------------------

  /**
   * Makes the cycle's payment (the sender's handler, and the API's charge inline). A failure
   * leaves the cycle `sending`: when its lease ends, a sender makes the same call again with the
   * same payment id, which answers the payment the first call made or finishes it.
   */
  async send(cycle: CycleDoc, options: { rethrowRefusal?: boolean } = {}): Promise<payments.Payment | null> {
    const sub = await this.subscriptions.findById(cycle.subscription_id);
    if (!sub) throw new Error(`cycle ${cycle._id}: no subscription ${cycle.subscription_id}`);
    const adopted = cycle.provider_charge_id !== '';
    if (!adopted && sub.status !== 'active') {
      // Canceled (or ended) before its charge went out: never sent now, unless an earlier call
      // whose answer was lost made the payment: then that call is finished (the provider refuses a
      // charge on the canceled recurrence, so the payment ends failed, never pending for good).
      const made = await this.payments.getPayment({ caller: callerOf(sub), payment_id: cycle.payment_id }).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'not_found') return null;
        throw error;
      });
      if (!made) {
        await this.cycles.settle(cycle.payment_id, 'canceled', []);
        return null;
      }
    }
    let answer: payments.CreateCyclePaymentResponse;
    try {
      answer = await this.payments.createCyclePayment({
        merchant_id: sub.merchant_id,
        mode: modeFromName(sub.mode),
        payment_id: cycle.payment_id,
        subscription_id: sub._id,
        cycle: cycle.sequence,
        provider_account_id: sub.provider_account_id,
        // The approval's payment is a plain Pix charge of the account, not a cycle charge.
        provider_recurrence_id: cycle.origin === 'approval' ? '' : sub.provider_recurrence_id,
        amount: cycle.amount,
        due_date: cycle.due_date,
        description: sub.description,
        customer: { name: sub.customer.name, document: sub.customer.document } as common.Customer,
        metadata: sub.metadata,
        tracking: sub.tracking,
        source_key_id: sub.source_key_id,
        ...(adopted ? { provider_charge_id: cycle.provider_charge_id } : {}),
      });
    } catch (error) {
      // A refusal that no repeat can change (the account removed, the request invalid): the cycle
      // ends failed instead of being sent again forever; transient errors are retried by the lease.
      if (error instanceof AppError && PERMANENT_REFUSALS.has(error.code)) {
        this.logger.error({ subscription_id: sub._id, cycle: cycle.sequence, code: error.code }, 'cycle payment refused for good: cycle failed');
        await this.cycles.settle(cycle.payment_id, 'failed', []);
        if (options.rethrowRefusal) throw error;
        return null;
      }
      throw error;
    }
    const { payment } = answer;
    if (!payment) throw new Error(`cycle ${cycle._id}: payments answered no payment`);
    // Pending without a charge: another call is still sending it (or died doing so). The cycle
    // stays `sending`; when its lease ends the same call is made again and finds the charge.
    if (payment.status === 'pending' && !payment.provider_payment_id) throw new CycleStillSending(cycle._id);
    if (payment.customer_id && !sub.customer_id) await this.subscriptions.linkCustomer(sub._id, payment.customer_id);
    const to = cycleStatusOf(payment.status);
    const object = toPublicPayment(payment, { withHistory: false }) as unknown as Record<string, unknown>;
    const events =
      to === 'scheduled' && cycle.origin !== 'approval'
        ? [cycleEvent('subscription.cycle_scheduled', cycle, object, sub.source_key_id)]
        : to === 'failed'
          ? [cycleEvent('subscription.cycle_failed', cycle, object, sub.source_key_id)]
          : [];
    await this.cycles.markSent(cycle, to, payment.provider_payment_id, events);
    return payment;
  }

  // --- the API: POST /subscriptions/{id}/charge ------------------------------------------------

  async charge(id: string, command: ChargeCommand): Promise<{ payment: payments.Payment; replayed: boolean }> {
    const sub = await this.subscriptions.get(command.scope, id);
    if (command.idempotencyKey) {
      const earlier = await this.cycles.findByIdempotencyRef(`${sub._id}:key:${command.idempotencyKey}`);
      if (earlier) return { payment: await this.replay(sub, earlier, command.requestHash), replayed: true };
    }
    if (sub.status !== 'active') {
      throw new AppError('invalid_request', {
        param: 'id',
        message: `A assinatura ${sub._id} está ${sub.status}: só uma assinatura ativa (aprovada pelo pagador) pode ser cobrada.`,
      });
    }
    if (sub.cycles === 'provider') {
      throw new AppError('invalid_request', {
        param: 'id',
        message: `O provedor desta assinatura (${sub.provider}) cria sozinho a cobrança de cada ciclo: não envie cobranças manuais; acompanhe os ciclos em GET /v1/subscriptions/${sub._id}.`,
      });
    }
    const amount = this.chargeAmount(sub, command.amount);
    const today = this.today();
    const dueDate = command.dueDate ?? this.defaultDueDate(sub, today);
    const valid = validateChargeDueDate(dueDate, today);
    if (!valid.ok) throw new AppError(valid.error.code, { param: valid.error.param, message: valid.error.message });
    const cycle = cycleContaining(scheduleOf(sub), dueDate);
    if (!cycle || cycle.sequence < 2) {
      throw new AppError('parameter_invalid', {
        param: 'due_date',
        message: `A data ${dueDate} não cai em um ciclo cobrável da assinatura (o primeiro ciclo é pago na aprovação${sub.end_date ? `; a assinatura termina em ${sub.end_date}` : ''}).`,
      });
    }
    if (sub.amount !== null && cycle.sequence > sub.next_cycle) {
      // The schedule charges fixed amounts cycle by cycle: a date further ahead would skip the
      // cycles before it for good.
      throw new AppError('parameter_invalid', {
        param: 'due_date',
        message: `A data ${dueDate} cai no ciclo ${cycle.sequence}, depois do próximo ciclo a cobrar (${sub.next_cycle}, vencimento ${sub.next_charge_date ?? 'nenhum'}): escolha uma data desse ciclo.`,
      });
    }
    const doc = this.newCycle(sub, {
      sequence: cycle.sequence,
      due_date: dueDate,
      amount,
      origin: 'api',
      idempotencyKey: command.idempotencyKey,
      requestHash: command.requestHash,
      claimed: true,
    });
    if (!(await this.cycles.insert(doc))) {
      const sameKey = command.idempotencyKey ? await this.cycles.findByIdempotencyRef(doc.idempotency_ref) : null;
      if (sameKey) return { payment: await this.replay(sub, sameKey, command.requestHash), replayed: true };
      const existing = await this.cycles.findById(doc._id);
      throw new AppError('invalid_request', {
        param: 'due_date',
        message: `O ciclo ${cycle.sequence} da assinatura (${cycle.anchor_date} em diante) já tem cobrança${existing ? ` (pagamento ${existing.payment_id})` : ''}: o Pix Automático aceita uma cobrança por ciclo. Escolha uma data do próximo ciclo.`,
      });
    }
    await this.subscriptions.advanceNextCycle(sub._id, cycle.sequence, cycleAt(scheduleOf(sub), cycle.sequence + 1));
    const stored = (await this.cycles.findById(doc._id)) ?? ({ ...doc, outbox: [], outbox_since: null } as CycleDoc);
    return { payment: await this.sendForCaller(sub, stored), replayed: false };
  }

  private async sendForCaller(sub: SubscriptionDoc, cycle: CycleDoc): Promise<payments.Payment> {
    try {
      return this.sentOrRefused(sub, await this.send(cycle, { rethrowRefusal: true }));
    } catch (error) {
      if (error instanceof CycleStillSending) throw new AppError('idempotency_in_progress', { param: 'Idempotency-Key' });
      throw error;
    }
  }

  private sentOrRefused(sub: SubscriptionDoc, payment: payments.Payment | null): payments.Payment {
    if (payment) return payment;
    throw new AppError('invalid_request', { param: 'id', message: `A assinatura ${sub._id} foi cancelada ou terminou durante a cobrança: o ciclo não foi cobrado.` });
  }

  private chargeAmount(sub: SubscriptionDoc, amount: number | undefined): number {
    if (sub.amount === null) {
      if (amount === undefined) throw new AppError('parameter_missing', { param: 'amount', message: 'Esta assinatura tem valor variável: informe amount (em centavos) em cada cobrança.' });
      if (!Number.isInteger(amount) || amount < 1 || amount > MAX_CYCLE_AMOUNT) {
        throw new AppError('parameter_invalid', { param: 'amount', message: `O campo amount deve ser um inteiro em centavos entre 1 e ${MAX_CYCLE_AMOUNT}.` });
      }
      return amount;
    }
    if (amount !== undefined && amount !== sub.amount) {
      throw new AppError('parameter_invalid', { param: 'amount', message: `Esta assinatura tem valor fixo de ${sub.amount} centavos por ciclo: omita amount ou envie exatamente esse valor.` });
    }
    return sub.amount;
  }

  /** The next cycle's due date, when it is within the window; else the caller must say. */
  private defaultDueDate(sub: SubscriptionDoc, today: string): string {
    if (sub.next_charge_date && validateChargeDueDate(sub.next_charge_date, today).ok) return sub.next_charge_date;
    throw new AppError('parameter_missing', {
      param: 'due_date',
      message: `Informe due_date: a próxima data de cobrança (${sub.next_charge_date ?? 'nenhuma'}) não está entre 2 e 10 dias úteis à frente.`,
    });
  }

  private async replay(sub: SubscriptionDoc, cycle: CycleDoc, requestHash: string): Promise<payments.Payment> {
    if (cycle.request_hash !== requestHash) throw new AppError('idempotency_conflict', { param: 'Idempotency-Key' });
    // Still being sent (or its sender died): making the payment again with its id is safe.
    if (cycle.status === 'sending') return this.sendForCaller(sub, cycle);
    const { payment } = await this.payments.getPayment({ caller: callerOf(sub), payment_id: cycle.payment_id });
    if (!payment) throw new AppError('service_unavailable');
    return payment;
  }

  // --- what providers and payments report ------------------------------------------------------

  /** The approval's payment (first_amount) becomes cycle 1 once the subscription is active. */
  async adoptApprovalPayment(sub: SubscriptionDoc): Promise<void> {
    if (!sub.approval_charge_id || sub.first_amount <= 0) return;
    const inserted = await this.cycles.insert(
      this.newCycle(sub, { sequence: 1, due_date: sub.start_date, amount: sub.first_amount, origin: 'approval', providerChargeId: sub.approval_charge_id }),
    );
    if (inserted) this.options.kickSender?.();
  }

  /**
   * A cycle charge changed at the provider. One the provider made itself becomes a cycle here
   * (its payment adopting the charge); a failed debit with attempts left is counted, and where
   * the receiver asks for retries (Efí), the next one is asked for on the PERMITE_3R_7D schedule.
   * Paid and failed reach the cycle through its payment's events (payments applies the same report).
   */
  async applyCycleCharge(report: ProviderCycleChargeUpdated): Promise<void> {
    const sub = await this.subscriptions.findByRecurrence(report.account_id, report.provider_recurrence_id);
    if (!sub) {
      this.logger.info({ provider_recurrence_id: report.provider_recurrence_id }, 'cycle charge of an unknown recurrence ignored');
      return;
    }
    let cycle = await this.cycles.findByProviderCharge(sub._id, report.provider_charge_id);
    if (!cycle && sub.cycles === 'provider') {
      cycle = await this.adoptProviderCycle(sub, report);
      if (!cycle) return;
    }
    if (!cycle) {
      // Ours, its charge id not recorded yet (the sender is finishing): the bus redelivers.
      throw new Error(`no cycle yet for charge ${report.provider_charge_id} of ${sub._id}`);
    }
    if (report.status !== 'retrying' || report.failed_attempts <= cycle.failed_attempts) return;
    const asksForRetries = sub.cycles === 'ours' && sub.retry;
    const next = report.next_attempt_date ?? (asksForRetries ? retryDateFrom(cycle.due_date, retryPolicyOf(sub.retry), report.failed_attempts, this.today()) : null);
    // The attempt is counted first (one conditional write): of concurrent deliveries of one report,
    // only the one that counted it asks the provider for the retry.
    const counted = await this.cycles.recordFailedAttempt(cycle, report.failed_attempts, next);
    if (!counted || report.next_attempt_date || !asksForRetries || !next) return;
    try {
      await this.provider.retryCycleCharge({
        account: { merchant_id: sub.merchant_id, mode: modeFromName(sub.mode), account_id: sub.provider_account_id },
        provider_charge_id: report.provider_charge_id,
        date: next,
      });
    } catch (error) {
      // Not asked: uncount it, so the redelivered report asks again.
      await this.cycles.uncountFailedAttempt(counted, cycle.failed_attempts, cycle.next_attempt_date);
      throw error;
    }
  }

  /**
   * A provider that makes its own cycles lists them on the recurrence (Woovi sends no event of its
   * own when it creates one): each not known here is read back and adopted.
   */
  async adoptListedCycles(accountId: string, providerRecurrenceId: string, chargeIds: readonly string[]): Promise<void> {
    if (chargeIds.length === 0) return;
    const sub = await this.subscriptions.findByRecurrence(accountId, providerRecurrenceId);
    if (!sub || sub.cycles !== 'provider') return;
    for (const chargeId of chargeIds) {
      if (await this.cycles.findByProviderCharge(sub._id, chargeId)) continue;
      const { charge } = await this.provider.getCycleCharge({
        account: { merchant_id: sub.merchant_id, mode: modeFromName(sub.mode), account_id: sub.provider_account_id },
        provider_recurrence_id: providerRecurrenceId,
        provider_charge_id: chargeId,
      });
      if (!charge) continue;
      await this.applyCycleCharge({
        account_id: accountId,
        provider: sub.provider,
        provider_recurrence_id: providerRecurrenceId,
        provider_charge_id: charge.provider_charge_id,
        status: charge.status as ProviderCycleChargeUpdated['status'],
        provider_status: charge.provider_status,
        amount: charge.amount,
        due_date: charge.due_date,
        failed_attempts: charge.failed_attempts,
        ...(charge.next_attempt_date ? { next_attempt_date: charge.next_attempt_date } : {}),
        ...(charge.end_to_end_id ? { end_to_end_id: charge.end_to_end_id } : {}),
        via: 'sync',
      });
    }
  }

  private async adoptProviderCycle(sub: SubscriptionDoc, report: ProviderCycleChargeUpdated): Promise<CycleDoc | null> {
    const cycle = cycleContaining(scheduleOf(sub), report.due_date);
    if (!cycle) {
      this.logger.warn({ subscription_id: sub._id, due_date: report.due_date }, 'provider cycle outside the schedule: not adopted');
      return null;
    }
    const doc = this.newCycle(sub, { sequence: cycle.sequence, due_date: report.due_date, amount: report.amount, origin: 'provider', providerChargeId: report.provider_charge_id });
    if (await this.cycles.insert(doc)) {
      await this.subscriptions.advanceNextCycle(sub._id, cycle.sequence, cycleAt(scheduleOf(sub), cycle.sequence + 1));
      this.options.kickSender?.();
    }
    return this.cycles.findByProviderCharge(sub._id, report.provider_charge_id);
  }

  /** A cycle payment reached a final status (payments' public event): the cycle follows. */
  async applyPaymentOutcome(type: string, payment: Record<string, unknown>): Promise<void> {
    const paymentId = typeof payment['id'] === 'string' ? payment['id'] : '';
    if (!paymentId || !payment['subscription_id']) return;
    const to = type === 'payment.succeeded' ? 'paid' : type === 'payment.failed' ? 'failed' : type === 'payment.canceled' ? 'canceled' : null;
    if (!to) return;
    const cycle = await this.cycles.findByPayment(paymentId);
    if (!cycle) return;
    const sub = await this.subscriptions.findById(cycle.subscription_id);
    const events = to === 'failed' ? [cycleEvent('subscription.cycle_failed', cycle, payment, sub?.source_key_id ?? '')] : [];
    const chargeId = typeof payment['provider_payment_id'] === 'string' ? payment['provider_payment_id'] : '';
    await this.cycles.settle(paymentId, to, events, chargeId);
  }

  /**
   * After a cancel: cycles not sent yet are dropped; those sent are read again through their
   * payment (the provider canceled the unpaid charges with the recurrence), so the payments
   * end canceled too. A failure is logged: the provider's next report still moves them.
   */
  async afterCancel(sub: SubscriptionDoc): Promise<void> {
    for (const cycle of await this.cycles.listOpen(sub._id)) {
      try {
        await this.payments.syncPayment({ caller: callerOf(sub), payment_id: cycle.payment_id });
      } catch (error) {
        // Never made (its sender had not called payments yet, and will not now): dropped here.
        if (error instanceof AppError && error.code === 'not_found' && cycle.status === 'sending') {
          await this.cycles.settle(cycle.payment_id, 'canceled', []);
          continue;
        }
        this.logger.warn({ subscription_id: sub._id, payment_id: cycle.payment_id, err: (error as Error).message }, 'cycle payment not synced after cancel');
      }
    }
  }

  /**
   * Every cycle's payment, newest first, for GET /subscriptions/{id}: payments' list by
   * subscription, page after page until `has_more` is false (a weekly subscription has 52 cycles a
   * year, so one page of 100 would cut a two-year-old one short).
   */
  async paymentsOf(sub: SubscriptionDoc): Promise<payments.Payment[]> {
    const all: payments.Payment[] = [];
    let startingAfter = '';
    for (;;) {
      const page = await this.payments.listPayments({
        caller: callerOf(sub),
        subscription_id: sub._id,
        limit: PAYMENTS_PAGE_SIZE,
        status: '',
        method: '',
        provider: '',
        starting_after: startingAfter,
        q: '',
      });
      all.push(...page.data);
      const last = page.data[page.data.length - 1];
      // An empty page that still says has_more would never advance the cursor: stop rather than spin.
      if (!page.has_more || !last) return all;
      startingAfter = last.id;
    }
  }
}
