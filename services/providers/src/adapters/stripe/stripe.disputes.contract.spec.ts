/**
 * Contract test for card disputes: the real StripeAdapter over real HTTP against the Stripe
 * emulator (in-process, free ports). The adapter registers its webhook endpoint (with the
 * `charge.dispute.*` events), the emulator opens and closes disputes through its control port, and
 * a tiny receiver collects the signed webhooks, which the adapter's own parseWebhook reads.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStripeEmulator, type StripeEmulator } from '@orquestra/emulators';
import type { ProviderCharge, WebhookParseResult } from '../provider-adapter';
import { StripeAdapter, WEBHOOK_EVENTS } from './stripe.adapter';

jest.setTimeout(30_000);

const SECRET_KEY = 'sk_test_51DisputeContractA00000000';

let emulator: StripeEmulator;
let adapter: StripeAdapter;
let controlUrl: string;
let apiUrl: string;
let receiver: Server;
const received: { headers: Record<string, string>; rawBody: Buffer }[] = [];
let counter = 0;

async function paidCard(amount: number): Promise<ProviderCharge> {
  counter += 1;
  return adapter.createCharge({
    paymentId: `pay_dispute_${counter}`,
    method: 'card',
    amount,
    customer: { name: 'Maria Souza', email: 'maria@example.com', document: '52998224725' },
    expiresInSeconds: 3600,
    metadata: {},
    idempotencyKey: `pay_dispute_${counter}:acc`,
    card: { token: 'pm_card_visa', installments: 1 },
  });
}

const control = async (path: string, body: unknown = {}) => {
  const response = await fetch(`${controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

/** The signed webhooks received for one dispute, parsed by the adapter. */
async function hooksOf(disputeId: string): Promise<{ type: string; eventId: string; result: WebhookParseResult }[]> {
  await emulator.webhooksIdle();
  return received
    .map((r) => ({ body: JSON.parse(r.rawBody.toString()) as { id: string; type: string; data: { object: { id?: string } } }, r }))
    .filter(({ body }) => body.data.object.id === disputeId)
    .map(({ body, r }) => ({ type: body.type, eventId: body.id, result: adapter.parseWebhook({ subPath: '', query: {}, headers: r.headers, rawBody: r.rawBody }) }));
}

beforeAll(async () => {
  emulator = createStripeEmulator({ accounts: [SECRET_KEY], webhooks: { retries: 0, timeoutMs: 2_000 } });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  apiUrl = `http://127.0.0.1:${ports.apiPort}`;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, rawBody: Buffer.concat(chunks) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/stripe/acc_d?hmac=x`;
  const context = { baseUrl: apiUrl, credentials: { secret_key: SECRET_KEY }, webhookUrl, webhookSecret: 'x', settings: {}, timeoutMs: 5_000 };
  const registration = await new StripeAdapter(context).registerWebhook(webhookUrl);
  adapter = new StripeAdapter({ ...context, signingSecret: registration.signingSecret ?? '' });
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('card disputes', () => {
  it('registers the charge.dispute.* events with the webhook endpoint', async () => {
    const listed = await fetch(`${apiUrl}/v1/webhook_endpoints`, { headers: { authorization: `Bearer ${SECRET_KEY}` } });
    const endpoints = ((await listed.json()) as { data: { enabled_events: string[] }[] }).data;
    expect(endpoints).toHaveLength(1);
    expect(endpoints[0]?.enabled_events).toEqual([...WEBHOOK_EVENTS]);
    expect(endpoints[0]?.enabled_events).toEqual(expect.arrayContaining(['charge.dispute.created', 'charge.dispute.updated', 'charge.dispute.closed']));
  });

  it('a dispute opened at Stripe arrives signed as an open chargeback; evidence moves it under_review; closing lost is reported lost', async () => {
    const charge = await paidCard(15_990);
    expect(charge.status).toBe('paid');
    const opened = await control(`/__control/charges/${charge.providerPaymentId}/dispute`, { reason: 'product_not_received' });
    expect(opened.status).toBe(200);
    const disputeId = opened.body['id'] as string;
    expect(disputeId).toMatch(/^dp_/);

    const created = (await hooksOf(disputeId)).find((h) => h.type === 'charge.dispute.created');
    expect(created?.result).toMatchObject({
      ok: true,
      providerPaymentIds: [],
      eventKey: `stripe:${created?.eventId}`,
      disputes: [{ providerDisputeId: disputeId, kind: 'chargeback', status: 'open', providerStatus: 'needs_response', providerPaymentId: charge.providerPaymentId, amount: 15_990, reason: 'product_not_received', acceptsEvidence: true }],
    });
    const report = created?.result.ok ? created.result.disputes?.[0] : undefined;
    expect(report?.answerDueAt?.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);

    await adapter.submitDisputeEvidence({ providerDisputeId: disputeId, text: 'Produto entregue em 20/11.', urls: ['https://loja.example/rastreio/BR123'] });
    const atStripe = (await (await fetch(`${controlUrl}/__control/disputes/${disputeId}`)).json()) as { status: string; evidence: { uncategorized_text: string }; evidence_details: { submission_count: number } };
    expect(atStripe.status).toBe('under_review');
    expect(atStripe.evidence.uncategorized_text).toBe('Produto entregue em 20/11.\n\nComprovantes:\nhttps://loja.example/rastreio/BR123');
    expect(atStripe.evidence_details.submission_count).toBe(1);
    expect((await hooksOf(disputeId)).find((h) => h.type === 'charge.dispute.updated')?.result).toMatchObject({ ok: true, disputes: [{ status: 'under_review' }] });

    // A second defense is Stripe's to refuse: rejected.
    await expect(adapter.submitDisputeEvidence({ providerDisputeId: disputeId, text: 'De novo.', urls: [] })).rejects.toMatchObject({ name: 'ProviderError', kind: 'rejected' });

    expect((await control(`/__control/disputes/${disputeId}/close`, { outcome: 'lost' })).status).toBe(200);
    expect((await hooksOf(disputeId)).find((h) => h.type === 'charge.dispute.closed')?.result).toMatchObject({ ok: true, disputes: [{ status: 'lost', providerStatus: 'lost' }] });
    expect((await control(`/__control/disputes/${disputeId}/close`, { outcome: 'won' })).status).toBe(409);
  });

  it('a dispute won without evidence is reported won; a redelivery repeats the same event id', async () => {
    const charge = await paidCard(5_000);
    const disputeId = (await control(`/__control/charges/${charge.providerPaymentId}/dispute`, { amount: 3_000 })).body['id'] as string;
    await control(`/__control/disputes/${disputeId}/close`, { outcome: 'won' });
    const redelivered = await control(`/__control/disputes/${disputeId}/redeliver`, { type: 'charge.dispute.created' });
    expect(redelivered.status).toBe(200);
    const hooks = await hooksOf(disputeId);
    const createdKeys = hooks.filter((h) => h.type === 'charge.dispute.created').map((h) => (h.result.ok ? h.result.eventKey : ''));
    expect(createdKeys).toHaveLength(2);
    expect(new Set(createdKeys).size).toBe(1);
    expect(hooks.find((h) => h.type === 'charge.dispute.closed')?.result).toMatchObject({ ok: true, disputes: [{ status: 'won', amount: 3_000 }] });
    expect(hooks.find((h) => h.type === 'charge.dispute.funds_reinstated')?.result).toMatchObject({ ok: true, disputes: [{ status: 'won' }] });
  });

  it('evidence on an unknown dispute is not_found; a Pix intent cannot be disputed as a card', async () => {
    await expect(adapter.submitDisputeEvidence({ providerDisputeId: 'dp_doesnotexist', text: 't', urls: [] })).rejects.toMatchObject({ kind: 'not_found' });
    const pix = await adapter.createCharge({ paymentId: 'pay_dispute_pix', method: 'pix', amount: 1_000, customer: { name: 'Maria Souza', document: '52998224725' }, expiresInSeconds: 3600, metadata: {}, idempotencyKey: 'pay_dispute_pix:acc' });
    expect((await control(`/__control/charges/${pix.providerPaymentId}/dispute`)).status).toBe(409);
  });
});
