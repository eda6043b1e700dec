/**
 * Contract test of listCharges: the real EfiAdapter over HTTPS with mTLS against the Efí emulator
 * in-process. Charges made through the adapter (Pix and boletos, more of each than one page) and one
 * made in Efí's dashboard are listed across pages; charges outside the period are not; a status
 * changed behind our back reads as it is now; a Pix-only app (no API Cobranças) lists its Pix and
 * ends with a note that its boletos were not checked.
 */
import { createEfiEmulator, generateTestCerts, type EfiEmulator, type TestCerts } from '@orquestra/emulators';
import type { CreateChargeInput } from '../provider-adapter';
import type { ChargePeriod, ListedCharge } from '../provider-charge-listing';
import { EfiAdapter } from './efi.adapter';
import { EFI_BOLETOS_NOT_LISTED_NOTE } from './efi.listing';

jest.setTimeout(30_000);

const CLIENT = { client_id: 'Client_Id_listing', client_secret: 'Client_Secret_listing', chave: '0b1f3a52-5d0c-4c69-9a58-1f1c2c6e7a10' };
const OTHER = { client_id: 'Client_Id_listing_other', client_secret: 'Client_Secret_other', chave: 'outra@example.com.br' };
/** An app with the API Pix only: the emulator refuses it at the API Cobranças. */
const PIX_ONLY = { client_id: 'Client_Id_listing_pix_only', client_secret: 'Client_Secret_pix_only', chave: 'pix-only@example.com.br' };

let certs: TestCerts;
let emulator: EfiEmulator;
let adapter: EfiAdapter;
let pixOnly: EfiAdapter;
let controlUrl: string;

async function control(path: string, body: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json()) as Record<string, any>;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

const input = (n: number, amount: number, method: 'pix' | 'boleto' = 'pix'): CreateChargeInput => ({
  paymentId: `pay_listing_${n}`,
  method,
  amount,
  customer: {
    name: 'Maria Aparecida Souza',
    document: '52998224725',
    address: { street: 'Rua das Flores', number: '100', neighborhood: 'Centro', city: 'São Paulo', state: 'SP', zip: '01001000' },
  },
  expiresInSeconds: 3600,
  metadata: {},
  idempotencyKey: `pay_listing_${n}:acc_efi_1`,
});

async function listAll(period: ChargePeriod, lister: EfiAdapter = adapter): Promise<{ charges: ListedCharge[]; pages: number; notes: string[] }> {
  const charges: ListedCharge[] = [];
  const notes: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await lister.listCharges(period, cursor);
    charges.push(...page.charges);
    notes.push(...(page.notes ?? []));
    cursor = page.next;
    pages += 1;
  } while (cursor !== null && pages < 20);
  return { charges, pages, notes };
}

beforeAll(async () => {
  certs = generateTestCerts('efi-listing-contract');
  emulator = createEfiEmulator({ tls: { cert: certs.serverCertPem, key: certs.serverKeyPem, ca: certs.caPem }, clients: [CLIENT, OTHER, PIX_ONLY], withoutCobrancas: [PIX_ONLY.client_id], refundSettleMs: 10 });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  adapter = new EfiAdapter({
    baseUrl: `https://localhost:${ports.apiPort}`,
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    certificatePem: certs.clientCertPem,
    privateKeyPem: certs.clientKeyPem,
    caPem: certs.caPem,
    chave: CLIENT.chave,
    timeoutMs: 5_000,
    webhookSecret: 'whsec_listing',
    listPageSize: 2,
  });
  pixOnly = new EfiAdapter({
    baseUrl: `https://localhost:${ports.apiPort}`,
    clientId: PIX_ONLY.client_id,
    clientSecret: PIX_ONLY.client_secret,
    certificatePem: certs.clientCertPem,
    privateKeyPem: certs.clientKeyPem,
    caPem: certs.caPem,
    chave: PIX_ONLY.chave,
    timeoutMs: 5_000,
    webhookSecret: 'whsec_listing_pix_only',
    listPageSize: 2,
  });
});

afterAll(async () => {
  await adapter?.close();
  await pixOnly?.close();
  await emulator?.stop();
  certs?.cleanup();
});

it('lists our charges and a dashboard one across pages, nothing outside the period, a status changed behind our back as it is now', async () => {
  const from = new Date(Date.now() - 1_000);
  const made = [await adapter.createCharge(input(1, 1_000)), await adapter.createCharge(input(2, 2_050)), await adapter.createCharge(input(3, 30_000))];
  // Five boletos: three pages of two at the API Cobranças.
  const boletos = [];
  for (let n = 4; n <= 8; n += 1) boletos.push(await adapter.createCharge(input(n, 5_990 + n, 'boleto')));
  const dashboard = await control('/__control/dashboard-charges', { client_id: CLIENT.client_id, amount: 4_200, status: 'paid' });
  const to = new Date(Date.now() + 1_000);
  // Outside [from, to): just before, exactly at `to`, long after; and another account's charge inside.
  await control('/__control/dashboard-charges', { client_id: CLIENT.client_id, amount: 111, created_at: new Date(from.getTime() - 1).toISOString() });
  await control('/__control/dashboard-charges', { client_id: CLIENT.client_id, amount: 222, created_at: to.toISOString() });
  await control('/__control/dashboard-charges', { client_id: CLIENT.client_id, amount: 333, created_at: new Date(to.getTime() + 86_400_000).toISOString() });
  await control('/__control/dashboard-charges', { client_id: OTHER.client_id, amount: 444 });
  // Behind our back: ours is paid then refunded in the dashboard, with no webhook.
  await control(`/__control/charges/${made[1]!.providerPaymentId}/status`, { status: 'paid' });
  await control(`/__control/charges/${made[1]!.providerPaymentId}/status`, { status: 'refunded' });

  const { charges, pages, notes } = await listAll({ from, to });
  // Two Pix pages, then three boleto pages (2 + 2 + 1).
  expect(pages).toBe(5);
  expect(notes).toEqual([]);
  // The Pix charges page by page, then the boletos of the API Cobranças page by page, oldest first.
  expect(charges.map((c) => c.providerPaymentId)).toEqual([...made.map((c) => c.providerPaymentId), dashboard['txid'], ...boletos.map((b) => b.providerPaymentId)]);
  const [first, second, third, fromDashboard, listedBoleto] = charges;
  expect(listedBoleto).toMatchObject({ status: 'pending', amount: 5_994, amountRefunded: 0, fee: null, method: 'boleto', reference: expect.stringMatching(/^orq_[0-9a-f]{40}$/) });
  expect(charges.slice(4).map((c) => c.amount)).toEqual([5_994, 5_995, 5_996, 5_997, 5_998]);
  expect(first).toMatchObject({ status: 'pending', amount: 1_000, amountRefunded: 0, fee: null, method: 'pix', reference: null });
  expect(second).toMatchObject({ status: 'paid', amount: 2_050, amountRefunded: 2_050, fee: null });
  expect(third).toMatchObject({ status: 'pending', amount: 30_000 });
  expect(fromDashboard).toMatchObject({ status: 'paid', amount: 4_200, amountRefunded: 0, reference: null });
  for (const charge of charges) expect(charge.createdAt >= from && charge.createdAt < to).toBe(true);
  // The status the list reports is what getCharge reads.
  expect((await adapter.getCharge(made[1]!.providerPaymentId)).status).toBe(second!.status);
});

it('a Pix-only app (no API Cobranças) lists its Pix and ends with a note that its boletos were not checked', async () => {
  const from = new Date(Date.now() - 1_000);
  const pix = await pixOnly.createCharge({ ...input(20, 1_500), idempotencyKey: 'pay_listing_20:acc_efi_pix_only' });
  const { charges, notes } = await listAll({ from, to: new Date(Date.now() + 1_000) }, pixOnly);
  expect(charges.map((c) => c.providerPaymentId)).toEqual([pix.providerPaymentId]);
  expect(notes).toEqual([EFI_BOLETOS_NOT_LISTED_NOTE]);
});

it('answers an empty page for a period without charges', async () => {
  const period = { from: new Date('2020-01-01T00:00:00Z'), to: new Date('2020-01-02T00:00:00Z') };
  const pix = await adapter.listCharges(period, null);
  expect(pix).toEqual({ charges: [], next: '{"boletos":true}' });
  expect(await adapter.listCharges(period, pix.next)).toEqual({ charges: [], next: null });
});
