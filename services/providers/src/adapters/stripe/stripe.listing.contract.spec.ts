/**
 * Contract test of listCharges (issue 18): the real StripeAdapter over real HTTP against the
 * Stripe emulator in-process. PaymentIntents made through the adapter and one made "in the
 * dashboard" are listed across pages of two, nothing outside the period is, and statuses changed
 * behind our back (no event) are listed as they now are, with fees and refunds.
 */
import { createStripeEmulator, type StripeEmulator } from '@orquestra/emulators';
import type { CreateChargeInput } from '../provider-adapter';
import type { ListedCharge } from '../provider-charge-listing';
import { StripeAdapter } from './stripe.adapter';

jest.setTimeout(30_000);

const KEY = 'sk_test_listingContractA';
const T0 = Date.parse('2026-03-10T12:00:00.000Z');
let clock = T0;
let emulator: StripeEmulator;
let controlUrl: string;
let adapter: StripeAdapter;

async function control(path: string, body: unknown) {
  const response = await fetch(`${controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

let n = 0;
async function chargeAt(at: number, amount: number, method: CreateChargeInput['method'] = 'pix') {
  clock = at;
  n += 1;
  return adapter.createCharge({
    paymentId: `pay_list_${n}`,
    method,
    amount,
    customer: {
      name: 'Maria Aparecida Souza',
      document: '52998224725',
      email: 'maria@example.com',
      address: { street: 'Avenida Paulista', number: '100', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310100' },
    },
    expiresInSeconds: 86_400,
    metadata: {},
    idempotencyKey: `pay_list_${n}:acc_1`,
  });
}

async function listAll(period: { from: Date; to: Date }): Promise<{ pages: number; charges: ListedCharge[] }> {
  const charges: ListedCharge[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await adapter.listCharges(period, cursor);
    pages += 1;
    charges.push(...page.charges);
    cursor = page.next;
  } while (cursor !== null && pages < 20);
  return { pages, charges };
}

beforeAll(async () => {
  emulator = createStripeEmulator({ accounts: [KEY], now: () => new Date(clock), expirySweepMs: 0, refundSettleMs: 10 });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  adapter = new StripeAdapter({
    baseUrl: `http://127.0.0.1:${ports.apiPort}`,
    credentials: { secret_key: KEY },
    webhookUrl: 'http://127.0.0.1:9/unused',
    webhookSecret: 'whsec_unused',
    settings: { list_page_size: '2' },
    timeoutMs: 5_000,
  });
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
});

it('lists the adapter’s and the dashboard’s PaymentIntents of the period across pages, nothing outside it, with statuses changed behind our back', async () => {
  const period = { from: new Date(T0 - 3 * 3_600_000), to: new Date(T0) };
  await chargeAt(T0 - 4 * 3_600_000, 1000); // before the period
  const atStart = await chargeAt(T0 - 3 * 3_600_000, 2000); // its first second: in
  const paidBehind = await chargeAt(T0 - 2 * 3_600_000, 3000);
  const refundedBehind = await chargeAt(T0 - 90 * 60_000, 4000);
  const boleto = await chargeAt(T0 - 30 * 60_000, 5000, 'boleto');
  await chargeAt(T0, 6000); // its end is excluded
  const dashboard = await control('/__control/dashboard-charges', { account: KEY, amount: 7000, method: 'pix', status: 'succeeded', created_at: new Date(T0 - 60 * 60_000).toISOString() });
  await control('/__control/dashboard-charges', { account: KEY, amount: 8000, created_at: new Date(T0 - 5 * 3_600_000).toISOString() });
  clock = T0 + 60_000;
  await control(`/__control/charges/${paidBehind.providerPaymentId}/status`, { status: 'succeeded' });
  await control(`/__control/charges/${refundedBehind.providerPaymentId}/status`, { status: 'succeeded' });
  await control(`/__control/charges/${refundedBehind.providerPaymentId}/status`, { status: 'refunded' });

  const { pages, charges } = await listAll(period);
  expect(pages).toBeGreaterThanOrEqual(3);
  expect(charges).toHaveLength(5);
  const byId = new Map(charges.map((c) => [c.providerPaymentId, c]));
  expect([...byId.keys()].sort()).toEqual([atStart.providerPaymentId, paidBehind.providerPaymentId, refundedBehind.providerPaymentId, boleto.providerPaymentId, dashboard['id']].sort());
  expect(byId.get(atStart.providerPaymentId)).toMatchObject({ status: 'pending', amount: 2000, amountRefunded: 0, fee: null, method: 'pix', reference: 'pay_list_2', createdAt: new Date(T0 - 3 * 3_600_000) });
  // Pix fee 1.19% (the emulator's), from the expanded balance transaction.
  expect(byId.get(paidBehind.providerPaymentId)).toMatchObject({ status: 'paid', amount: 3000, amountRefunded: 0, fee: 36 });
  expect(byId.get(refundedBehind.providerPaymentId)).toMatchObject({ status: 'paid', amount: 4000, amountRefunded: 4000, fee: 48 });
  expect(byId.get(boleto.providerPaymentId)).toMatchObject({ status: 'pending', method: 'boleto', amount: 5000, reference: 'pay_list_5' });
  expect(byId.get(dashboard['id'] as string)).toMatchObject({ status: 'paid', amount: 7000, fee: 83, reference: null, createdAt: new Date(T0 - 60 * 60_000) });
});

it('answers an empty period with one empty page', async () => {
  expect(await adapter.listCharges({ from: new Date(T0 - 30 * 86_400_000), to: new Date(T0 - 29 * 86_400_000) }, null)).toEqual({ charges: [], next: null });
});
