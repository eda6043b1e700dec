import { createHash, randomUUID } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { MongoClient } from 'mongodb';
import { api, createPix, emulator, eventually } from './support/api';
import { stackInfo } from './support/stack-info';
import { WebhookReceiver } from './support/webhook-receiver';

type Json = Record<string, any>;

/**
 * Two replicas of every service (issue 21, item 3): the stack runs with ORQUESTRA_REPLICAS=2
 * (tools/e2e/run-replicas.sh), two gateways behind the launcher's HTTP balancer and every gRPC
 * client given both replicas of each service it calls. The main flows run through it and the
 * suite proves that every replica served, that no payment was charged twice at the emulator,
 * that a refund race through the two gateways never refunds more than the payment, that due work
 * (expiry, webhook deliveries, subscription cycles) runs once, and that every event reached the
 * merchant's receiver exactly once in this calm run (at-least-once allows more only after a failure).
 * The subscription cycles test moves the Efí emulator's and the subscriptions service's clocks
 * forward (as the cycles suite does): it runs last.
 *
 * Runs alone with its own stack: tools/e2e/run-replicas.sh (as npm test does).
 */
jest.setTimeout(120_000);

const info = stackInfo();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The Efí txid of a payment's charge at one account, derived as the adapter documents it (efi.transformers.ts). */
const txidFor = (paymentId: string, accountId: string) => createHash('sha256').update(`orquestra:efi:cob:${paymentId}:${accountId}`).digest('hex').slice(0, 32);

async function chargesOf(clientId: string): Promise<Json[]> {
  return (await emulator('GET', `/__control/charges?client_id=${encodeURIComponent(clientId)}`)).charges as Json[];
}

/** Sum of one metric's samples (every label set) in a replica's Prometheus text. */
async function metricSum(port: number, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** Sums of one metric's samples whose line holds `labels` (e.g. `worker="cycle-sender"`), per subscriptions replica. */
async function perReplica(replicas: StackReplica[], name: string, labels = ''): Promise<number[]> {
  return Promise.all(
    replicas.map(async (replica) => {
      const text = await (await fetch(`http://127.0.0.1:${replica.metrics}/metrics`)).text();
      return text
        .split('\n')
        .filter((line) => (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) && line.includes(labels))
        .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    }),
  );
}

type StackReplica = ReturnType<typeof stackInfo>['replicas'][number];

const DAY_MS = 86_400_000;
const isWeekend = (date: string) => [0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay());
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * Moves the two clocks of Pix Automático together to noon (São Paulo) of `date`, as the cycles
 * suite does: the Efí emulator's (`POST /__control/clock`, forward only) and the subscriptions
 * service's test clock file, which both subscriptions replicas read.
 */
async function moveClocksTo(date: string): Promise<void> {
  const target = new Date(`${date}T15:00:00Z`);
  if (new Date((await emulator('GET', '/__control/clock')).now as string) < target) {
    const moved = await emulator('POST', '/__control/clock', { set: target.toISOString() });
    expect(Date.parse(moved.now as string)).toBeGreaterThanOrEqual(target.getTime());
  }
  const { offset_ms } = await emulator('GET', '/__control/clock');
  writeFileSync(`${info.subscriptionsClockFile}.tmp`, JSON.stringify({ offset_ms }));
  renameSync(`${info.subscriptionsClockFile}.tmp`, info.subscriptionsClockFile);
}

/** The emulator's day in São Paulo (UTC−3). */
async function emulatorDay(): Promise<string> {
  return new Date(Date.parse((await emulator('GET', '/__control/clock')).now as string) - 3 * 3_600_000).toISOString().slice(0, 10);
}

async function paidPix(amount: number): Promise<Json> {
  const created = await createPix({ amount });
  expect((await api('POST', `/v1/payments/${created.id}/simulate`)).status).toBe(200);
  return eventually(async () => {
    const read = await api('GET', `/v1/payments/${created.id}`);
    return read.body.status === 'succeeded' ? read.body : undefined;
  }, `payment ${created.id} succeeded`);
}

describe('two replicas of every service', () => {
  const receiver = new WebhookReceiver();
  let endpoint: Json | undefined;
  /** The seeded merchant's payments this suite made: their events must reach the receiver. */
  const ours: string[] = [];

  beforeAll(async () => {
    await receiver.start();
    const answer = await api('POST', '/v1/webhook-endpoints', { body: { url: `${receiver.url}/replicas`, events: ['payment.*'] } });
    expect(answer.status).toBe(201);
    endpoint = answer.body;
  });
  afterAll(async () => {
    if (endpoint) await api('DELETE', `/v1/webhook-endpoints/${endpoint.id}`);
    await receiver.stop();
  });

  it('runs two replicas of every service on ports of their own, the gateways behind the balancer', async () => {
    const services = ['accounts', 'vault', 'providers', 'routing', 'notifications', 'subscriptions', 'payouts', 'payments', 'tracking', 'gateway'];
    for (const service of services) expect(info.replicas.filter((r) => r.service === service)).toHaveLength(2);
    expect(new Set(info.replicas.map((r) => r.main)).size).toBe(info.replicas.length);
    expect(new Set(info.replicas.map((r) => r.metrics)).size).toBe(info.replicas.length);
    // The API's address is the balancer's, not a gateway's own.
    const gateways = info.replicas.filter((r) => r.service === 'gateway');
    expect(gateways.map((g) => g.main)).not.toContain(info.ports['gateway']);
    const control = (await (await fetch(`${info.stackControlUrl}/replicas`)).json()) as Json;
    expect(control.replicas.every((r: Json) => typeof r.pid === 'number')).toBe(true);
    expect(Object.keys(control.balancer.forwarded).map(Number).sort()).toEqual(gateways.map((g) => g.main).sort());
  });

  it('fails over from a down account to the next one: every payment charged once, at B', async () => {
    const { testKey, accountA, accountB, clientA, clientB } = info.failover;
    await emulator('POST', '/__control/faults', { client_id: clientA, outage: true });
    try {
      const created = await Promise.all(Array.from({ length: 6 }, (_, i) => createPix({ amount: 2000 + i }, testKey)));
      for (const payment of created) {
        expect(payment).toMatchObject({ status: 'pending', provider_account_id: accountB });
      }
      // At the emulators: one charge per payment, at B, the one the payment names; none at A.
      const [atA, atB] = await Promise.all([chargesOf(clientA), chargesOf(clientB)]);
      for (const payment of created) {
        expect(atA.filter((c) => c.txid === txidFor(payment.id, accountA))).toEqual([]);
        const mine = atB.filter((c) => c.txid === txidFor(payment.id, accountB));
        expect(mine).toHaveLength(1);
        expect(mine[0]?.txid).toBe(payment.provider_payment_id);
      }
    } finally {
      await emulator('DELETE', `/__control/faults?client_id=${encodeURIComponent(clientA)}`);
    }
  });

  it('two full refunds at once, one through each gateway replica: one refund, never more than the amount', async () => {
    const payment = await paidPix(1000);
    ours.push(payment.id);
    const gateways = info.replicas.filter((r) => r.service === 'gateway');
    const refundAt = (port: number) =>
      fetch(`http://127.0.0.1:${port}/v1/payments/${payment.id}/refund`, {
        method: 'POST',
        headers: { authorization: `Bearer ${info.testKey}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: '{}',
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
    const answers = await Promise.all(gateways.map((g) => refundAt(g.main)));
    const accepted = answers.filter((a) => a.status === 201);
    expect(accepted).toHaveLength(1);
    const refused = answers.find((a) => a.status !== 201);
    expect(['refund_amount_exceeds_remaining', 'payment_not_refundable']).toContain(refused?.body.error.code);

    const refunded = await eventually(async () => {
      const read = await api('GET', `/v1/payments/${payment.id}`);
      return read.body.status === 'refunded' ? read.body : undefined;
    }, 'the payment refunded');
    expect(refunded.amount_refunded).toBe(1000);
    expect(refunded.refunds).toHaveLength(1);
    const cob = (await chargesOf(info.emulatorClientId)).find((c) => c.txid === payment.provider_payment_id);
    expect(cob?.devolucoes).toEqual([expect.objectContaining({ valor: '10.00', status: 'DEVOLVIDO' })]);
  });

  it('expires a pending Pix once, though both payments replicas run the expiry work', async () => {
    const mongo = await MongoClient.connect(info.mongoUrl);
    try {
      const created = await Promise.all(Array.from({ length: 3 }, () => createPix({ expires_in_minutes: 1 })));
      ours.push(...created.map((p) => p.id));
      // A minute of waiting, as the expiry suite does it: the payment's due dates moved to the past.
      const past = new Date(Date.now() - 1_000);
      const moved = await mongo
        .db(`${info.dbPrefix}payments`)
        .collection('payments')
        .updateMany({ _id: { $in: created.map((p) => p.id) as never[] }, status: 'pending' }, { $set: { expires_at: past, due_at: past } });
      expect(moved.modifiedCount).toBe(3);
      for (const payment of created) {
        const canceled = await eventually(async () => {
          const read = await api('GET', `/v1/payments/${payment.id}`);
          return read.body.status === 'canceled' ? read.body : undefined;
        }, `payment ${payment.id} expired`, 60_000);
        expect(canceled.events.map((e: Json) => e.type)).toEqual(['payment.created', 'payment.canceled']);
      }
      const cobs = await chargesOf(info.emulatorClientId);
      for (const payment of created) expect(cobs.find((c) => c.txid === payment.provider_payment_id)?.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    } finally {
      await mongo.close();
    }
  });

  it('delivers every event of the suite’s payments to the receiver exactly once (a calm run), and nothing else', async () => {
    for (let i = 0; i < 6; i++) ours.push((await paidPix(500 + i)).id);
    const emitted = new Map<string, string>();
    await eventually(
      async () => {
        emitted.clear();
        for (const id of ours) {
          const read = await api('GET', `/v1/payments/${id}`);
          // The endpoint takes payment.* (a refunded payment's list also holds its refund.* events).
          for (const event of read.body.events as Json[]) if (event.type.startsWith('payment.')) emitted.set(event.id, event.type);
        }
        const delivered = new Set(receiver.at('/replicas').map((r) => r.event.id));
        return [...emitted.keys()].every((id) => delivered.has(id)) ? true : undefined;
      },
      'every event delivered',
      60_000,
    );
    // Late copies would arrive within a retry delay (1 s in this stack): wait that long, then count.
    await sleep(2_500);
    const copies = new Map<string, number>();
    for (const r of receiver.at('/replicas')) if (ours.includes(r.event.data.object.id)) copies.set(r.event.id, (copies.get(r.event.id) ?? 0) + 1);
    expect([...copies.entries()].filter(([, n]) => n > 1)).toEqual([]);
    expect([...copies.keys()].sort()).toEqual([...emitted.keys()].sort());
    // Refund race and expiry included: created, succeeded, refunded and canceled events.
    expect([...emitted.values()]).toEqual(expect.arrayContaining(['payment.created', 'payment.succeeded', 'payment.refunded', 'payment.canceled']));
  });

  it('every replica of every service served: gRPC calls or HTTP requests counted at its own metrics', async () => {
    // Reads that reach each service through the gateway (round robin spreads them over both replicas).
    const reads = ['/v1/payments?limit=1', '/v1/subscriptions?limit=1', '/v1/payouts?limit=1', '/v1/cards/config', '/v1/integrations', '/v1/webhook-endpoints', '/v1/routing-rules', '/v1/provider-accounts'];
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all(reads.map((path) => api('GET', path)));
      for (const [i, answer] of answers.entries()) expect({ path: reads[i], status: answer.status }).toEqual({ path: reads[i], status: 200 });
    }
    const served: Record<string, number> = {};
    for (const replica of info.replicas) {
      served[replica.name] =
        replica.service === 'gateway'
          ? await metricSum(replica.metrics, 'orquestra_http_server_request_duration_seconds_count')
          : await metricSum(replica.metrics, 'orquestra_grpc_server_handling_seconds_count');
    }
    const idle = Object.entries(served).filter(([, n]) => n === 0);
    expect({ idle, served }).toEqual({ idle: [], served });
  });

  it('charges each due cycle of automatic-Pix subscriptions once, though both subscriptions replicas run the schedule and the sender', async () => {
    const replicas = info.replicas.filter((r) => r.service === 'subscriptions');
    expect(replicas).toHaveLength(2);
    // Both replicas run the cycle sender (due work): its lag gauge exists only where it started.
    const texts = await Promise.all(replicas.map(async (r) => (await fetch(`http://127.0.0.1:${r.metrics}/metrics`)).text()));
    for (const text of texts) expect(text).toMatch(/^orquestra_due_work_lag_seconds\{worker="cycle-sender"/m);
    const passesBefore = await perReplica(replicas, 'orquestra_subscription_schedule_passes_total', 'outcome="ok"');
    const scheduledBefore = await perReplica(replicas, 'orquestra_subscription_cycles_scheduled_total');
    const sentBefore = await perReplica(replicas, 'orquestra_due_work_items_total', 'worker="cycle-sender",outcome="done"');

    const hook = await api('POST', '/v1/webhook-endpoints', { body: { url: `${receiver.url}/replicas-subscriptions`, events: ['subscription.*'] } });
    expect(hook.status).toBe(201);
    try {
      // A plain business day (the cycles suite's start), so cycle 2 (start + 7) is in its send window at once.
      let day = await emulatorDay();
      while (isWeekend(day)) day = addDays(day, 1);
      await moveClocksTo(day);

      // Three weekly subscriptions at once: approval pays cycle 1; both replicas' schedules then find cycle 2 due.
      const subs = await Promise.all(
        ['A', 'B', 'C'].map(async (plan) => {
          const created = await api('POST', '/v1/subscriptions', {
            idempotencyKey: randomUUID(),
            body: { customer: { name: 'Maria Silva', document: '529.982.247-25' }, frequency: 'weekly', amount: 1500, description: `Plano ${plan}` },
          });
          expect(created.status).toBe(201);
          const approved = await api('POST', `/v1/subscriptions/${created.body.id}/simulate`);
          expect(approved.body.status).toBe('active');
          return approved.body as Json;
        }),
      );
      const cyclesOf = async (id: string) => (await api('GET', `/v1/subscriptions/${id}`)).body.payments as Json[];
      const firstTwo = await Promise.all(
        subs.map((sub) =>
          eventually(async () => {
            const payments = await cyclesOf(sub.id);
            const first = payments.find((p) => p.status === 'succeeded');
            const second = payments.find((p) => p.status === 'pending' && p.provider_payment_id);
            return first && second ? { first, second } : undefined;
          }, `subscription ${sub.id}: cycle 1 paid and cycle 2 sent`),
        ),
      );

      // Cycle 2's date at the payer's bank: the clocks move there and the bank pays each debit.
      const attempts = await Promise.all(firstTwo.map(async ({ second }) => (await emulator('GET', `/__control/cobr/${second.provider_payment_id}`)).tentativas as Json[]));
      const payDay = attempts.map((tentativas) => tentativas.find((t) => t.status === 'AGENDADA')?.dataLiquidacao as string).sort().at(-1)!;
      expect(payDay).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      await moveClocksTo(payDay);
      for (const { second } of firstTwo) expect((await emulator('POST', `/__control/cobr/${second.provider_payment_id}/pay`, {})).status).toBe('CONCLUIDA');

      // Past cycle 2, cycle 3's window is open: sent by itself, while cycle 2 is paid.
      const cycles = await Promise.all(
        subs.map((sub, i) =>
          eventually(async () => {
            const payments = await cyclesOf(sub.id);
            const { first, second } = firstTwo[i]!;
            const third = payments.find((p) => ![first.id, second.id].includes(p.id) && p.status === 'pending' && p.provider_payment_id);
            return third && payments.find((p) => p.id === second.id)?.status === 'succeeded' ? [first, second, third] : undefined;
          }, `subscription ${sub.id}: cycle 2 paid and cycle 3 sent`),
        ),
      );
      const cyclePayments = cycles.flat().map((p) => p.id as string);
      // A second of both schedules passing again (every 300 ms in this stack) over the same subscriptions.
      await sleep(1_500);

      // Both replicas' schedules ran all along; together they made each cycle once (cycles 2 and 3
      // of three subscriptions), and the senders sent each at least once (a lease that ran out on a
      // slow machine may send one again, with the same payment id).
      const passes = (await perReplica(replicas, 'orquestra_subscription_schedule_passes_total', 'outcome="ok"')).map((n, i) => n - passesBefore[i]!);
      for (const n of passes) expect(n).toBeGreaterThanOrEqual(5);
      const scheduled = (await perReplica(replicas, 'orquestra_subscription_cycles_scheduled_total')).map((n, i) => n - scheduledBefore[i]!);
      expect(scheduled.reduce((a, b) => a + b, 0)).toBe(6);
      const sent = (await perReplica(replicas, 'orquestra_due_work_items_total', 'worker="cycle-sender",outcome="done"')).map((n, i) => n - sentBefore[i]!);
      expect(sent.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(6);

      // One payment per cycle: the subscription's list and the merchant's payments list agree.
      const listed: Json[] = [];
      for (let after = ''; ; ) {
        const page = await api('GET', `/v1/payments?limit=100${after ? `&starting_after=${after}` : ''}`);
        listed.push(...(page.body.data as Json[]));
        if (!page.body.has_more) break;
        after = listed.at(-1)!.id as string;
      }
      for (const [i, sub] of subs.entries()) {
        const payments = await cyclesOf(sub.id);
        expect(payments.map((p) => p.id).sort()).toEqual(cycles[i]!.map((p) => p.id).sort());
        expect(payments.map((p) => p.status).sort()).toEqual(['pending', 'succeeded', 'succeeded']);
        expect(listed.filter((p) => p.subscription_id === sub.id).map((p) => p.id).sort()).toEqual(cycles[i]!.map((p) => p.id).sort());
      }

      // At the emulator: the approval's one immediate charge, and the recurrence's charges exactly
      // cycles 2 and 3 (one per due date), each the txid its cycle payment names.
      const cobs = await chargesOf(info.emulatorClientId);
      for (const [i, [first, second, third]] of cycles.entries()) {
        expect(cobs.filter((c) => c.txid === first!.provider_payment_id)).toHaveLength(1);
        const idRec = (await emulator('GET', `/__control/cobr/${second!.provider_payment_id}`)).idRec as string;
        const cobrs = (await emulator('GET', `/__control/recs/${idRec}`)).cobrs as Json[];
        expect({ sub: subs[i]!.id, cobrs: cobrs.map((c) => [c.txid, c.status, c.valor.original]).sort() }).toEqual({
          sub: subs[i]!.id,
          cobrs: [
            [second!.provider_payment_id, 'CONCLUIDA', '15.00'],
            [third!.provider_payment_id, 'ATIVA', '15.00'],
          ].sort(),
        });
        expect(new Set(cobrs.map((c) => c.calendario.dataDeVencimento)).size).toBe(2);
      }

      // The event log holds each cycle event once; the payments' own events once each.
      const subscriptionEvents: Json[] = [];
      for (let after = ''; ; ) {
        const page = await api('GET', `/v1/events?type=subscription.*&limit=100${after ? `&starting_after=${after}` : ''}`);
        subscriptionEvents.push(...(page.body.data as Json[]));
        if (!page.body.has_more) break;
        after = subscriptionEvents.at(-1)!.id as string;
      }
      const ourSubscriptionEvents = subscriptionEvents.filter((e) => [...subs.map((s) => s.id), ...cyclePayments].includes(e.data.object.id));
      for (const [first, second, third] of cycles) {
        const scheduledFor = (id: string) => ourSubscriptionEvents.filter((e) => e.type === 'subscription.cycle_scheduled' && e.data.object.id === id).length;
        expect([scheduledFor(first!.id), scheduledFor(second!.id), scheduledFor(third!.id)]).toEqual([0, 1, 1]);
      }
      const paymentEvents = new Map<string, string[]>();
      for (const id of cyclePayments) {
        const read = (await api('GET', `/v1/payments/${id}`)).body;
        paymentEvents.set(id, (read.events as Json[]).filter((e) => e.type.startsWith('payment.')).map((e) => `${e.type}:${e.id}`));
      }
      for (const [first, second, third] of cycles) {
        const types = (id: string) => paymentEvents.get(id)!.map((e) => e.split(':')[0]).sort();
        expect([types(first!.id), types(second!.id), types(third!.id)]).toEqual([
          ['payment.created', 'payment.pending', 'payment.succeeded'],
          ['payment.created', 'payment.pending', 'payment.succeeded'],
          ['payment.created', 'payment.pending'],
        ]);
      }

      // Webhooks: each subscription.* event at its endpoint, each cycle payment's payment.* event at
      // the suite's, exactly once in this calm run (late copies would come within a retry delay).
      const wantedSubscription = new Set(ourSubscriptionEvents.map((e) => e.id as string));
      const wantedPayment = new Set([...paymentEvents.values()].flat().map((e) => e.split(':')[1]!));
      const deliveredIds = (path: string, ids: Set<string>) => receiver.at(path).map((r) => r.event.id as string).filter((id) => ids.has(id));
      await eventually(
        async () =>
          new Set(deliveredIds('/replicas-subscriptions', wantedSubscription)).size === wantedSubscription.size && new Set(deliveredIds('/replicas', wantedPayment)).size === wantedPayment.size
            ? true
            : undefined,
        'every cycle event delivered',
        30_000,
      );
      await sleep(2_500);
      expect(deliveredIds('/replicas-subscriptions', wantedSubscription).sort()).toEqual([...wantedSubscription].sort());
      expect(deliveredIds('/replicas', wantedPayment).sort()).toEqual([...wantedPayment].sort());
      // Created and activated per subscription, scheduled per cycle 2 and 3.
      expect(ourSubscriptionEvents.map((e) => e.type).sort()).toEqual(
        [...Array(3).fill('subscription.created'), ...Array(3).fill('subscription.activated'), ...Array(6).fill('subscription.cycle_scheduled')].sort(),
      );
    } finally {
      await api('DELETE', `/v1/webhook-endpoints/${hook.body.id}`);
    }
  });
});
