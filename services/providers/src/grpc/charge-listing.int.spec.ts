/**
 * Integration: ListCharges through the real account service (credentials sealed in the real store),
 * breaker and handler, over HTTP to the Asaas emulator: pages follow the cursor, a charge made in
 * the dashboard is listed, a status changed behind our back reads as it is now, and another
 * merchant cannot list the account.
 */
import { randomBytes } from 'node:crypto';
import { modeFromName } from '@orquestra/contracts';
import { createAsaasEmulator, type AsaasEmulator } from '@orquestra/emulators';
import { connectDatabase, ensureIndexes, SecretBox } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { AsaasAdapter } from '../adapters/asaas/asaas.adapter';
import { BreakerRegistry } from '../breakers/breaker-registry';
import { registerProviderAccountModel, type ProviderAccountDoc } from '../db/provider-account.model';
import { ProviderAccountService } from '../domain/provider-account.service';
import { chargeListingHandlers } from './charge-listing.handlers';

jest.setTimeout(60_000);

const MERCHANT = 'acct_listing_int';
const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6Omxpc3RpbmctaW50';
const logger = pino({ level: 'silent' });

let db: Connection;
let emulator: AsaasEmulator;
let controlUrl: string;
let accounts: ProviderAccountService;
let account: ProviderAccountDoc;

async function control(path: string, body: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json()) as Record<string, any>;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

beforeAll(async () => {
  const infra = await ensureTestInfra();
  db = await connectDatabase({ url: infra.mongoUrl, dbName: `${uniqueDbPrefix('listing')}providers`, logger });
  const accountModel = registerProviderAccountModel(db);
  await ensureIndexes(db);
  emulator = createAsaasEmulator({ accounts: [{ api_key: API_KEY }] });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  const box = SecretBox.fromConfig(`k1:${randomBytes(32).toString('base64')}`);
  const breakers = new BreakerRegistry({ errorThresholdPercentage: 50, volumeThreshold: 100, resetTimeout: 60_000 }, logger);
  const build = (a: { credentials: Record<string, string>; webhookUrl: string; webhookSecret: string }) =>
    new AsaasAdapter({ baseUrl: `http://127.0.0.1:${ports.apiPort}/v3`, credentials: a.credentials, webhookUrl: a.webhookUrl, webhookSecret: a.webhookSecret, settings: { list_page_size: '2' }, timeoutMs: 5_000 });
  accounts = new ProviderAccountService(accountModel, box, breakers, build, 'http://127.0.0.1:9', logger, () => undefined);
  account = await accounts.connect({ merchantId: MERCHANT, mode: 'test', provider: 'asaas', name: 'Asaas', priority: 1, enabled: true, credentials: { api_key: API_KEY }, fees: [] });
});

afterAll(async () => {
  await emulator?.stop();
  await dropTestDatabase(db);
});

it('pages through the account’s charges for the period, as the provider reports them now', async () => {
  const handlers = chargeListingHandlers(accounts);
  const from = new Date(Date.now() - 1_000).toISOString();
  const made = await Promise.all([1_000, 2_000, 3_000].map((amount) => control('/__control/dashboard-charges', { account: API_KEY, amount, method: 'pix' })));
  await control(`/__control/charges/${made[1]!.id as string}/status`, { status: 'paid' });
  const to = new Date(Date.now() + 1_000).toISOString();
  const ref = { merchant_id: MERCHANT, mode: modeFromName('test'), account_id: account._id };

  const seen: Array<{ id: string; status: string; amount: number }> = [];
  const cursors: string[] = [];
  let cursor = '';
  do {
    const page = await handlers.listCharges({ account: ref, from, to, cursor }, {} as never);
    expect(page.supported).toBe(true);
    expect(page.charges.length).toBeLessThanOrEqual(2);
    seen.push(...page.charges.map((charge) => ({ id: charge.provider_payment_id, status: charge.status, amount: charge.amount })));
    cursor = page.next_cursor;
    cursors.push(cursor);
  } while (cursor && cursors.length < 10);
  expect(cursors.length).toBe(2);
  expect(seen.sort((a, b) => a.amount - b.amount)).toEqual([
    { id: made[0]!.id, status: 'pending', amount: 1_000 },
    { id: made[1]!.id, status: 'paid', amount: 2_000 },
    { id: made[2]!.id, status: 'pending', amount: 3_000 },
  ]);

  await expect(handlers.listCharges({ account: { ...ref, merchant_id: 'acct_other' }, from, to, cursor: '' }, {} as never)).rejects.toMatchObject({ code: 'not_found' });
});
