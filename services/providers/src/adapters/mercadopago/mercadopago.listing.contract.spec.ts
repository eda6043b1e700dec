/**
 * Contract test of listCharges: the real MercadoPagoAdapter over HTTP against the Mercado Pago
 * emulator in-process. Payments made through the adapter and one made in the dashboard are listed
 * across pages; payments outside the period are not; a status changed behind our back reads as it is now.
 */
import { createMercadoPagoEmulator, type MercadoPagoEmulator } from '@orquestra/emulators';
import type { CreateChargeInput } from '../provider-adapter';
import type { ChargePeriod, ListedCharge } from '../provider-charge-listing';
import { MercadoPagoAdapter } from './mercadopago.adapter';

jest.setTimeout(30_000);

const ACCOUNT = { access_token: 'TEST-5512987063018275-031014-7a1b0c9e2d7a4b3c8e5f1a2b3c4d5e6f-1234567811', webhook_secret: 'mp_listing' };
const OTHER = { access_token: 'TEST-5512987063018275-031014-8b2c1d0f3e8b5c4d9f6a2b3c4d5e6f70-1234567822', webhook_secret: 'mp_listing_b' };

let emulator: MercadoPagoEmulator;
let adapter: MercadoPagoAdapter;
let controlUrl: string;

async function control(path: string, body: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json()) as Record<string, any>;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

const input = (n: number, amount: number, method: 'pix' | 'boleto' = 'pix'): CreateChargeInput => ({
  paymentId: `pay_mp_listing_${n}`,
  method,
  amount,
  customer: {
    name: 'Maria Aparecida Souza',
    document: '52998224725',
    email: 'maria@example.com',
    address: { street: 'Rua das Flores', number: '100', neighborhood: 'Centro', city: 'São Paulo', state: 'SP', zip: '01001000' },
  },
  expiresInSeconds: 3600,
  metadata: {},
  idempotencyKey: `pay_mp_listing_${n}:acc_mp_1`,
});

async function listAll(period: ChargePeriod): Promise<{ charges: ListedCharge[]; pages: number }> {
  const charges: ListedCharge[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await adapter.listCharges(period, cursor);
    charges.push(...page.charges);
    cursor = page.next;
    pages += 1;
  } while (cursor !== null && pages < 20);
  return { charges, pages };
}

beforeAll(async () => {
  emulator = createMercadoPagoEmulator({ accounts: [ACCOUNT, OTHER] });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  adapter = new MercadoPagoAdapter({
    baseUrl: `http://127.0.0.1:${ports.apiPort}`,
    credentials: { ...ACCOUNT },
    webhookUrl: 'http://127.0.0.1:9/hook?hmac=whsec_listing',
    webhookSecret: 'whsec_listing',
    settings: { list_page_size: '2' },
    timeoutMs: 5_000,
  });
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
});

it('lists our payments and a dashboard one across pages, nothing outside the period, a status changed behind our back as it is now', async () => {
  const from = new Date(Date.now() - 1_000);
  const made = [await adapter.createCharge(input(1, 1_000)), await adapter.createCharge(input(2, 2_050, 'boleto')), await adapter.createCharge(input(3, 30_000))];
  const dashboard = await control('/__control/dashboard-charges', { account: ACCOUNT.access_token, amount: 4_200, status: 'paid', method: 'card' });
  const to = new Date(Date.now() + 1_000);
  await control('/__control/dashboard-charges', { account: ACCOUNT.access_token, amount: 111, created_at: new Date(from.getTime() - 1).toISOString() });
  await control('/__control/dashboard-charges', { account: ACCOUNT.access_token, amount: 222, created_at: to.toISOString() });
  await control('/__control/dashboard-charges', { account: ACCOUNT.access_token, amount: 333, created_at: new Date(to.getTime() + 86_400_000).toISOString() });
  await control('/__control/dashboard-charges', { account: OTHER.access_token, amount: 444 });
  // Behind our back: our Pix is paid, then refunded in the dashboard, with no notification.
  await control(`/__control/charges/${made[2]!.providerPaymentId}/status`, { status: 'paid' });
  await control(`/__control/charges/${made[2]!.providerPaymentId}/status`, { status: 'refunded' });

  const { charges, pages } = await listAll({ from, to });
  expect(pages).toBeGreaterThanOrEqual(2);
  expect(charges.map((c) => c.providerPaymentId)).toEqual([...made.map((c) => c.providerPaymentId), String(dashboard['id'])]);
  const [pix, boleto, refunded, fromDashboard] = charges;
  expect(pix).toMatchObject({ status: 'pending', amount: 1_000, amountRefunded: 0, fee: null, method: 'pix', reference: 'pay_mp_listing_1' });
  expect(boleto).toMatchObject({ status: 'pending', amount: 2_050, method: 'boleto', reference: 'pay_mp_listing_2' });
  // The emulator's Pix fee: 0.99 % of R$ 300,00.
  expect(refunded).toMatchObject({ status: 'paid', amount: 30_000, amountRefunded: 30_000, fee: 297, method: 'pix', reference: 'pay_mp_listing_3' });
  // The emulator's card fee: 4.98 % of R$ 42,00.
  expect(fromDashboard).toMatchObject({ status: 'paid', amount: 4_200, amountRefunded: 0, fee: 209, method: 'card', reference: null });
  for (const charge of charges) expect(charge.createdAt >= from && charge.createdAt < to).toBe(true);
  expect((await adapter.getCharge(made[2]!.providerPaymentId)).status).toBe(refunded!.status);
});

it('answers an empty page for a period without payments', async () => {
  expect(await adapter.listCharges({ from: new Date('2020-01-01T00:00:00Z'), to: new Date('2020-01-02T00:00:00Z') }, null)).toEqual({ charges: [], next: null });
});
