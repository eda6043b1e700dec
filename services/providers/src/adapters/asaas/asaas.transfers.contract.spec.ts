/**
 * Contract test for balance and transfers: the real AsaasAdapter over real HTTP against the Asaas
 * emulator (in-process, free ports), its TRANSFER_* webhooks caught by a recorder.
 */
import { createAsaasEmulator, type AsaasEmulator } from '@orquestra/emulators';
import { ProviderError, type AdapterContext } from '../provider-adapter';
import type { CreateTransferInput } from '../provider-payouts';
import { AsaasAdapter } from './asaas.adapter';
import { payAtEmulator, startWebhookRecorder, until, type WebhookRecorder } from '../testing/contract-kit';

jest.setTimeout(30_000);

const API_KEY = '$aact_hmlg_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OnRyYW5zZmVycy1h';
const URL_SECRET = 'whsec_transfers_a77';

let emulator: AsaasEmulator;
let controlUrl: string;
let context: AdapterContext;
let adapter: AsaasAdapter;
let receiver: WebhookRecorder;
const extra: AsaasAdapter[] = [];
let counter = 0;

const control = async (path: string, body: unknown, method = 'POST') => {
  const response = await fetch(`${controlUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBeLessThan(300);
  return response.status === 204 ? undefined : ((await response.json()) as Record<string, unknown>);
};
const credit = (cents: number) => control('/__control/balance', { account: API_KEY, credit_cents: cents });
const behave = (behaviour: Record<string, unknown>) => control('/__control/transfers/behaviour', { account: API_KEY, ...behaviour });

function transferInput(amount: number, overrides: Partial<CreateTransferInput> = {}): CreateTransferInput {
  counter += 1;
  return { payoutId: `po_asaas_${counter}`, amount, destination: { type: 'pix_key', keyType: 'email', key: 'financeiro@loja.com.br' }, description: 'Repasse semanal', ...overrides };
}

const transfersCarrying = (payoutId: string) => emulator.state.transfers.list(emulator.state.accountByKey(API_KEY)?.id ?? '').filter((t) => t.externalReference === payoutId);

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: API_KEY }], webhooks: { retries: 0, timeoutMs: 2_000 }, transferSettleMs: 100 });
  const ports = await emulator.start();
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  receiver = await startWebhookRecorder();
  const webhookUrl = `${receiver.url}/webhooks/asaas/acc_t?hmac=${URL_SECRET}`;
  context = { baseUrl: `http://127.0.0.1:${ports.apiPort}/v3`, credentials: { api_key: API_KEY }, webhookUrl, webhookSecret: URL_SECRET, settings: {}, timeoutMs: 5_000 };
  const registration = await new AsaasAdapter(context).registerWebhook(webhookUrl);
  context = { ...context, ...(registration.signingSecret ? { signingSecret: registration.signingSecret } : {}) };
  adapter = new AsaasAdapter(context);
});

afterEach(() => control('/__control/transfers/behaviour', { account: API_KEY }, 'DELETE'));

afterAll(async () => {
  await adapter?.close();
  for (const other of extra) await other.close();
  await emulator?.stop();
  await receiver?.close();
});

describe('balance and transfers', () => {
  it('reads the balance, which moves with a paid charge and a control credit', async () => {
    const before = await adapter.getBalance();
    expect(before).toMatchObject({ currency: 'BRL' });
    const charge = await adapter.createCharge({
      paymentId: 'pay_transfer_1', method: 'pix', amount: 10_000, customer: { name: 'Maria Souza', document: '52998224725' },
      expiresInSeconds: 3600, metadata: {}, idempotencyKey: 'pay_transfer_1:acc',
    });
    await payAtEmulator('asaas', controlUrl, { api_key: API_KEY }, charge.providerPaymentId);
    await credit(50_000);
    // R$ 100,00 less Asaas's R$ 1,99 Pix fee, plus R$ 500,00.
    expect((await adapter.getBalance()).available).toBe(before.available + 10_000 - 199 + 50_000);
  });

  it('transfers to a Pix key: pending, then paid, webhooks read back to our payout id, balance debited', async () => {
    await credit(20_000);
    const balance = (await adapter.getBalance()).available;
    const input = transferInput(7_500);
    const created = await adapter.createTransfer(input);
    expect(created).toMatchObject({ payoutId: input.payoutId, amount: 7_500, status: 'pending', providerStatus: 'PENDING', fee: 0 });
    expect((await adapter.getBalance()).available).toBe(balance - 7_500);
    const paid = await until(async () => {
      const now = await adapter.getTransfer({ payoutId: input.payoutId, providerTransferId: created.providerTransferId });
      return now.status === 'paid' ? now : undefined;
    });
    expect(paid.endToEndId).toMatch(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/);
    expect(paid.paidAt).toBeInstanceOf(Date);

    await emulator.webhooksIdle();
    const events = receiver.received
      .map((request) => ({ request, parsed: adapter.parseTransferWebhook(request) }))
      .filter(({ parsed }) => parsed.ok && parsed.transfers[0]?.providerTransferId === created.providerTransferId);
    const names = events.map(({ request }) => (JSON.parse(request.rawBody.toString()) as { event: string }).event);
    expect(names).toEqual(['TRANSFER_CREATED', 'TRANSFER_IN_BANK_PROCESSING', 'TRANSFER_DONE']);
    expect(events[2]?.parsed).toEqual({ ok: true, eventKey: expect.stringMatching(/^asaas:evt_/), transfers: [{ providerTransferId: created.providerTransferId, payoutId: input.payoutId }] });
    // The charge parser acknowledges the same delivery without naming a charge.
    expect(adapter.parseWebhook(events[2]!.request)).toMatchObject({ ok: true, providerPaymentIds: [] });
  });

  it('refuses a webhook without the registered token', async () => {
    await emulator.webhooksIdle();
    const delivery = receiver.received.find((r) => r.rawBody.toString().includes('TRANSFER_'));
    expect(delivery).toBeDefined();
    expect(adapter.parseTransferWebhook({ ...delivery!, headers: { ...delivery!.headers, 'asaas-access-token': 'forged-token-000000000000000000000000' } })).toEqual({
      ok: false,
      reason: 'unauthenticated',
      httpStatus: 401,
    });
  });

  it('repeating a create with the same payout id answers the same transfer, made once', async () => {
    await credit(5_000);
    const input = transferInput(1_000);
    const first = await adapter.createTransfer(input);
    const second = await adapter.createTransfer(input);
    expect(second.providerTransferId).toBe(first.providerTransferId);
    expect(transfersCarrying(input.payoutId)).toHaveLength(1);
  });

  it('a create whose answer is lost is ambiguous; getTransfer by payout id finds the one transfer made', async () => {
    await credit(5_000);
    await behave({ answer: 'lost' });
    const impatient = new AsaasAdapter({ ...context, timeoutMs: 700 });
    extra.push(impatient);
    const input = transferInput(2_000);
    const error = await impatient.createTransfer(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('ambiguous');
    await control('/__control/transfers/behaviour', { account: API_KEY }, 'DELETE');

    const found = await adapter.getTransfer({ payoutId: input.payoutId });
    expect(found).toMatchObject({ payoutId: input.payoutId, amount: 2_000 });
    // A repeat of the create (after the read) still makes nothing new.
    expect((await adapter.createTransfer(input)).providerTransferId).toBe(found.providerTransferId);
    expect(transfersCarrying(input.payoutId)).toHaveLength(1);
  });

  it('getTransfer of a payout id nothing carries is not_found', async () => {
    await expect(adapter.getTransfer({ payoutId: 'po_asaas_never' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('refuses more than the balance as insufficient_balance, making nothing', async () => {
    const balance = (await adapter.getBalance()).available;
    const input = transferInput(balance + 1);
    const error = await adapter.createTransfer(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect({ kind: (error as ProviderError).kind, code: (error as ProviderError).normalizedCode, param: (error as ProviderError).param?.name }).toEqual({
      kind: 'rejected',
      code: 'insufficient_balance',
      param: 'amount',
    });
    expect(transfersCarrying(input.payoutId)).toHaveLength(0);
  });

  it('a transfer the bank refuses is failed with the reason, and its money returns', async () => {
    await credit(3_000);
    await behave({ outcome: 'failed', failure_reason: 'Chave Pix inexistente' });
    const balance = (await adapter.getBalance()).available;
    const input = transferInput(3_000);
    await adapter.createTransfer(input);
    const failed = await until(async () => {
      const now = await adapter.getTransfer({ payoutId: input.payoutId });
      return now.status === 'failed' ? now : undefined;
    });
    expect(failed).toMatchObject({ providerStatus: 'FAILED', failureCode: 'transfer_failed', failureReason: 'Asaas: Chave Pix inexistente' });
    expect((await adapter.getBalance()).available).toBe(balance);
  });

  it('a transfer held in BANK_PROCESSING is processing until the control port settles it', async () => {
    await credit(1_500);
    await behave({ outcome: 'hold' });
    const input = transferInput(1_500);
    const created = await adapter.createTransfer(input);
    await until(async () => ((await adapter.getTransfer({ payoutId: input.payoutId })).status === 'processing' ? true : undefined));
    await control(`/__control/transfers/${created.providerTransferId}/settle`, { status: 'paid' });
    expect(await adapter.getTransfer({ payoutId: input.payoutId, providerTransferId: created.providerTransferId })).toMatchObject({ status: 'paid', providerStatus: 'DONE' });
  });

  it('refuses a destination other than a Pix key before calling Asaas', async () => {
    await expect(adapter.createTransfer(transferInput(100, { destination: { type: 'account' } }))).rejects.toMatchObject({ kind: 'rejected', param: { name: 'destination' } });
    expect(AsaasAdapter.payoutDestinations).toEqual(['pix_key']);
  });
});
