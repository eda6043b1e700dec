import { randomUUID } from 'node:crypto';
import { api, emulator, eventually, pixPayment } from './support/api';
import { stackInfo } from './support/stack-info';

/**
 * Failover between two Efí accounts of one merchant (A priority 10, B priority 20), driven by the
 * emulator's fault control routes. The failover merchant is separate from the other suites' one,
 * so breaker and health state built here never reaches them. The test stack runs providers with a
 * 1.5 s request timeout, a 1.5 s breaker reset and a 3 s breaker window.
 */
const BREAKER_WINDOW_MS = 3_000;

const fo = () => stackInfo().failover;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function setFaults(client: string, faults: Record<string, unknown>): Promise<void> {
  await emulator('POST', '/__control/faults', { client_id: client, ...faults });
}

async function clearFaults(): Promise<void> {
  await emulator('DELETE', `/__control/faults?client_id=${fo().clientA}`);
  await emulator('DELETE', `/__control/faults?client_id=${fo().clientB}`);
}

async function stats(): Promise<{ byClient: Record<string, number>; faultsInjected: number }> {
  const body = await emulator('GET', '/__control/stats');
  return { byClient: body.by_client as Record<string, number>, faultsInjected: body.faults_injected as number };
}

async function chargesOf(client: string): Promise<Array<{ txid: string; status: string; valor: string }>> {
  return (await emulator('GET', `/__control/charges?client_id=${encodeURIComponent(client)}`)).charges;
}

async function create(overrides: Record<string, unknown> = {}) {
  return api('POST', '/v1/payments', { key: fo().testKey, body: pixPayment(overrides), idempotencyKey: randomUUID() });
}

async function detail(id: string) {
  const response = await api('GET', `/v1/payments/${id}`, { key: fo().testKey });
  expect(response.status).toBe(200);
  return response.body;
}

async function verdictOf(accountId: string) {
  const response = await api('POST', '/v1/routing/simulate', { key: fo().testKey, body: { method: 'pix', amount: 1990 } });
  expect(response.status).toBe(200);
  const verdict = (response.body.accounts as Array<Record<string, any>>).find((a) => a.account_id === accountId);
  expect(verdict).toBeDefined();
  return verdict!;
}

/** Expects a payment made on B after one failed attempt on A with `failureCode`. */
async function expectFailedOverToB(response: Awaited<ReturnType<typeof create>>, outcome: string, failureCode: string) {
  expect(response.status).toBe(201);
  expect(response.body).toMatchObject({ status: 'pending', provider: 'efi', provider_account_id: fo().accountB });
  const payment = await detail(response.body.id);
  expect(payment.attempts).toHaveLength(2);
  expect(payment.attempts[0]).toMatchObject({ provider_account_id: fo().accountA, provider: 'efi', outcome, failure_code: failureCode });
  expect(payment.attempts[0].failure_reason).toEqual(expect.any(String));
  expect(payment.attempts[0].latency_ms).toEqual(expect.any(Number));
  expect(payment.attempts[1]).toMatchObject({ provider_account_id: fo().accountB, outcome: 'succeeded', failure_code: null });
  return payment;
}

describe('failover between provider accounts', () => {
  beforeEach(async () => {
    await clearFaults();
    // A fresh breaker window, so that the failures of one test never open A's breaker in the next.
    await sleep(BREAKER_WINDOW_MS + 200);
  });
  afterAll(clearFaults);

  it('uses A, the first by priority, while it is healthy', async () => {
    const response = await create();
    expect(response.status).toBe(201);
    expect(response.body.provider_account_id).toBe(fo().accountA);
    expect((await detail(response.body.id)).attempts).toHaveLength(1);
  });

  it('moves on to B when A refuses connections, and charges nothing at A', async () => {
    const before = await stats();
    await setFaults(fo().clientA, { outage: true });
    const response = await create();
    await expectFailedOverToB(response, 'failed', 'provider_unavailable');
    const after = await stats();
    expect(after.byClient[fo().clientA] ?? 0).toBe(before.byClient[fo().clientA] ?? 0);
    expect(after.byClient[fo().clientB]).toBe((before.byClient[fo().clientB] ?? 0) + 1);
  });

  it('moves on to B when A answers 500', async () => {
    await setFaults(fo().clientA, { error_rate: 1 });
    await expectFailedOverToB(await create(), 'failed', 'provider_error');
  });

  it('moves on to B when A answers 429', async () => {
    await setFaults(fo().clientA, { rate_limit_rate: 1 });
    await expectFailedOverToB(await create(), 'failed', 'provider_rate_limited');
  });

  it('moves on to B when A hangs, marking A uncertain', async () => {
    await setFaults(fo().clientA, { hang: true });
    const started = Date.now();
    await expectFailedOverToB(await create(), 'uncertain', 'provider_timeout');
    // The 1.5 s provider timeout bounds the wait on a hanging account.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('cancels the orphan charge A created after the timeout', async () => {
    const before = new Set((await chargesOf(fo().clientA)).map((c) => c.txid));
    // (An orphan of the hanging test may also be re-created and removed at A meanwhile.)
    const mine = (c: { txid: string; valor: string }) => !before.has(c.txid) && c.valor === '43.21';
    // A answers after our 1.5 s timeout: the charge exists at A but the payment went to B.
    await setFaults(fo().clientA, { latency_ms: 2_500 });
    const payment = await expectFailedOverToB(await create({ amount: 4321 }), 'uncertain', 'provider_timeout');
    await clearFaults();
    const orphan = await eventually(
      async () => (await chargesOf(fo().clientA)).find((c) => mine(c) && c.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR'),
      'the orphan charge at A to be removed',
      20_000,
    );
    // Exactly one charge was ever created at A for this payment, and the payment itself is untouched.
    expect((await chargesOf(fo().clientA)).filter(mine)).toEqual([orphan]);
    expect((await detail(payment.id)).status).toBe('pending');
  });

  it('answers 502 with a Portuguese error and creates nothing when every account is down', async () => {
    const listBefore = await api('GET', '/v1/payments?limit=1', { key: fo().testKey });
    await setFaults(fo().clientA, { outage: true });
    await setFaults(fo().clientB, { outage: true });
    const response = await create();
    expect(response.status).toBe(502);
    expect(response.body.error).toMatchObject({ code: 'all_providers_failed' });
    expect(response.body.error.message).toMatch(/Nenhuma conta de provedor/);
    const listAfter = await api('GET', '/v1/payments?limit=1', { key: fo().testKey });
    expect(listAfter.body.data[0]?.id).toBe(listBefore.body.data[0]?.id);
  });

  it('opens A’s breaker, skips A without calling it, then recovers by itself after a trial call', async () => {
    await setFaults(fo().clientA, { outage: true });
    // Failures within the window open the breaker (volume threshold 5, 50 %).
    await eventually(
      async () => {
        expect((await create()).status).toBe(201);
        return (await verdictOf(fo().accountA)).breaker_state === 'open' ? true : undefined;
      },
      'A’s breaker to open',
      30_000,
    );
    const open = await verdictOf(fo().accountA);
    expect(open.reasons.join(' ')).toMatch(/breaker/i);
    expect(open.rank).toBeGreaterThan((await verdictOf(fo().accountB)).rank);

    // While open, payments go straight to B and A is never called.
    const injected = (await stats()).faultsInjected;
    const skipped = await create();
    expect(skipped.status).toBe(201);
    expect(skipped.body.provider_account_id).toBe(fo().accountB);
    expect((await stats()).faultsInjected).toBe(injected);

    // A comes back. At its next half-open the providers service runs a recovery trial itself (no
    // payment is risked on it), the breaker closes, and payments return to A.
    await clearFaults();
    await eventually(
      async () => ((await verdictOf(fo().accountA)).breaker_state === 'closed' ? true : undefined),
      'A’s breaker to close after its recovery trial',
      10_000,
    );
    const back = await create();
    expect(back.status).toBe(201);
    expect(back.body.provider_account_id).toBe(fo().accountA);
    expect((await detail(back.body.id)).attempts).toHaveLength(1);
  });
});
