import { payments, providers } from '@orquestra/contracts';
import { AppError, connectDatabase, createRpcClient, ensureIndexes, EventBus, GrpcServer, OutboxRelay, type EventEnvelope, type Handlers } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerCycleModel, type CycleModel } from '../db/cycle.model';
import { CycleStore } from '../db/cycle.store';
import type { SubscriptionDoc } from '../db/subscription.model';
import { registerSubscriptionModel, type SubscriptionModel } from '../db/subscription.model';
import { SubscriptionStore, type CallerScope } from '../db/subscription.store';
import { addDays } from '../domain/calendar-date';
import { addBusinessDays, businessDayOnOrAfter } from '../domain/business-days';
import { nextRetryDate } from '../domain/cycle-retries';
import { cycleSender } from '../jobs/cycle-jobs';
import { CyclesService } from './cycles.service';

jest.setTimeout(60_000);

/**
 * The payments and providers collaborators are one small gRPC server answering the cycle RPCs the
 * way the real services promise to (CreateCyclePayment idempotent on payment_id, and counting the
 * charges it would send); the store and the broker are real, and so are two "replicas" of the
 * scheduler and the sender racing each other. The e2e suite runs the real services.
 */
class FakeCollaborators {
  readonly payments = new Map<string, payments.Payment>();
  /** Charges "sent to the provider", per payment id: must never exceed 1. */
  readonly charges = new Map<string, number>();
  readonly retries: Array<{ charge: string; date: string }> = [];
  readonly synced: string[] = [];
  listCalls = 0;
  rejectAmount = -1;
  wooviDue = '';

  paymentHandlers(): Handlers<typeof payments.PaymentsServiceService> {
    const handlers: Partial<Handlers<typeof payments.PaymentsServiceService>> = {
      createCyclePayment: async (request) => {
        const existing = this.payments.get(request.payment_id);
        if (existing) return { payment: existing, created: false };
        await new Promise((resolve) => setTimeout(resolve, 15));
        if (this.payments.has(request.payment_id)) return { payment: this.payments.get(request.payment_id)!, created: false };
        const adopted = request.provider_charge_id !== undefined;
        if (!adopted) this.charges.set(request.payment_id, (this.charges.get(request.payment_id) ?? 0) + 1);
        const rejected = request.amount === this.rejectAmount;
        const payment = payments.Payment.fromPartial({
          id: request.payment_id,
          mode: request.mode,
          method: 'pix',
          status: rejected ? 'failed' : 'pending',
          amount: request.amount,
          amount_refunded: 0,
          currency: 'BRL',
          fee: 0,
          net: request.amount,
          provider: 'efi',
          provider_account_id: request.provider_account_id,
          provider_payment_id: rejected ? '' : (request.provider_charge_id ?? `cobr_${request.payment_id}`),
          metadata: request.metadata,
          tracking: request.tracking,
          subscription_id: request.subscription_id,
          cycle: request.cycle,
          due_date: request.due_date,
          failure_code: rejected ? 'provider_rejected' : '',
          failure_reason: '',
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        });
        this.payments.set(request.payment_id, payment);
        return { payment, created: true };
      },
      getPayment: async ({ payment_id }) => {
        const payment = this.payments.get(payment_id);
        if (!payment) throw new AppError('not_found', { param: 'id' });
        return { payment };
      },
      syncPayment: async ({ payment_id }) => {
        this.synced.push(payment_id);
        const payment = this.payments.get(payment_id);
        if (!payment) throw new AppError('not_found', { param: 'id' });
        return { payment };
      },
      // Pages as payments does: newest first, at most `limit` (≤ 100), after `starting_after`.
      listPayments: async ({ subscription_id, limit, starting_after }) => {
        this.listCalls += 1;
        const all = [...this.payments.values()]
          .filter((p) => p.subscription_id === subscription_id)
          .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
        const from = starting_after ? all.findIndex((p) => p.id === starting_after) + 1 : 0;
        const size = Math.min(limit || 10, 100);
        return { data: all.slice(from, from + size), has_more: from + size < all.length };
      },
    };
    return handlers as Handlers<typeof payments.PaymentsServiceService>;
  }

  providerHandlers(): Handlers<typeof providers.ProvidersServiceService> {
    const handlers: Partial<Handlers<typeof providers.ProvidersServiceService>> = {
      retryCycleCharge: async ({ provider_charge_id, date }) => {
        this.retries.push({ charge: provider_charge_id, date });
        return { charge: providers.CycleCharge.fromPartial({ provider_charge_id, status: 'retrying', next_attempt_date: date }) };
      },
      // A Woovi-made cycle, read back when the recurrence lists it.
      getCycleCharge: async ({ provider_charge_id, provider_recurrence_id }) => {
        if (!provider_charge_id.startsWith('woovi_')) throw new AppError('not_found');
        return {
          charge: providers.CycleCharge.fromPartial({
            provider_charge_id, provider_recurrence_id, status: 'scheduled', provider_status: 'ACTIVE', amount: 3_000, due_date: this.wooviDue,
          }),
        };
      },
    };
    return handlers as Handlers<typeof providers.ProvidersServiceService>;
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('cycles against the real store and broker', () => {
  let db: Connection;
  let bus: EventBus;
  let server: GrpcServer;
  let subscriptionModel: SubscriptionModel;
  let cycleModel: CycleModel;
  const fake = new FakeCollaborators();
  const published: EventEnvelope[] = [];
  const scope: CallerScope = { merchantId: 'acct_cycles', mode: 'test' };
  const logger = pino({ level: 'silent' });
  // A fixed São Paulo date for the service's calendar (leases and due work still run on real time),
  // not the real one: the windows below assume a plain week (on the Saturday a week before
  // Carnival, say, "cycle 2 due in 7 days" is not sendable yet), and "today + 30" is cycle 2 of a
  // monthly plan only after a 30-day month. A Wednesday with no national holiday within 45 days.
  let today = '2026-07-22';
  const clock = () => new Date(`${today}T15:00:00Z`);
  let replicas: CyclesService[] = [];
  let stores: { subscriptions: SubscriptionStore; cycles: CycleStore };
  const closers: Array<() => void> = [];
  let seq = 0;

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('cycles');
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}subscriptions`, logger });
    bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    await bus.consume({ queue: `${prefix}probe`, patterns: ['subscription.*'] }, async (event) => void published.push(event));
    server = new GrpcServer(logger);
    server.addService(payments.PaymentsServiceService, fake.paymentHandlers());
    server.addService(providers.ProvidersServiceService, fake.providerHandlers());
    const port = await server.listen('127.0.0.1:0');
    subscriptionModel = registerSubscriptionModel(db);
    cycleModel = registerCycleModel(db);
    await ensureIndexes(db);
    const outbox = new OutboxRelay({ bus, logger });
    stores = { subscriptions: new SubscriptionStore(subscriptionModel, outbox), cycles: new CycleStore(cycleModel, outbox) };
    // Two replicas: each its own clients, the same database.
    replicas = [1, 2].map(() => {
      const paymentsClient = createRpcClient(payments.PaymentsServiceService, `127.0.0.1:${port}`, { deadlineMs: 5_000 });
      const providersClient = createRpcClient(providers.ProvidersServiceService, `127.0.0.1:${port}`, { deadlineMs: 5_000 });
      closers.push(() => paymentsClient.close(), () => providersClient.close());
      return new CyclesService(stores.subscriptions, stores.cycles, paymentsClient, providersClient, logger, { clock, sendLeaseMs: 2_000 });
    });
  });
  afterAll(async () => {
    closers.forEach((close) => close());
    await server.shutdown(1_000);
    await bus.close();
    await dropTestDatabase(db);
  });

  async function activeSubscription(overrides: Partial<SubscriptionDoc> = {}): Promise<SubscriptionDoc> {
    seq += 1;
    const now = new Date();
    const doc = {
      _id: `sub_cyc${seq}`,
      merchant_id: scope.merchantId,
      mode: 'test',
      source_key_id: 'key_full',
      status: 'active',
      amount: 4_990,
      first_amount: 4_990,
      frequency: 'weekly',
      start_date: today,
      end_date: null,
      next_charge_date: null,
      next_cycle: 2,
      description: 'Plano semanal',
      retry: true,
      customer: { name: 'Ana Souza', document: '52998224725' },
      metadata: { plano: 'semanal' },
      tracking: { utm_source: 'bot' },
      provider: 'efi',
      provider_account_id: 'pa_efi',
      provider_recurrence_id: `RR${seq}`,
      cycles: 'ours',
      approval: null,
      approval_charge_id: '',
      idempotency_key: '',
      created_at: now,
      updated_at: now,
      outbox: [],
      outbox_since: null,
      ...overrides,
    } as SubscriptionDoc;
    doc.next_charge_date ??= null;
    await subscriptionModel.create(doc);
    return doc;
  }

  const cyclesOf = (id: string) => cycleModel.find({ subscription_id: id }).sort({ sequence: 1 }).lean().exec();

  it('two replicas scheduling and sending at once charge each due cycle exactly once, with the subscription moved to the next cycle', async () => {
    // Weekly from today: cycle 2 is due in 7 days, inside its send window now.
    const subs = await Promise.all(Array.from({ length: 6 }, () => activeSubscription({ next_charge_date: addDays(today, 7) })));
    await Promise.all([...replicas.map((r) => r.schedulePass()), ...replicas.map((r) => r.schedulePass())]);
    const senders = replicas.map((r) => cycleSender(stores.cycles, r, logger, 2_000));
    await Promise.all(senders.map((s) => s.tick()));
    for (const sub of subs) {
      const cycles = await cyclesOf(sub._id);
      // A cycle whose date falls on a weekend or national holiday is due the next business day.
      expect(cycles.map((c) => [c.sequence, c.status, c.due_date, c.amount])).toEqual([[2, 'scheduled', businessDayOnOrAfter(addDays(today, 7)), 4_990]]);
      expect(fake.charges.get(cycles[0]!.payment_id)).toBe(1);
      expect(fake.payments.get(cycles[0]!.payment_id)).toMatchObject({ subscription_id: sub._id, cycle: 2, metadata: { plano: 'semanal' }, tracking: { utm_source: 'bot' } });
      const after = await subscriptionModel.findById(sub._id).lean().exec();
      expect(after).toMatchObject({ next_cycle: 3, next_charge_date: businessDayOnOrAfter(addDays(today, 14)) });
    }
    await waitFor(() => subs.every((sub) => published.some((e) => e.type === 'subscription.cycle_scheduled' && (e.data.object as { subscription_id?: string }).subscription_id === sub._id)));
    expect(published.filter((e) => e.type === 'subscription.cycle_scheduled' && subs.some((s) => (e.data.object as { subscription_id?: string }).subscription_id === s._id))).toHaveLength(6);
  });

  it('does not send a cycle before its window, and skips one whose window passed unsent', async () => {
    const early = await activeSubscription({ frequency: 'monthly', next_charge_date: addDays(today, 25) });
    const missed = await activeSubscription({ next_charge_date: addBusinessDays(today, 1), start_date: addDays(today, -6) });
    await replicas[0]!.schedulePass();
    expect(await cyclesOf(early._id)).toHaveLength(0);
    expect(await cyclesOf(missed._id)).toHaveLength(0);
    expect((await subscriptionModel.findById(missed._id).lean().exec())?.next_cycle).toBe(3);
  });

  it('a sender that dies after the insert is replaced when its lease ends; the payment id is the same', async () => {
    const sub = await activeSubscription({ next_charge_date: addDays(today, 7) });
    await replicas[0]!.schedulePass();
    const [cycle] = await cyclesOf(sub._id);
    // The "dead" sender held the lease: nobody sends it meanwhile (a lease long enough that the
    // tick below surely falls inside it on a loaded machine).
    await cycleModel.updateOne({ _id: cycle!._id }, { $set: { due_at: new Date(Date.now() + 1_000) } });
    const sender = cycleSender(stores.cycles, replicas[1]!, logger, 2_000);
    await sender.tick();
    expect((await cycleModel.findById(cycle!._id).lean().exec())?.status).toBe('sending');
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    await sender.tick();
    const sent = await cycleModel.findById(cycle!._id).lean().exec();
    expect(sent).toMatchObject({ status: 'scheduled', payment_id: cycle!.payment_id, provider_charge_id: `cobr_${cycle!.payment_id}` });
  });

  it('POST charge: one per cycle, replays its Idempotency-Key, refuses in Portuguese what cannot be charged', async () => {
    // Weekly from five days ago: cycle 2 runs from the day after tomorrow, and holds a due date 3 business days ahead.
    const variable = await activeSubscription({ amount: null, start_date: addDays(today, -5), next_charge_date: addDays(today, 2) });
    const due = addBusinessDays(today, 3);
    const charge = (body: { amount?: number; dueDate?: string }, key = '', hash = 'h1') =>
      replicas[0]!.charge(variable._id, { scope, ...body, idempotencyKey: key, requestHash: hash });

    await expect(charge({ dueDate: due })).rejects.toMatchObject({ code: 'parameter_missing', param: 'amount' });
    await expect(charge({ amount: 1_500, dueDate: addBusinessDays(today, 1) })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'due_date' });
    await expect(charge({ amount: 1_500, dueDate: '2026-13-01' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'due_date' });

    const [first, again] = await Promise.all([charge({ amount: 1_500, dueDate: due }, 'k-1'), charge({ amount: 1_500, dueDate: due }, 'k-1')]);
    expect(first.payment.id).toBe(again.payment.id);
    expect([first.replayed, again.replayed].sort()).toEqual([false, true]);
    expect(fake.charges.get(first.payment.id)).toBe(1);
    expect(first.payment).toMatchObject({ amount: 1_500, subscription_id: variable._id, due_date: due, status: 'pending' });
    await expect(charge({ amount: 1_600, dueDate: due }, 'k-1', 'other')).rejects.toMatchObject({ code: 'idempotency_conflict' });
    // Another request for the same cycle: refused, nothing sent.
    const before = fake.charges.size;
    const refused = await charge({ amount: 1_500, dueDate: due }, 'k-2').catch((error: AppError) => error);
    expect(refused).toMatchObject({ code: 'invalid_request', param: 'due_date' });
    expect((refused as AppError).message).toContain('uma cobrança por ciclo');
    expect(fake.charges.size).toBe(before);

    const fixed = await activeSubscription({ start_date: addDays(today, -5), next_charge_date: addDays(today, 2) });
    await expect(replicas[0]!.charge(fixed._id, { scope, amount: 999, dueDate: due, idempotencyKey: '', requestHash: '' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'amount' });
    const own = await activeSubscription({ cycles: 'provider', provider: 'asaas' });
    const notApplicable = await replicas[0]!.charge(own._id, { scope, dueDate: due, idempotencyKey: '', requestHash: '' }).catch((error: AppError) => error);
    expect(notApplicable).toMatchObject({ code: 'invalid_request', param: 'id' });
    expect((notApplicable as AppError).message).toContain('cria sozinho');
    const pending = await activeSubscription({ status: 'pending' });
    await expect(replicas[0]!.charge(pending._id, { scope, dueDate: due, idempotencyKey: '', requestHash: '' })).rejects.toMatchObject({ code: 'invalid_request', param: 'id' });
    await expect(replicas[0]!.charge(fixed._id, { scope: { ...scope, mode: 'live' }, dueDate: due, idempotencyKey: '', requestHash: '' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a rejected charge fails the cycle with subscription.cycle_failed; a paid payment settles it; a repeated report changes nothing', async () => {
    fake.rejectAmount = 777;
    const sub = await activeSubscription({ amount: null, start_date: addDays(today, -5) });
    await expect(replicas[0]!.charge(sub._id, { scope, amount: 777, dueDate: addBusinessDays(today, 3), idempotencyKey: '', requestHash: '' })).resolves.toMatchObject({ payment: { status: 'failed' } });
    const [failed] = await cyclesOf(sub._id);
    expect(failed!.status).toBe('failed');
    await waitFor(() => published.some((e) => e.type === 'subscription.cycle_failed' && (e.data.object as { id: string }).id === failed!.payment_id));

    const paid = await activeSubscription({ next_charge_date: addDays(today, 7) });
    await replicas[0]!.schedulePass();
    const [cycle] = await cyclesOf(paid._id);
    await replicas[0]!.send(cycle!);
    const object = { id: cycle!.payment_id, subscription_id: paid._id, status: 'succeeded' };
    await replicas[0]!.applyPaymentOutcome('payment.succeeded', object);
    await replicas[1]!.applyPaymentOutcome('payment.failed', { ...object, status: 'failed' });
    expect((await cycleModel.findById(cycle!._id).lean().exec())?.status).toBe('paid');
  });

  it('a failed debit with attempts left asks for the next PERMITE_3R_7D retry once per attempt (Efí), never twice for one report', async () => {
    const sub = await activeSubscription({ next_charge_date: addDays(today, 7) });
    await replicas[0]!.schedulePass();
    let [cycle] = await cyclesOf(sub._id);
    await replicas[0]!.send(cycle!);
    [cycle] = await cyclesOf(sub._id);
    // The debit day came and failed: the service's clock is on the due date.
    const saved = today;
    today = cycle!.due_date;
    const report = {
      account_id: 'pa_efi', provider: 'efi', provider_recurrence_id: sub.provider_recurrence_id, provider_charge_id: cycle!.provider_charge_id,
      status: 'retrying' as const, provider_status: 'ATIVA', amount: 4_990, due_date: cycle!.due_date, failed_attempts: 1, via: 'webhook' as const,
    };
    await Promise.all([replicas[0]!.applyCycleCharge(report), replicas[1]!.applyCycleCharge(report)]);
    today = saved;
    const retries = fake.retries.filter((r) => r.charge === cycle!.provider_charge_id);
    // Two replicas handling one report: the one that counted the attempt asks; a repeat asks nothing more.
    expect(retries.map((r) => r.date)).toEqual([nextRetryDate(cycle!.due_date, 'PERMITE_3R_7D', 1)]);
    const after = await cycleModel.findById(cycle!._id).lean().exec();
    expect(after).toMatchObject({ status: 'retrying', failed_attempts: 1 });
    expect(after!.next_attempt_date).toBe(nextRetryDate(cycle!.due_date, 'PERMITE_3R_7D', 1));
    // The same report again: counted already, no new retry asked.
    const asked = fake.retries.length;
    await replicas[0]!.applyCycleCharge(report);
    expect(fake.retries.length).toBe(asked);
  });

  it('adopts a cycle a provider created itself (Asaas, Woovi) once, in the cycle its due date falls in', async () => {
    const sub = await activeSubscription({ cycles: 'provider', provider: 'asaas', provider_account_id: 'pa_asaas', frequency: 'monthly' });
    const due = addDays(today, 31);
    const report = {
      account_id: 'pa_asaas', provider: 'asaas', provider_recurrence_id: sub.provider_recurrence_id, provider_charge_id: 'pay_asaas_1',
      status: 'scheduled' as const, provider_status: 'PENDING', amount: 4_990, due_date: due, failed_attempts: 0, via: 'webhook' as const,
    };
    await Promise.all([replicas[0]!.applyCycleCharge(report), replicas[1]!.applyCycleCharge(report)]);
    const cycles = await cyclesOf(sub._id);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatchObject({ origin: 'provider', provider_charge_id: 'pay_asaas_1', due_date: due });
    await cycleSender(stores.cycles, replicas[0]!, logger, 2_000).tick();
    const payment = fake.payments.get(cycles[0]!.payment_id);
    expect(payment).toMatchObject({ provider_payment_id: 'pay_asaas_1', subscription_id: sub._id });
    expect(fake.charges.get(cycles[0]!.payment_id)).toBeUndefined();
  });

  it('adopts the cycles a recurrence lists (Woovi sends no event when it creates one), each once', async () => {
    const sub = await activeSubscription({ cycles: 'provider', provider: 'woovi', provider_account_id: 'pa_woovi', frequency: 'monthly', amount: 3_000 });
    // Cycle 2 of a monthly plan from 2026-07-22: anchored on 08-22, a Saturday, due the Monday.
    fake.wooviDue = '2026-08-24';
    await Promise.all([
      replicas[0]!.adoptListedCycles('pa_woovi', sub.provider_recurrence_id, ['woovi_c2']),
      replicas[1]!.adoptListedCycles('pa_woovi', sub.provider_recurrence_id, ['woovi_c2']),
    ]);
    await replicas[0]!.adoptListedCycles('pa_woovi', sub.provider_recurrence_id, ['woovi_c2']);
    const cycles = await cyclesOf(sub._id);
    expect(cycles.map((c) => [c.sequence, c.provider_charge_id, c.amount, c.due_date])).toEqual([[2, 'woovi_c2', 3_000, fake.wooviDue]]);
  });

  it('after a cancel, a cycle not sent yet is never sent, and sent ones are synced', async () => {
    const sub = await activeSubscription({ next_charge_date: addDays(today, 7) });
    await replicas[0]!.schedulePass();
    await subscriptionModel.updateOne({ _id: sub._id }, { $set: { status: 'canceled' } });
    const canceled = (await subscriptionModel.findById(sub._id).lean().exec()) as SubscriptionDoc;
    await replicas[0]!.afterCancel(canceled);
    await cycleSender(stores.cycles, replicas[0]!, logger, 2_000).tick();
    const [cycle] = await cyclesOf(sub._id);
    expect(cycle!.status).toBe('canceled');
    expect(fake.charges.get(cycle!.payment_id)).toBeUndefined();
  });

  it('is not starved by subscriptions it does not send (variable amounts, provider-made cycles) with older dates', async () => {
    for (let i = 0; i < 3; i += 1) await activeSubscription({ amount: null, next_charge_date: addDays(today, -30) });
    await activeSubscription({ cycles: 'provider', provider: 'asaas', next_charge_date: addDays(today, -30) });
    const fixed = await activeSubscription({ next_charge_date: addDays(today, 7) });
    await replicas[0]!.schedulePass(3);
    expect(await cyclesOf(fixed._id)).toHaveLength(1);
  });

  it('refuses a fixed-amount charge dated past the next cycle (it would skip cycles for good)', async () => {
    const fixed = await activeSubscription({ start_date: addDays(today, -12), next_cycle: 2, next_charge_date: addDays(today, -5) });
    const refused = await replicas[0]!.charge(fixed._id, { scope, dueDate: addBusinessDays(today, 3), idempotencyKey: '', requestHash: '' }).catch((error: AppError) => error);
    expect(refused).toMatchObject({ code: 'parameter_invalid', param: 'due_date' });
    expect(await cyclesOf(fixed._id)).toHaveLength(0);
  });

  it('expires a variable-amount subscription once its end_date is well past, whatever its next charge date', async () => {
    const sub = await activeSubscription({ amount: null, start_date: addDays(today, -40), end_date: addDays(today, -11), next_charge_date: addDays(today, -12), next_cycle: 5 });
    await replicas[0]!.schedulePass();
    expect((await subscriptionModel.findById(sub._id).lean().exec())?.status).toBe('expired');
  });

  it('expires an active subscription whose end_date passed with no cycle left', async () => {
    const sub = await activeSubscription({ end_date: addDays(today, -1), start_date: addDays(today, -20), next_charge_date: null, next_cycle: 4 });
    await replicas[0]!.schedulePass();
    expect((await subscriptionModel.findById(sub._id).lean().exec())?.status).toBe('expired');
    await waitFor(() => published.some((e) => e.type === 'subscription.expired' && (e.data.object as { id: string }).id === sub._id));
  });

  it('GET /subscriptions/{id} shows every cycle: payments are read page after page, past 100', async () => {
    const sub = await activeSubscription();
    const base = Date.parse('2020-01-06T15:00:00Z');
    for (let n = 1; n <= 230; n += 1) {
      fake.payments.set(`pay_many${seq}_${n}`, payments.Payment.fromPartial({
        id: `pay_many${seq}_${n}`, subscription_id: sub._id, cycle: n, amount: 4_990, status: 'succeeded', created_at: new Date(base + n * 7 * 86_400_000).toISOString(),
      }));
    }
    const before = fake.listCalls;
    const cycles = await replicas[0]!.paymentsOf(sub);
    expect(cycles).toHaveLength(230);
    expect(cycles.map((p) => p.cycle)).toEqual(Array.from({ length: 230 }, (_, i) => 230 - i));
    expect(fake.listCalls - before).toBe(3);
  });
});
