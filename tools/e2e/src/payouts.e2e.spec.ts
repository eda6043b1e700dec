import { randomUUID } from 'node:crypto';
import { accounts, common } from '@orquestra/contracts';
import { createRpcClient, type RpcClient } from '@orquestra/platform';
import { api, eventually } from './support/api';
import { stackInfo } from './support/stack-info';

/**
 * Balances and payouts through REST against the real stack: the gateway, the payouts service, the
 * accounts service's owner controls, the providers service and the Efí emulator (Pix sent to a
 * saved key, its webhook, a transfer made whose answer is lost). The owner's settings are changed
 * through the accounts service, as the owner command does.
 */
type Json = Record<string, any>;

let owner: RpcClient<typeof accounts.AccountsServiceService>;

async function efi(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${stackInfo().efiControlUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

const settings = (change: { api_enabled?: boolean; daily_limit?: number }) =>
  owner.setPayoutSettings({ merchant_id: stackInfo().merchantId, mode: common.Mode.MODE_TEST, ...change });

const payoutBody = (overrides: Json = {}): Json => ({
  provider_account_id: stackInfo().testProviderAccountId,
  amount: 1_000,
  destination: { type: 'pix_key', destination_id: stackInfo().payoutDestinationId },
  description: 'Retirada para a conta da empresa',
  metadata: { lote: 'e2e' },
  ...overrides,
});

const createPayout = (body: Json = payoutBody(), idempotencyKey: string = randomUUID(), key?: string) => api('POST', '/v1/payouts', { body, idempotencyKey, ...(key ? { key } : {}) });

async function payoutWhen(id: string, what: string, ok: (payout: Json) => boolean): Promise<Json> {
  return eventually(async () => {
    const read = (await api('GET', `/v1/payouts/${id}`)).body;
    return ok(read) ? read : undefined;
  }, what, 15_000);
}

/** The transfers the Efí emulator made under a payout (its idEnvio is the payout id without the underscore). */
async function transfersOf(payoutId: string): Promise<Json[]> {
  const { body } = await efi('GET', `/__control/transfers?client_id=${encodeURIComponent(stackInfo().emulatorClientId)}`);
  const idEnvio = payoutId.replace('_', '');
  return (body.transfers as Json[]).filter((transfer) => JSON.stringify(transfer).includes(idEnvio));
}

async function eventTypesOf(id: string): Promise<string[]> {
  const list = await api('GET', `/v1/events?resource_id=${id}&limit=100`);
  return (list.body.data as Json[]).map((event) => event.type as string);
}

beforeAll(async () => {
  owner = createRpcClient(accounts.AccountsServiceService, `127.0.0.1:${stackInfo().ports.accounts}`, { deadlineMs: 10_000 });
  await settings({ api_enabled: true, daily_limit: 100_000_000 });
  // Money to pay out: the payer side of the emulator credits the account.
  const credited = await efi('POST', '/__control/balance/credit', { client_id: stackInfo().emulatorClientId, amount: 5_000_000 });
  expect(credited.status).toBeLessThan(300);
});

afterAll(() => owner.close());

describe('balances and payouts', () => {
  it('shows the balance read from the provider and the saved Pix keys masked', async () => {
    const balances = await api('GET', '/v1/balances');
    expect(balances.status).toBe(200);
    expect(balances.body.payouts_api_enabled).toBe(true);
    const efiAccount = (balances.body.data as Json[]).find((b) => b.provider_account_id === stackInfo().testProviderAccountId);
    expect(efiAccount).toMatchObject({ provider: 'efi', currency: 'BRL', payouts_supported: true, destination_types: ['pix_key'], error: null });
    expect(efiAccount!.available).toBeGreaterThanOrEqual(5_000_000);

    const destinations = await api('GET', '/v1/payout-destinations');
    expect(destinations.status).toBe(200);
    const saved = (destinations.body.data as Json[]).find((d) => d.destination_id === stackInfo().payoutDestinationId);
    expect(saved).toMatchObject({ type: 'pix_key', key_type: 'email', label: 'Conta da empresa' });
    expect(saved!.key).toContain('*');
    expect(JSON.stringify(destinations.body)).not.toContain('financeiro@loja-teste.orquestra.dev');
  });

  it('refuses while the owner has payouts off (403 in Portuguese); on, the payout is paid, the Efí webhook saying so', async () => {
    await settings({ api_enabled: false });
    const off = await createPayout();
    expect(off.status).toBe(403);
    expect(off.body.error).toMatchObject({ code: 'payouts_api_disabled' });
    expect(off.body.error.message).toContain('npm run owner');
    await settings({ api_enabled: true });

    const before = (await api('GET', '/v1/balances')).body.data.find((b: Json) => b.provider_account_id === stackInfo().testProviderAccountId).available as number;
    const created = await createPayout(payoutBody({ amount: 2_500 }));
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/payouts/${created.body.id}`);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^po_/),
      object: 'payout',
      amount: 2_500,
      provider: 'efi',
      uncertain: false,
      destination: { type: 'pix_key', destination_id: stackInfo().payoutDestinationId, key_type: 'email' },
    });
    expect(['pending', 'processing']).toContain(created.body.status);
    const paid = await payoutWhen(created.body.id, 'payout paid', (p) => p.status === 'paid');
    expect(paid.paid_at).toEqual(expect.any(String));
    const after = (await api('GET', '/v1/balances')).body.data.find((b: Json) => b.provider_account_id === stackInfo().testProviderAccountId).available as number;
    expect(before - after).toBeGreaterThanOrEqual(2_500);
    await eventually(async () => {
      const types = await eventTypesOf(created.body.id);
      return ['payout.created', 'payout.paid'].every((t) => types.includes(t)) ? types : undefined;
    }, 'payout events in the log');
  });

  it('the same Idempotency-Key answers the same payout (one transfer); another body under it is a conflict', async () => {
    const key = randomUUID();
    const first = await createPayout(payoutBody({ amount: 1_100 }), key);
    const again = await createPayout(payoutBody({ amount: 1_100 }), key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const conflict = await createPayout(payoutBody({ amount: 1_200 }), key);
    expect(conflict.status).toBe(409);
    const missingKey = await api('POST', '/v1/payouts', { body: payoutBody() });
    expect(missingKey.status).toBe(400);
    expect(missingKey.body.error).toMatchObject({ code: 'parameter_missing', param: 'Idempotency-Key' });
    expect(await transfersOf(first.body.id)).toHaveLength(1);
    expect((await api('GET', `/v1/payouts?limit=100`)).body.data.filter((p: Json) => p.id === first.body.id)).toHaveLength(1);
  });

  it('30 concurrent payouts against the daily limit: exactly those that fit, the rest 422 in Portuguese', async () => {
    // What today's payouts of this merchant already took from the limit (all made by this suite).
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const listed = (await api('GET', '/v1/payouts?limit=100')).body.data as Json[];
    const taken = listed
      .filter((p) => !['failed', 'canceled'].includes(p.status) && new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(p.created_at)) === today)
      .reduce((sum, p) => sum + (p.amount as number), 0);
    await settings({ daily_limit: taken + 10 * 100 });
    try {
      const answers = await Promise.all(Array.from({ length: 30 }, () => createPayout(payoutBody({ amount: 100 }))));
      const created = answers.filter((a) => a.status === 201);
      const refused = answers.filter((a) => a.status === 422);
      expect(created).toHaveLength(10);
      expect(refused).toHaveLength(20);
      expect(refused[0]!.body.error).toMatchObject({ code: 'payout_limit_exceeded', param: 'amount' });
      expect(refused[0]!.body.error.message).toContain('limite diário');
    } finally {
      await settings({ daily_limit: 100_000_000 });
    }
  });

  it('a transfer Efí made whose answer was lost: 201 uncertain, resolved by reading it back, one transfer only', async () => {
    const armed = await efi('POST', '/__control/transfers/withhold-answer', { client_id: stackInfo().emulatorClientId, delay_ms: 0, times: 1 });
    expect(armed.status).toBeLessThan(300);
    const created = await createPayout(payoutBody({ amount: 1_777 }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'pending', uncertain: true });
    const resolved = await payoutWhen(created.body.id, 'uncertain payout resolved', (p) => p.uncertain === false && p.status === 'paid');
    expect(resolved.amount).toBe(1_777);
    expect(await transfersOf(created.body.id)).toHaveLength(1);
    const types = await eventually(async () => {
      const seen = await eventTypesOf(created.body.id);
      return seen.includes('payout.uncertain') && seen.includes('payout.paid') ? seen : undefined;
    }, 'payout.uncertain then payout.paid');
    expect(types.filter((t) => t === 'payout.created')).toHaveLength(1);
  });

  it('restricted keys are refused everywhere; a live key never sees a test payout', async () => {
    const restricted = stackInfo().restrictedTestKey;
    const created = await createPayout(payoutBody({ amount: 300 }));
    expect(created.status).toBe(201);
    for (const [method, path] of [
      ['GET', '/v1/balances'],
      ['GET', '/v1/payouts'],
      ['GET', `/v1/payouts/${created.body.id}`],
      ['POST', `/v1/payouts/${created.body.id}/sync`],
      ['GET', '/v1/payout-destinations'],
    ] as const) {
      const answer = await api(method, path, { key: restricted });
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('restricted_key');
    }
    const restrictedCreate = await createPayout(payoutBody(), randomUUID(), restricted);
    expect(restrictedCreate.status).toBe(403);
    const live = await api('GET', `/v1/payouts/${created.body.id}`, { key: stackInfo().liveKey });
    expect(live.status).toBe(404);
    const synced = await api('POST', `/v1/payouts/${created.body.id}/sync`);
    expect(synced.status).toBe(200);
    expect(synced.body.id).toBe(created.body.id);
  });
});
