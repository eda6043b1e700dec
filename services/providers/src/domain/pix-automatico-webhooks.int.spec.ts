/**
 * Integration: Pix Automático webhooks from the real emulators over HTTP reach our intake. An
 * account is connected through the real account service (which registers the recurrence webhooks),
 * the gRPC handlers drive the recurrence and its cycles, the emulators' control ports play the
 * payer's bank, and the internal events land in the webhook receipts' outbox in the real store.
 * Each emulator's clock starts on Monday 2026-03-02, 09:00 in São Paulo, and only moves forward:
 * the tests of one provider run in order.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { modeFromName, PROVIDER_CHARGE_UPDATED, PROVIDER_CYCLE_CHARGE_UPDATED, PROVIDER_RECURRENCE_UPDATED } from '@orquestra/contracts';
import {
  createAsaasEmulator,
  createEfiEmulator,
  createWooviEmulator,
  generateTestCerts,
  type AsaasEmulator,
  type EfiEmulator,
  type TestCerts,
  type WooviEmulator,
} from '@orquestra/emulators';
import { connectDatabase, ensureIndexes, SecretBox, type EventEnvelope, type OutboxRelay } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { splitPemBundle, type AdapterAccount } from '../adapters/adapter-factory';
import { AsaasAdapter } from '../adapters/asaas/asaas.adapter';
import { EfiAdapter } from '../adapters/efi/efi.adapter';
import type { ProviderAdapter } from '../adapters/provider-adapter';
import { WooviAdapter } from '../adapters/woovi/woovi.adapter';
import { until } from '../adapters/testing/contract-kit';
import { clockTo } from '../adapters/testing/recurrence-contract-kit';
import { BreakerRegistry } from '../breakers/breaker-registry';
import { registerProviderAccountModel, type ProviderAccountDoc } from '../db/provider-account.model';
import { registerSubaccountSecretModel } from '../db/subaccount-secret.model';
import { registerWebhookReceiptModel, type WebhookReceiptModel } from '../db/webhook-receipt.model';
import { recurrenceHandlers } from '../grpc/recurrence.handlers';
import { emulatorControls } from '../sandbox/emulator-control';
import { ProviderAccountService } from './provider-account.service';
import { SubaccountSecrets } from './subaccount-secrets';
import { WebhookIntakeService } from './webhook-intake.service';

jest.setTimeout(60_000);

const BASE = new Date('2026-03-02T12:00:00.000Z');
const MERCHANT = 'acct_pix_automatico';
const logger = pino({ level: 'silent' });

let db: Connection;
let receipts: WebhookReceiptModel;
let intakeServer: Server;
let certs: TestCerts;
let efi: EfiEmulator;
let woovi: WooviEmulator;
let asaas: AsaasEmulator;
const endpoints: Record<string, { api: string; control: string }> = {};
let wooviPublicKey: string;
let accounts: ProviderAccountService;
let handlers: ReturnType<typeof recurrenceHandlers>;

const EFI = { client_id: 'Client_Id_int_rec', client_secret: 'Client_Secret_int_rec', chave: '7d9f3c1a-2b4e-4c6d-8e0f-1a2b3c4d5e6f' };
const WOOVI_APP_ID = 'Q2xpZW50X0lkX2ludDpDbGllbnRfU2VjcmV0X2ludA==';
const ASAAS_API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OmludGVncmF0aW9u';

/** The adapters as production builds them, pointed at the emulators. */
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
  if (account.provider === 'asaas') {
    return new AsaasAdapter({
      baseUrl: endpoints['asaas']!.api,
      credentials: account.credentials,
      webhookUrl: account.webhookUrl,
      webhookSecret: account.webhookSecret,
      ...(account.signingSecret ? { signingSecret: account.signingSecret } : {}),
      settings: {},
      timeoutMs: 5_000,
    });
  }
  return new WooviAdapter({
    baseUrl: endpoints['woovi']!.api,
    credentials: account.credentials,
    webhookUrl: account.webhookUrl,
    webhookSecret: account.webhookSecret,
    settings: { webhook_public_key: wooviPublicKey },
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

/** The internal events in the outbox of this account's receipts, oldest first. */
async function outboxOf(accountId: string): Promise<EventEnvelope[]> {
  const docs = await receipts.find({ account_id: accountId }).sort({ received_at: 1 }).lean();
  return docs.flatMap((d) => (d.outbox ?? []) as EventEnvelope[]);
}

/** Waits for an internal event of this type whose data.object has these fields. */
function sawInternal(accountId: string, type: string, fields: Record<string, unknown>): Promise<EventEnvelope> {
  const matches = (e: EventEnvelope) => e.type === type && Object.entries(fields).every(([k, v]) => JSON.stringify((e.data.object as Record<string, unknown>)[k]) === JSON.stringify(v));
  return until(async () => (await outboxOf(accountId)).find(matches), 10_000, `${type} ${JSON.stringify(fields)}`);
}

const ref = (account: ProviderAccountDoc) => ({ merchant_id: MERCHANT, mode: modeFromName('test'), account_id: account._id });

beforeAll(async () => {
  const infra = await ensureTestInfra();
  db = await connectDatabase({ url: infra.mongoUrl, dbName: `${uniqueDbPrefix('pixauto')}providers`, logger });
  const accountModel = registerProviderAccountModel(db);
  receipts = registerWebhookReceiptModel(db);
  await ensureIndexes(db);

  certs = generateTestCerts('providers-pix-automatico-int');
  efi = createEfiEmulator({
    tls: { cert: certs.serverCertPem, key: certs.serverKeyPem, ca: certs.caPem },
    clients: [EFI],
    webhooks: { retries: 0, timeoutMs: 2_000 },
    now: () => BASE,
    tokenTtlSeconds: 10 * 365 * 86_400,
    sweepMs: 0,
  });
  const efiPorts = await efi.start();
  endpoints['efi'] = { api: `https://localhost:${efiPorts.apiPort}`, control: `http://127.0.0.1:${efiPorts.controlPort}` };
  woovi = createWooviEmulator({ accounts: [WOOVI_APP_ID], webhooks: { retries: 0, timeoutMs: 2_000 }, now: () => BASE, sweepMs: 0 });
  const wooviPorts = await woovi.start();
  endpoints['woovi'] = { api: `http://127.0.0.1:${wooviPorts.apiPort}`, control: `http://127.0.0.1:${wooviPorts.controlPort}` };
  wooviPublicKey = await (await fetch(`${endpoints['woovi'].control}/__control/public-key`)).text();
  asaas = createAsaasEmulator({ accounts: [{ api_key: ASAAS_API_KEY }], webhooks: { retries: 0, timeoutMs: 2_000 }, now: () => BASE, sweepMs: 0 });
  const asaasPorts = await asaas.start();
  endpoints['asaas'] = { api: `http://127.0.0.1:${asaasPorts.apiPort}/v3`, control: `http://127.0.0.1:${asaasPorts.controlPort}` };

  const breakers = new BreakerRegistry({ errorThresholdPercentage: 50, volumeThreshold: 100, resetTimeout: 60_000 }, logger);
  const secrets = SecretBox.fromConfig(`k1:${randomBytes(32).toString('base64')}`);
  const controls = emulatorControls({ efi: { control: endpoints['efi'].control }, woovi: { control: endpoints['woovi'].control }, asaas: { control: endpoints['asaas'].control } }, 5_000);
  // Nothing relays the outbox here: the events stay in the receipts, where the tests read them.
  const outbox = { flush: () => Promise.resolve() } as unknown as OutboxRelay;
  // The intake's URL is known once its server listens, and the account service needs it to connect.
  const intake: { current?: WebhookIntakeService } = {};
  const webhookBaseUrl = await startIntake({ handle: (input) => (intake.current ? intake.current.handle(input) : Promise.resolve({ httpStatus: 503, body: '' })) });
  accounts = new ProviderAccountService(accountModel, secrets, breakers, buildAdapter, webhookBaseUrl, logger, controls);
  intake.current = new WebhookIntakeService(accounts, receipts, outbox, logger, new SubaccountSecrets(registerSubaccountSecretModel(db), secrets));
  handlers = recurrenceHandlers(accounts);
});

afterAll(async () => {
  await new Promise<void>((resolve) => (intakeServer ? intakeServer.close(() => resolve()) : resolve()));
  await efi?.stop();
  await woovi?.stop();
  await asaas?.stop();
  certs?.cleanup();
  await dropTestDatabase(db);
});

describe('Efí: webhookrec and webhookcobr reach the intake', () => {
  let account: ProviderAccountDoc;
  let recurrenceId: string;
  let txid: string;

  it('connecting registers the recurrence webhooks; the approval arrives as internal.provider_recurrence.updated', async () => {
    account = await accounts.connect({
      merchantId: MERCHANT,
      mode: 'test',
      provider: 'efi',
      name: 'Efí',
      priority: 1,
      enabled: true,
      credentials: { client_id: EFI.client_id, client_secret: EFI.client_secret, certificate: `${certs.clientCertPem}\n${certs.clientKeyPem}`, pix_key: EFI.chave },
      fees: [],
    });
    const created = await handlers.createRecurrence(
      {
        account: ref(account),
        subscription_id: 'sub_int_efi',
        payer: { name: 'Maria Aparecida Souza', document: '529.982.247-25' },
        frequency: 'monthly',
        amount: 4_990,
        description: 'Plano mensal',
        start_date: '2026-03-10',
        retry: true,
        approval_expires_in_seconds: 86_400,
      } as never,
      {} as never,
    );
    recurrenceId = created.recurrence!.provider_recurrence_id;
    await handlers.approveRecurrenceInSandbox({ account: ref(account), provider_recurrence_id: recurrenceId, approval_charge_id: '' } as never, {} as never);
    const event = await sawInternal(account._id, PROVIDER_RECURRENCE_UPDATED, { provider_recurrence_id: recurrenceId, status: 'active' });
    expect(event).toMatchObject({ merchant_id: MERCHANT, mode: 'test' });
    expect(event.data.object).toEqual({ account_id: account._id, provider: 'efi', provider_recurrence_id: recurrenceId, status: 'active', provider_status: 'APROVADA', via: 'webhook' });
  });

  it('a cycle charge sent is scheduled; a failed attempt with retries left is retrying', async () => {
    const charge = (await handlers.createCycleCharge({ account: ref(account), provider_recurrence_id: recurrenceId, payment_id: 'pay_int_efi_1', amount: 4_990, due_date: '2026-03-10', description: '' } as never, {} as never)).charge!;
    txid = charge.provider_charge_id;
    // The same payment id finds the same charge.
    const again = await handlers.createCycleCharge({ account: ref(account), provider_recurrence_id: recurrenceId, payment_id: 'pay_int_efi_1', amount: 4_990, due_date: '2026-03-10', description: '' } as never, {} as never);
    expect(again.charge?.provider_charge_id).toBe(txid);
    await sawInternal(account._id, PROVIDER_CYCLE_CHARGE_UPDATED, { provider_charge_id: txid, status: 'scheduled', failed_attempts: 0 });
    // Before its date the payer's bank does not debit.
    await expect(handlers.simulateCycleCharge({ account: ref(account), provider_recurrence_id: recurrenceId, provider_charge_id: txid, outcome: 'failed' } as never, {} as never)).rejects.toMatchObject({
      code: 'payment_not_simulatable',
    });
    await clockTo(endpoints['efi']!.control, '2026-03-10T12:00:00.000Z');
    const failed = await handlers.simulateCycleCharge({ account: ref(account), provider_recurrence_id: recurrenceId, provider_charge_id: txid, outcome: 'failed' } as never, {} as never);
    expect(failed.charge).toMatchObject({ status: 'retrying', failed_attempts: 1 });
    const event = await sawInternal(account._id, PROVIDER_CYCLE_CHARGE_UPDATED, { provider_charge_id: txid, status: 'retrying' });
    expect(event.data.object).toEqual({
      account_id: account._id,
      provider: 'efi',
      provider_recurrence_id: recurrenceId,
      provider_charge_id: txid,
      status: 'retrying',
      provider_status: 'ATIVA',
      amount: 4_990,
      due_date: '2026-03-10',
      failed_attempts: 1,
      via: 'webhook',
    });
  });

  it('a retry asked for is paid on its date, with the end-to-end id', async () => {
    const retry = await handlers.retryCycleCharge({ account: ref(account), provider_charge_id: txid, date: '2026-03-12' } as never, {} as never);
    expect(retry.charge).toMatchObject({ status: 'retrying', next_attempt_date: '2026-03-12' });
    await clockTo(endpoints['efi']!.control, '2026-03-12T12:00:00.000Z');
    await handlers.simulateCycleCharge({ account: ref(account), provider_recurrence_id: recurrenceId, provider_charge_id: txid, outcome: 'paid' } as never, {} as never);
    const event = await sawInternal(account._id, PROVIDER_CYCLE_CHARGE_UPDATED, { provider_charge_id: txid, status: 'paid' });
    expect(event.data.object).toMatchObject({ provider_status: 'CONCLUIDA', failed_attempts: 1, end_to_end_id: expect.stringMatching(/^E/) });
  });

  it('a failed attempt with no retry left fails the charge', async () => {
    // Sent inside its window: 2 calendar to 10 business days ahead.
    await clockTo(endpoints['efi']!.control, '2026-04-01T12:00:00.000Z');
    const charge = (await handlers.createCycleCharge({ account: ref(account), provider_recurrence_id: recurrenceId, payment_id: 'pay_int_efi_2', amount: 4_990, due_date: '2026-04-10', description: '' } as never, {} as never)).charge!;
    // Past the 7 days after the due date no retry can be asked for: the failed attempt ends it.
    await clockTo(endpoints['efi']!.control, '2026-04-17T12:00:00.000Z');
    await handlers.simulateCycleCharge({ account: ref(account), provider_recurrence_id: recurrenceId, provider_charge_id: charge.provider_charge_id, outcome: 'failed' } as never, {} as never);
    const event = await sawInternal(account._id, PROVIDER_CYCLE_CHARGE_UPDATED, { provider_charge_id: charge.provider_charge_id, status: 'failed' });
    expect(event.data.object).toMatchObject({ provider_status: 'EXPIRADA', failed_attempts: 1 });
    expect(event.data.object).not.toHaveProperty('next_attempt_date');
  });

  it('a replayed delivery adds no receipt', async () => {
    const before = await receipts.countDocuments({ account_id: account._id });
    const body = JSON.stringify({ cobsr: [{ idRec: recurrenceId, txid, calendario: { dataDeVencimento: '2026-03-10' }, valor: { original: '49.90' }, status: 'CONCLUIDA', tentativas: [] }] });
    const url = new URL(accounts.webhookUrlOf(account));
    url.searchParams.set('ignorar', '/cobr');
    for (let i = 0; i < 2; i += 1) {
      const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(answer.status).toBe(200);
    }
    expect(await receipts.countDocuments({ account_id: account._id })).toBe(before + 1);
  });
});

describe('Woovi: PIX_AUTOMATIC_* webhooks reach the intake', () => {
  let account: ProviderAccountDoc;
  let recurrenceId: string;
  let cycleId: string;

  it('connecting registers the PIX_AUTOMATIC_* events; the approval arrives as internal.provider_recurrence.updated', async () => {
    account = await accounts.connect({ merchantId: MERCHANT, mode: 'test', provider: 'woovi', name: 'Woovi', priority: 2, enabled: true, credentials: { app_id: WOOVI_APP_ID }, fees: [] });
    const created = await handlers.createRecurrence(
      {
        account: ref(account),
        subscription_id: 'sub_int_woovi',
        payer: { name: 'Ana Lima', document: '52998224725', address: { street: 'Avenida Paulista', number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-100' } },
        frequency: 'monthly',
        amount: 2_990,
        description: 'Assinatura revista',
        start_date: '2026-03-10',
        retry: true,
        approval_expires_in_seconds: 86_400,
      } as never,
      {} as never,
    );
    recurrenceId = created.recurrence!.provider_recurrence_id;
    await handlers.approveRecurrenceInSandbox({ account: ref(account), provider_recurrence_id: recurrenceId, approval_charge_id: '' } as never, {} as never);
    await sawInternal(account._id, PROVIDER_RECURRENCE_UPDATED, { provider_recurrence_id: recurrenceId, status: 'active', provider_status: 'ACTIVE' });
  });

  it('a cycle Woovi made fails once (retrying, its next attempt dated), then is paid', async () => {
    // Woovi creates the cycle's charge 4 days ahead.
    await clockTo(endpoints['woovi']!.control, '2026-03-06T12:00:00.000Z');
    const read = await handlers.getRecurrence({ account: ref(account), provider_recurrence_id: recurrenceId } as never, {} as never);
    cycleId = read.recurrence!.cycle_charge_ids[0]!;
    expect(cycleId).toBeTruthy();
    await clockTo(endpoints['woovi']!.control, '2026-03-10T12:00:00.000Z');
    await handlers.simulateCycleCharge({ account: ref(account), provider_recurrence_id: recurrenceId, provider_charge_id: cycleId, outcome: 'failed' } as never, {} as never);
    const retrying = await sawInternal(account._id, PROVIDER_CYCLE_CHARGE_UPDATED, { provider_charge_id: cycleId, status: 'retrying' });
    const next = (retrying.data.object as { next_attempt_date?: string }).next_attempt_date;
    expect(retrying.data.object).toMatchObject({ provider_recurrence_id: recurrenceId, failed_attempts: 1, amount: 2_990, next_attempt_date: expect.stringMatching(/^2026-03-1\d$/) });
    await clockTo(endpoints['woovi']!.control, `${next}T12:00:00.000Z`);
    await handlers.simulateCycleCharge({ account: ref(account), provider_recurrence_id: recurrenceId, provider_charge_id: cycleId, outcome: 'paid' } as never, {} as never);
    await sawInternal(account._id, PROVIDER_CYCLE_CHARGE_UPDATED, { provider_charge_id: cycleId, status: 'paid', failed_attempts: 1 });
  });
});

describe('Asaas: the cycles it makes reach the intake from their creation', () => {
  let account: ProviderAccountDoc;
  let recurrenceId: string;

  it('paying the approval QR activates the authorization; the cycle Asaas creates is published as scheduled', async () => {
    account = await accounts.connect({ merchantId: MERCHANT, mode: 'test', provider: 'asaas', name: 'Asaas', priority: 3, enabled: true, credentials: { api_key: ASAAS_API_KEY }, fees: [] });
    const created = await handlers.createRecurrence(
      {
        account: ref(account),
        subscription_id: 'sub_int_asaas',
        payer: { name: 'Carlos Pereira', document: '52998224725' },
        frequency: 'monthly',
        amount: 4_990,
        first_amount: 1_990,
        description: 'Plano mensal',
        start_date: '2026-03-10',
        retry: true,
        approval_expires_in_seconds: 86_400,
      } as never,
      {} as never,
    );
    recurrenceId = created.recurrence!.provider_recurrence_id;
    await handlers.approveRecurrenceInSandbox({ account: ref(account), provider_recurrence_id: recurrenceId, approval_charge_id: created.recurrence!.approval_charge_id } as never, {} as never);
    const active = await sawInternal(account._id, PROVIDER_RECURRENCE_UPDATED, { provider_recurrence_id: recurrenceId, status: 'active' });
    const [cycleId] = (active.data.object as { cycle_charge_ids: string[] }).cycle_charge_ids;
    const scheduled = await sawInternal(account._id, PROVIDER_CYCLE_CHARGE_UPDATED, { provider_charge_id: cycleId, status: 'scheduled' });
    expect(scheduled.data.object).toMatchObject({ provider_recurrence_id: recurrenceId, provider_status: 'PENDING', amount: 4_990, due_date: '2026-03-10', failed_attempts: 0 });
    // Its creation alone is not read as a payment change.
    expect((await outboxOf(account._id)).filter((e) => e.type === PROVIDER_CHARGE_UPDATED && (e.data.object as { provider_payment_id: string }).provider_payment_id === cycleId)).toEqual([]);
  });

  it('a cycle whose debit fails is failed; the next one is paid', async () => {
    const read = await handlers.getRecurrence({ account: ref(account), provider_recurrence_id: recurrenceId } as never, {} as never);
    const [first] = read.recurrence!.cycle_charge_ids;
    await clockTo(endpoints['asaas']!.control, '2026-03-10T12:00:00.000Z');
    await handlers.simulateCycleCharge({ account: ref(account), provider_recurrence_id: recurrenceId, provider_charge_id: first, outcome: 'failed' } as never, {} as never);
    const failed = await sawInternal(account._id, PROVIDER_CYCLE_CHARGE_UPDATED, { provider_charge_id: first, status: 'failed' });
    expect(failed.data.object).toMatchObject({ provider_status: 'OVERDUE', failed_attempts: 1 });
    await clockTo(endpoints['asaas']!.control, '2026-04-01T12:00:00.000Z');
    const second = (await handlers.getRecurrence({ account: ref(account), provider_recurrence_id: recurrenceId } as never, {} as never)).recurrence!.cycle_charge_ids.find((id) => id !== first)!;
    await sawInternal(account._id, PROVIDER_CYCLE_CHARGE_UPDATED, { provider_charge_id: second, status: 'scheduled', due_date: '2026-04-10' });
    await clockTo(endpoints['asaas']!.control, '2026-04-10T12:00:00.000Z');
    await handlers.simulateCycleCharge({ account: ref(account), provider_recurrence_id: recurrenceId, provider_charge_id: second, outcome: 'paid' } as never, {} as never);
    await sawInternal(account._id, PROVIDER_CYCLE_CHARGE_UPDATED, { provider_charge_id: second, status: 'paid', provider_status: 'CONFIRMED' });
  });
});
