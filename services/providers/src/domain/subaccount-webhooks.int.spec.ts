/**
 * Integration: subaccount status webhooks through the real account service, breaker, gRPC handlers,
 * secret store and intake against the Asaas, Pagar.me and Stripe emulators over HTTP. A subaccount
 * is created, the emulator's control route moves its status (Asaas ACCOUNT_STATUS_GENERAL_APPROVAL_*,
 * Pagar.me recipient.updated to the webhook the account's connection set up, Stripe Connect's
 * account.updated to the Connect endpoint registered beside it, signed with that endpoint's own
 * secret), and the intake's read-back lands as internal.provider_subaccount.updated in the
 * webhook receipt's outbox.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { modeFromName, PROVIDER_SUBACCOUNT_UPDATED, providerSubaccountUpdatedSchema } from '@orquestra/contracts';
import { createAsaasEmulator, createPagarmeEmulator, createStripeEmulator, type AsaasEmulator, type PagarmeEmulator, type StripeEmulator } from '@orquestra/emulators';
import { connectDatabase, ensureIndexes, newId, SecretBox, type EventEnvelope, type OutboxRelay } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import type { AdapterAccount } from '../adapters/adapter-factory';
import { AsaasAdapter } from '../adapters/asaas/asaas.adapter';
import { PagarmeAdapter } from '../adapters/pagarme/pagarme.adapter';
import { StripeAdapter } from '../adapters/stripe/stripe.adapter';
import type { ProviderAdapter } from '../adapters/provider-adapter';
import { until } from '../adapters/testing/contract-kit';
import { randomCpf } from '../adapters/testing/subaccount-contract-kit';
import { BreakerRegistry } from '../breakers/breaker-registry';
import { registerProviderAccountModel, type ProviderAccountDoc } from '../db/provider-account.model';
import { registerSubaccountSecretModel } from '../db/subaccount-secret.model';
import { registerWebhookReceiptModel, type WebhookReceiptModel } from '../db/webhook-receipt.model';
import { subaccountHandlers } from '../grpc/subaccount.handlers';
import { emulatorControls } from '../sandbox/emulator-control';
import { ProviderAccountService } from './provider-account.service';
import { SubaccountSecrets } from './subaccount-secrets';
import { WebhookIntakeService } from './webhook-intake.service';

jest.setTimeout(60_000);

const MERCHANT = 'acct_subaccount_webhooks_int';
const ASAAS_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OnN1YndlYmhvb2tzLWludA==';
const PAGARME_KEY = 'sk_test_subaccountwebhooksint0001';
const STRIPE_KEY = 'sk_test_subaccountwebhooksint0002';
const logger = pino({ level: 'silent' });

let db: Connection;
let receipts: WebhookReceiptModel;
let intakeServer: Server;
let asaas: AsaasEmulator;
let pagarme: PagarmeEmulator;
let stripe: StripeEmulator;
const endpoints: Record<string, { api: string; control: string }> = {};
let accounts: ProviderAccountService;
let handlers: ReturnType<typeof subaccountHandlers>;

function buildAdapter(account: AdapterAccount): ProviderAdapter {
  const context = {
    baseUrl: endpoints[account.provider]!.api,
    credentials: account.credentials,
    webhookUrl: account.webhookUrl,
    webhookSecret: account.webhookSecret,
    ...(account.signingSecret ? { signingSecret: account.signingSecret } : {}),
    settings: {},
    timeoutMs: 5_000,
  };
  if (account.provider === 'stripe') return new StripeAdapter({ ...context, settings: { connect_return_url: 'https://loja.example/ok', connect_refresh_url: 'https://loja.example/again' } });
  return account.provider === 'asaas' ? new AsaasAdapter(context) : new PagarmeAdapter(context);
}

/** Our public webhook route as the gateway serves it: POST /webhooks/providers/{accountId}[/{subPath}]. */
async function startIntake(intake: Pick<WebhookIntakeService, 'handle'>): Promise<string> {
  intakeServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://intake');
      const [, webhooks, providers, accountId, ...rest] = url.pathname.split('/');
      if (webhooks !== 'webhooks' || providers !== 'providers' || !accountId) return void res.writeHead(404).end();
      intake
        .handle({
          accountId,
          subPath: rest.length > 0 ? `/${rest.join('/')}` : '',
          query: Object.fromEntries(url.searchParams),
          headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
          body: Buffer.concat(chunks),
        })
        .then(
          (answer) => res.writeHead(answer.httpStatus).end(answer.body),
          () => res.writeHead(503).end(),
        );
    });
  });
  await new Promise<void>((resolve) => intakeServer.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(intakeServer.address() as AddressInfo).port}`;
}

async function outboxOf(accountId: string): Promise<EventEnvelope[]> {
  const docs = await receipts.find({ account_id: accountId }).sort({ received_at: 1 }).lean();
  return docs.flatMap((d) => (d.outbox ?? []) as EventEnvelope[]);
}

function sawSubaccount(accountId: string, providerSubaccountId: string, status: string): Promise<EventEnvelope> {
  const matches = (e: EventEnvelope) => {
    const data = e.data.object as Record<string, unknown>;
    return e.type === PROVIDER_SUBACCOUNT_UPDATED && data['provider_subaccount_id'] === providerSubaccountId && data['status'] === status;
  };
  return until(async () => (await outboxOf(accountId)).find(matches), 10_000, `${PROVIDER_SUBACCOUNT_UPDATED} ${providerSubaccountId} ${status}`);
}

async function setStatus(provider: string, providerSubaccountId: string, status: 'active' | 'refused'): Promise<void> {
  const response = await fetch(`${endpoints[provider]!.control}/__control/subaccounts/${encodeURIComponent(providerSubaccountId)}/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status }),
  });
  if (!response.ok) throw new Error(`${provider} subaccount status: HTTP ${response.status} ${await response.text()}`);
}

const address = { street: 'Av. Paulista', number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310100' };

const createRequest = (account: ProviderAccountDoc, subaccountId: string) => ({
  account: { merchant_id: MERCHANT, mode: modeFromName('test'), account_id: account._id },
  subaccount_id: subaccountId,
  type: 'individual',
  person: {
    name: 'Ana Lima',
    document: randomCpf(),
    email: `ana.${subaccountId}@exemplo.com`,
    phone: '11988451155',
    birthdate: '1990-05-16',
    mother_name: '',
    occupation: 'Artesã',
    monthly_income: 500_000,
    address,
  },
  bank_account: { bank: '341', branch: '0001', branch_digit: '', account: '12345', account_digit: '6', type: 'checking', holder_name: 'Ana Lima' },
  transfer_interval: '',
});

beforeAll(async () => {
  const infra = await ensureTestInfra();
  db = await connectDatabase({ url: infra.mongoUrl, dbName: `${uniqueDbPrefix('subwebhooks')}providers`, logger });
  const accountModel = registerProviderAccountModel(db);
  receipts = registerWebhookReceiptModel(db);
  const secretDocs = registerSubaccountSecretModel(db);
  await ensureIndexes(db);

  asaas = createAsaasEmulator({ accounts: [{ api_key: ASAAS_KEY }], webhooks: { retries: 0, timeoutMs: 2_000 } });
  const asaasPorts = await asaas.start();
  endpoints['asaas'] = { api: `http://127.0.0.1:${asaasPorts.apiPort}/v3`, control: `http://127.0.0.1:${asaasPorts.controlPort}` };
  pagarme = createPagarmeEmulator({ accounts: [{ secret_key: PAGARME_KEY }], webhooks: { retries: 0, timeoutMs: 2_000 } });
  const pagarmePorts = await pagarme.start();
  endpoints['pagarme'] = { api: `http://127.0.0.1:${pagarmePorts.apiPort}/core/v5`, control: `http://127.0.0.1:${pagarmePorts.controlPort}` };
  stripe = createStripeEmulator({ accounts: [{ secret_key: STRIPE_KEY }], webhooks: { retries: 0, timeoutMs: 2_000 } });
  const stripePorts = await stripe.start();
  endpoints['stripe'] = { api: `http://127.0.0.1:${stripePorts.apiPort}`, control: `http://127.0.0.1:${stripePorts.controlPort}` };

  const box = SecretBox.fromConfig(`k1:${randomBytes(32).toString('base64')}`);
  const breakers = new BreakerRegistry({ errorThresholdPercentage: 50, volumeThreshold: 100, resetTimeout: 60_000 }, logger);
  // Nothing relays the outbox here: the events stay in the receipts, where the tests read them.
  const outbox = { flush: () => Promise.resolve() } as unknown as OutboxRelay;
  const secrets = new SubaccountSecrets(secretDocs, box);
  const intake: { current?: WebhookIntakeService } = {};
  const webhookBaseUrl = await startIntake({ handle: (input) => (intake.current ? intake.current.handle(input) : Promise.resolve({ httpStatus: 503, body: '' })) });
  // Pagar.me's webhook is typed in its dashboard: the emulator's control route stands in for it.
  const controls = emulatorControls({ pagarme: { control: endpoints['pagarme'].control } }, 5_000);
  accounts = new ProviderAccountService(accountModel, box, breakers, buildAdapter, webhookBaseUrl, logger, controls);
  intake.current = new WebhookIntakeService(accounts, receipts, outbox, logger, secrets);
  handlers = subaccountHandlers(accounts, secrets);
});

afterAll(async () => {
  await new Promise<void>((resolve) => (intakeServer ? intakeServer.close(() => resolve()) : resolve()));
  await asaas?.stop();
  await pagarme?.stop();
  await stripe?.stop();
  await dropTestDatabase(db);
});

describe.each<{ provider: string; credentials: Record<string, string>; approved: string; refused: string; namesOurId?: false }>([
  // Asaas names only its account id: our id and the apiKey to read it with come from the secret store.
  { provider: 'asaas', credentials: { api_key: ASAAS_KEY }, approved: 'APPROVED', refused: 'REJECTED' },
  // Pagar.me echoes our id as the recipient's code.
  { provider: 'pagarme', credentials: { secret_key: PAGARME_KEY }, approved: 'active', refused: 'refused' },
  // Stripe Connect: account.updated on the Connect endpoint, authenticated by its own signing secret.
  // It names only the connected account: the payouts service finds ours by the provider's id.
  { provider: 'stripe', credentials: { secret_key: STRIPE_KEY }, approved: 'enabled', refused: 'rejected.other', namesOurId: false },
])('$provider: a subaccount status change by webhook', ({ provider, credentials, approved, refused, namesOurId }) => {
  let account: ProviderAccountDoc;

  beforeAll(async () => {
    account = await accounts.connect({ merchantId: MERCHANT, mode: 'test', provider, name: provider, priority: 1, enabled: true, credentials, fees: [] });
  });

  it.each([
    ['active', approved],
    ['refused', refused],
  ] as const)('moved to %s at the provider, read back, lands as internal.provider_subaccount.updated', async (status, providerStatus) => {
    const subaccountId = newId('subaccount');
    const created = await handlers.createSubaccount(createRequest(account, subaccountId), {} as never);
    expect(created.subaccount?.status).toBe('pending');
    const providerSubaccountId = created.subaccount!.provider_subaccount_id;

    await setStatus(provider, providerSubaccountId, status);
    const event = await sawSubaccount(account._id, providerSubaccountId, status);
    expect(event).toMatchObject({ merchant_id: MERCHANT, mode: 'test' });
    expect(providerSubaccountUpdatedSchema.parse(event.data.object)).toEqual({
      account_id: account._id,
      provider,
      provider_subaccount_id: providerSubaccountId,
      ...(namesOurId === false ? {} : { subaccount_id: subaccountId }),
      status,
      status_detail: expect.any(String),
      provider_status: providerStatus,
      split_target: created.subaccount!.split_target,
      via: 'webhook',
    });
  });
});
