import { createHash, randomUUID } from 'node:crypto';
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
 * (expiry, webhook deliveries) runs once, and that every event reached the merchant's receiver
 * exactly once in this calm run (at-least-once allows more only after a failure).
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
});
