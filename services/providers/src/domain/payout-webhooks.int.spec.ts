/**
 * Integration: payouts through the real account service, breaker and gRPC handlers against the
 * Efí and Stripe emulators over HTTP; the providers' transfer webhooks reach our intake and land as
 * internal.provider_transfer.updated in the webhook receipts' outbox in the real store. The
 * emulators' control ports (kit PayoutBook routes) credit balances and settle transfers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { modeFromName, PROVIDER_TRANSFER_UPDATED, providerTransferUpdatedSchema } from '@orquestra/contracts';
import { createEfiEmulator, createStripeEmulator, generateTestCerts, type EfiEmulator, type StripeEmulator, type TestCerts } from '@orquestra/emulators';
import { connectDatabase, ensureIndexes, newId, SecretBox, type EventEnvelope, type OutboxRelay } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { splitPemBundle, type AdapterAccount } from '../adapters/adapter-factory';
import { EfiAdapter } from '../adapters/efi/efi.adapter';
import type { ProviderAdapter } from '../adapters/provider-adapter';
import { StripeAdapter } from '../adapters/stripe/stripe.adapter';
import { until } from '../adapters/testing/contract-kit';
import { BreakerRegistry } from '../breakers/breaker-registry';
import { registerProviderAccountModel, type ProviderAccountDoc } from '../db/provider-account.model';
import { registerSubaccountSecretModel } from '../db/subaccount-secret.model';
import { registerWebhookReceiptModel, type WebhookReceiptModel } from '../db/webhook-receipt.model';
import { payoutHandlers } from '../grpc/payout.handlers';
import { emulatorControls } from '../sandbox/emulator-control';
import { ProviderAccountService } from './provider-account.service';
import { SubaccountSecrets } from './subaccount-secrets';
import { WebhookIntakeService } from './webhook-intake.service';

jest.setTimeout(60_000);

const MERCHANT = 'acct_payouts_int';
const logger = pino({ level: 'silent' });
const EFI = { client_id: 'Client_Id_int_payout', client_secret: 'Client_Secret_int_payout', chave: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e' };
const STRIPE_KEY = 'sk_test_51PayoutIntegrationA0000000';

let db: Connection;
let receipts: WebhookReceiptModel;
let intakeServer: Server;
let certs: TestCerts;
let efi: EfiEmulator;
let stripe: StripeEmulator;
const endpoints: Record<string, { api: string; control: string }> = {};
let accounts: ProviderAccountService;
let handlers: ReturnType<typeof payoutHandlers>;

function buildAdapter(account: AdapterAccount): ProviderAdapter {
  if (account.provider === 'efi') {
    const { certificatePem, privateKeyPem } = splitPemBundle(account.credentials['certificate'] ?? '');
    return new EfiAdapter({
      baseUrl: endpoints['efi']!.api,
      clientId: account.credentials['client_id'] ?? '',
      clientSecret: account.credentials['client_secret'] ?? '',
      certificatePem,
      privateKeyPem,
      caPem: certs.caPem,
      chave: account.credentials['pix_key'] ?? '',
      timeoutMs: 5_000,
      webhookSecret: account.webhookSecret,
    });
  }
  return new StripeAdapter({
    baseUrl: endpoints['stripe']!.api,
    credentials: account.credentials,
    webhookUrl: account.webhookUrl,
    webhookSecret: account.webhookSecret,
    ...(account.signingSecret ? { signingSecret: account.signingSecret } : {}),
    settings: {},
    timeoutMs: 5_000,
  });
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

function sawTransfer(accountId: string, fields: Record<string, unknown>): Promise<EventEnvelope> {
  const matches = (e: EventEnvelope) =>
    e.type === PROVIDER_TRANSFER_UPDATED && Object.entries(fields).every(([k, v]) => JSON.stringify((e.data.object as Record<string, unknown>)[k]) === JSON.stringify(v));
  return until(async () => (await outboxOf(accountId)).find(matches), 10_000, `${PROVIDER_TRANSFER_UPDATED} ${JSON.stringify(fields)}`);
}

async function control(provider: string, path: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${endpoints[provider]!.control}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${provider} control ${path}: HTTP ${response.status} ${await response.text()}`);
}

const ref = (account: ProviderAccountDoc) => ({ merchant_id: MERCHANT, mode: modeFromName('test'), account_id: account._id });

beforeAll(async () => {
  const infra = await ensureTestInfra();
  db = await connectDatabase({ url: infra.mongoUrl, dbName: `${uniqueDbPrefix('payouts')}providers`, logger });
  const accountModel = registerProviderAccountModel(db);
  receipts = registerWebhookReceiptModel(db);
  await ensureIndexes(db);

  certs = generateTestCerts('providers-payouts-int');
  efi = createEfiEmulator({ tls: { cert: certs.serverCertPem, key: certs.serverKeyPem, ca: certs.caPem }, clients: [EFI], webhooks: { retries: 0, timeoutMs: 2_000 }, sweepMs: 0 });
  const efiPorts = await efi.start();
  endpoints['efi'] = { api: `https://localhost:${efiPorts.apiPort}`, control: `http://127.0.0.1:${efiPorts.controlPort}` };
  stripe = createStripeEmulator({ accounts: [STRIPE_KEY], webhooks: { retries: 0, timeoutMs: 2_000 } });
  const stripePorts = await stripe.start();
  endpoints['stripe'] = { api: `http://127.0.0.1:${stripePorts.apiPort}`, control: `http://127.0.0.1:${stripePorts.controlPort}` };

  const breakers = new BreakerRegistry({ errorThresholdPercentage: 50, volumeThreshold: 100, resetTimeout: 60_000 }, logger);
  const secrets = SecretBox.fromConfig(`k1:${randomBytes(32).toString('base64')}`);
  // Nothing relays the outbox here: the events stay in the receipts, where the tests read them.
  const outbox = { flush: () => Promise.resolve() } as unknown as OutboxRelay;
  const intake: { current?: WebhookIntakeService } = {};
  const webhookBaseUrl = await startIntake({ handle: (input) => (intake.current ? intake.current.handle(input) : Promise.resolve({ httpStatus: 503, body: '' })) });
  const controls = emulatorControls({ efi: { control: endpoints['efi'].control }, stripe: { control: endpoints['stripe'].control } }, 5_000);
  accounts = new ProviderAccountService(accountModel, secrets, breakers, buildAdapter, webhookBaseUrl, logger, controls);
  const subaccountSecrets = new SubaccountSecrets(registerSubaccountSecretModel(db), secrets);
  intake.current = new WebhookIntakeService(accounts, receipts, outbox, logger, subaccountSecrets);
  handlers = payoutHandlers(accounts, subaccountSecrets);
});

afterAll(async () => {
  await new Promise<void>((resolve) => (intakeServer ? intakeServer.close(() => resolve()) : resolve()));
  await efi?.stop();
  await stripe?.stop();
  certs?.cleanup();
  await dropTestDatabase(db);
});

describe.each([
  {
    provider: 'efi',
    param: 'client_id',
    owner: EFI.client_id,
    credentials: () => ({ client_id: EFI.client_id, client_secret: EFI.client_secret, certificate: `${certs.clientCertPem}\n${certs.clientKeyPem}`, pix_key: EFI.chave }),
    destination: { type: 'pix_key', key_type: 'email', key: 'financeiro@loja.example' },
    paidStatus: 'REALIZADO',
  },
  {
    provider: 'stripe',
    param: 'account',
    owner: STRIPE_KEY,
    credentials: () => ({ secret_key: STRIPE_KEY }),
    destination: { type: 'account', key_type: '', key: '' },
    paidStatus: 'paid',
  },
])('$provider: balance, transfers and their webhooks', ({ provider, param, owner, credentials, destination, paidStatus }) => {
  let account: ProviderAccountDoc;

  beforeAll(async () => {
    account = await accounts.connect({ merchantId: MERCHANT, mode: 'test', provider, name: provider, priority: 1, enabled: true, credentials: credentials(), fees: [] });
  });

  it('reads the balance at the provider', async () => {
    await control(provider, '/__control/balance/credit', { [param]: owner, amount: 50_000 });
    const { balance, provider: name } = await handlers.getBalance({ account: ref(account) }, {} as never);
    expect(name).toBe(provider);
    expect(balance).toMatchObject({ available: 50_000, currency: 'BRL' });
  });

  it('a transfer settled at the provider arrives by webhook, read back, as internal.provider_transfer.updated', async () => {
    await control(provider, '/__control/transfers/behaviour', { [param]: owner, outcome: 'hang' });
    const payoutId = newId('payout');
    const { transfer } = await handlers.createTransfer({ account: ref(account), payout_id: payoutId, amount: 12_000, destination, description: 'Repasse' }, {} as never);
    expect(transfer).toMatchObject({ payout_id: payoutId, status: 'processing', amount: 12_000 });
    await control(provider, `/__control/transfers/${encodeURIComponent(transfer!.provider_transfer_id)}/settle`, { outcome: 'paid' });
    const event = await sawTransfer(account._id, { payout_id: payoutId, status: 'paid' });
    expect(event).toMatchObject({ merchant_id: MERCHANT, mode: 'test' });
    expect(providerTransferUpdatedSchema.parse(event.data.object)).toMatchObject({
      account_id: account._id,
      provider,
      provider_transfer_id: transfer!.provider_transfer_id,
      provider_status: paidStatus,
      amount: 12_000,
      via: 'webhook',
    });
    expect((await handlers.getBalance({ account: ref(account) }, {} as never)).balance?.available).toBe(38_000);
  });

  it('execute then time out: CreateTransfer answers provider_timeout, GetTransfer finds the one transfer made', async () => {
    await control(provider, '/__control/transfers/withhold-answer', { [param]: owner });
    const payoutId = newId('payout');
    await expect(handlers.createTransfer({ account: ref(account), payout_id: payoutId, amount: 1_000, destination, description: '' }, {} as never)).rejects.toMatchObject({
      code: 'provider_timeout',
    });
    const { transfer } = await handlers.getTransfer({ account: ref(account), payout_id: payoutId }, {} as never);
    expect(transfer).toMatchObject({ payout_id: payoutId, amount: 1_000 });
    expect((await handlers.getBalance({ account: ref(account) }, {} as never)).balance?.available).toBe(37_000);
  });

  it('more than the balance is insufficient_balance; nothing under the payout id is not_found', async () => {
    const payoutId = newId('payout');
    await expect(handlers.createTransfer({ account: ref(account), payout_id: payoutId, amount: 1_000_000, destination, description: '' }, {} as never)).rejects.toMatchObject({
      code: 'insufficient_balance',
      param: 'amount',
    });
    await expect(handlers.getTransfer({ account: ref(account), payout_id: payoutId }, {} as never)).rejects.toMatchObject({ code: 'not_found', param: 'payout_id' });
  });
});
