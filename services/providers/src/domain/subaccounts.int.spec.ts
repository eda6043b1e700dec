/**
 * Integration: subaccounts through the real account service, breaker and gRPC handlers against the
 * Asaas emulator over HTTP, with the issued apiKey kept in the real store: sealed at rest, kept once,
 * and what the subaccount's status and balance are read with.
 */
import { randomBytes } from 'node:crypto';
import { modeFromName } from '@orquestra/contracts';
import { createAsaasEmulator, type AsaasEmulator } from '@orquestra/emulators';
import { connectDatabase, ensureIndexes, newId, SecretBox } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { AsaasAdapter } from '../adapters/asaas/asaas.adapter';
import { randomCpf } from '../adapters/testing/subaccount-contract-kit';
import { BreakerRegistry } from '../breakers/breaker-registry';
import { registerProviderAccountModel, type ProviderAccountDoc } from '../db/provider-account.model';
import { registerSubaccountSecretModel, type SubaccountSecretModel } from '../db/subaccount-secret.model';
import { subaccountHandlers } from '../grpc/subaccount.handlers';
import { ProviderAccountService } from './provider-account.service';
import { SubaccountSecrets } from './subaccount-secrets';

jest.setTimeout(60_000);

const MERCHANT = 'acct_subaccounts_int';
const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OnN1YmFjY291bnRzLWludA==';
const logger = pino({ level: 'silent' });

let db: Connection;
let emulator: AsaasEmulator;
let controlUrl: string;
let apiUrl: string;
let secretDocs: SubaccountSecretModel;
let secrets: SubaccountSecrets;
let handlers: ReturnType<typeof subaccountHandlers>;
let account: ProviderAccountDoc;

const ref = () => ({ merchant_id: MERCHANT, mode: modeFromName('test'), account_id: account._id });

const createRequest = (subaccountId: string, document: string) => ({
  account: ref(),
  subaccount_id: subaccountId,
  type: 'individual',
  person: {
    name: 'Ana Lima',
    document,
    email: `ana.${subaccountId}@exemplo.com`,
    phone: '11988451155',
    birthdate: '1990-05-16',
    mother_name: '',
    occupation: '',
    monthly_income: 500_000,
    address: { street: 'Av. Paulista', number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310100' },
  },
  transfer_interval: '',
});

beforeAll(async () => {
  const infra = await ensureTestInfra();
  db = await connectDatabase({ url: infra.mongoUrl, dbName: `${uniqueDbPrefix('subaccounts')}providers`, logger });
  const accountModel = registerProviderAccountModel(db);
  secretDocs = registerSubaccountSecretModel(db);
  await ensureIndexes(db);

  emulator = createAsaasEmulator({ accounts: [{ api_key: API_KEY }], webhooks: { retries: 0, timeoutMs: 2_000 } });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  apiUrl = `http://127.0.0.1:${ports.apiPort}/v3`;

  const box = SecretBox.fromConfig(`k1:${randomBytes(32).toString('base64')}`);
  const breakers = new BreakerRegistry({ errorThresholdPercentage: 50, volumeThreshold: 100, resetTimeout: 60_000 }, logger);
  const build = (a: { credentials: Record<string, string>; webhookUrl: string; webhookSecret: string }) =>
    new AsaasAdapter({ baseUrl: apiUrl, credentials: a.credentials, webhookUrl: a.webhookUrl, webhookSecret: a.webhookSecret, settings: {}, timeoutMs: 5_000 });
  // No webhook reaches us here: the emulator's deliveries to this closed port are dropped (retries 0).
  const accounts = new ProviderAccountService(accountModel, box, breakers, build, 'http://127.0.0.1:9', logger, () => undefined);
  secrets = new SubaccountSecrets(secretDocs, box);
  handlers = subaccountHandlers(accounts, secrets);
  account = await accounts.connect({ merchantId: MERCHANT, mode: 'test', provider: 'asaas', name: 'Asaas', priority: 1, enabled: true, credentials: { api_key: API_KEY }, fees: [] });
});

afterAll(async () => {
  await emulator?.stop();
  await dropTestDatabase(db);
});

describe('Asaas subaccounts through the providers service', () => {
  it('keeps the issued apiKey sealed, once, never answered, and reads status and balance with it', async () => {
    const subaccountId = newId('subaccount');
    const request = createRequest(subaccountId, randomCpf());
    const created = await handlers.createSubaccount(request, {} as never);
    expect(created).toMatchObject({ provider: 'asaas', subaccount: { status: 'pending', details: { wallet_id: expect.any(String) } } });
    const providerSubaccountId = created.subaccount!.provider_subaccount_id;

    const stored = await secretDocs.find({ account_id: account._id }).lean();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ subaccount_id: subaccountId, provider_subaccount_id: providerSubaccountId, secret_sealed: { key_id: 'k1' } });
    const issued = await secrets.find(account._id, subaccountId);
    expect(issued).toMatch(/^\$aact_hmlg_/);
    expect(JSON.stringify(stored)).not.toContain(issued);
    expect(JSON.stringify(created)).not.toContain(issued);

    // Asaas answers the key only to the first create: the repeat finds the account and keeps the stored key.
    const again = await handlers.createSubaccount(request, {} as never);
    expect(again.subaccount?.provider_subaccount_id).toBe(providerSubaccountId);
    expect(await secretDocs.countDocuments({ account_id: account._id })).toBe(1);
    expect(await secrets.find(account._id, subaccountId)).toBe(issued);

    const target = { account: ref(), subaccount_id: subaccountId, provider_subaccount_id: providerSubaccountId };
    await expect(handlers.getSubaccount(target, {} as never)).resolves.toMatchObject({ subaccount: { status: 'pending', provider_status: 'PENDING' } });
    const credit = await fetch(`${controlUrl}/__control/balance/credit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: issued, amount: 7_500 }) });
    expect(credit.ok).toBe(true);
    const { balance } = await handlers.getSubaccountBalance(target, {} as never);
    expect(balance).toMatchObject({ available: 7_500, currency: 'BRL', as_of: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
  });

  it('answers a missing requirement as parameter_missing on the public field, and creates nothing at Asaas', async () => {
    const subaccountId = newId('subaccount');
    const request = createRequest(subaccountId, randomCpf());
    await expect(handlers.createSubaccount({ ...request, person: { ...request.person, phone: '' } }, {} as never)).rejects.toMatchObject({ code: 'parameter_missing', param: 'phone' });
    const atAsaas = await fetch(`${apiUrl}/accounts?externalReference=${subaccountId}`, { headers: { access_token: API_KEY, 'user-agent': 'integration-test' } });
    expect(((await atAsaas.json()) as { data: unknown[] }).data).toEqual([]);
    expect(await secretDocs.countDocuments({ subaccount_id: subaccountId })).toBe(0);
  });
});
