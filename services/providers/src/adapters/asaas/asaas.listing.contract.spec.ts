/**
 * Contract test of listCharges: the real AsaasAdapter over HTTP against the Asaas emulator
 * in-process. Charges made through the adapter and one made in the dashboard are listed across
 * pages; charges of other days are not; a status changed behind our back reads as it is now.
 */
import { createAsaasEmulator, type AsaasEmulator } from '@orquestra/emulators';
import type { CreateChargeInput } from '../provider-adapter';
import type { ChargePeriod, ListedCharge } from '../provider-charge-listing';
import { AsaasAdapter } from './asaas.adapter';

jest.setTimeout(30_000);

const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6Omxpc3RpbmctYQ';
const OTHER_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6Omxpc3RpbmctYg';
const DAY_MS = 86_400_000;

let emulator: AsaasEmulator;
let adapter: AsaasAdapter;
let controlUrl: string;

async function control(path: string, body: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json()) as Record<string, any>;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

const input = (n: number, amount: number, method: 'pix' | 'boleto' = 'pix'): CreateChargeInput => ({
  paymentId: `pay_asaas_listing_${n}`,
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
  idempotencyKey: `pay_asaas_listing_${n}:acc_asaas_1`,
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
  emulator = createAsaasEmulator({ accounts: [{ api_key: API_KEY }, { api_key: OTHER_KEY }] });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  adapter = new AsaasAdapter({
    baseUrl: `http://127.0.0.1:${ports.apiPort}/v3`,
    credentials: { api_key: API_KEY },
    webhookUrl: 'http://127.0.0.1:9/hook',
    webhookSecret: 'whsec_listing',
    settings: { list_page_size: '2' },
    timeoutMs: 5_000,
  });
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
});

it('lists our charges and a dashboard one across pages, nothing of other days, a status changed behind our back as it is now', async () => {
  const from = new Date(Date.now() - 1_000);
  const made = [await adapter.createCharge(input(1, 1_000)), await adapter.createCharge(input(2, 2_050, 'boleto')), await adapter.createCharge(input(3, 30_000))];
  const dashboard = await control('/__control/dashboard-charges', { account: API_KEY, amount: 4_200, status: 'paid', method: 'card' });
  const to = new Date(Date.now() + 1_000);
  // Asaas filters by São Paulo day: charges two days before and after are outside; so is another account's.
  await control('/__control/dashboard-charges', { account: API_KEY, amount: 111, created_at: new Date(from.getTime() - 2 * DAY_MS).toISOString() });
  await control('/__control/dashboard-charges', { account: API_KEY, amount: 333, created_at: new Date(to.getTime() + 2 * DAY_MS).toISOString() });
  await control('/__control/dashboard-charges', { account: OTHER_KEY, amount: 444 });
  // Behind our back: our Pix is paid and refunded in the dashboard, with no webhook.
  await control(`/__control/charges/${made[2]!.providerPaymentId}/status`, { status: 'paid' });
  await control(`/__control/charges/${made[2]!.providerPaymentId}/status`, { status: 'refunded' });

  const { charges, pages } = await listAll({ from, to });
  expect(pages).toBeGreaterThanOrEqual(2);
  // Newest first, as Asaas lists.
  expect(charges.map((c) => c.providerPaymentId)).toEqual([dashboard['id'], ...made.map((c) => c.providerPaymentId).reverse()]);
  const [fromDashboard, refunded, boleto, pix] = charges;
  expect(pix).toMatchObject({ status: 'pending', amount: 1_000, amountRefunded: 0, fee: null, method: 'pix', reference: 'pay_asaas_listing_1:acc_asaas_1' });
  expect(boleto).toMatchObject({ status: 'pending', amount: 2_050, method: 'boleto', reference: 'pay_asaas_listing_2:acc_asaas_1' });
  // The emulator's fee: R$ 1,99.
  expect(refunded).toMatchObject({ status: 'paid', amount: 30_000, amountRefunded: 30_000, fee: 199, method: 'pix', reference: 'pay_asaas_listing_3:acc_asaas_1' });
  expect(fromDashboard).toMatchObject({ status: 'paid', amount: 4_200, amountRefunded: 0, fee: 199, method: 'card', reference: null });
  // The day only: 00:00 in São Paulo of the creation day.
  for (const charge of charges) expect(charge.createdAt.getTime()).toBe(Date.parse(`${new Date(from.getTime() - 3 * 3_600_000).toISOString().slice(0, 10)}T00:00:00-03:00`));
  expect((await adapter.getCharge(made[2]!.providerPaymentId)).status).toBe(refunded!.status);
});

it('answers an empty page for a period without charges', async () => {
  expect(await adapter.listCharges({ from: new Date('2020-01-01T03:00:00Z'), to: new Date('2020-01-02T03:00:00Z') }, null)).toEqual({ charges: [], next: null });
});
