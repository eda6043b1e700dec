import { randomUUID } from 'node:crypto';
import { api } from './support/api';
import { stackInfo } from './support/stack-info';

// Subscriptions (Pix Automático) through REST against the real stack: the gateway's routes, the
// subscriptions service and the Efí emulator's recurrences.

/** A valid CPF (check digits hold), so only the field under test is wrong. */
const CPF = '529.982.247-25';

function subscriptionBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    customer: { name: 'Maria Silva', document: CPF },
    frequency: 'monthly',
    amount: 2990,
    description: 'Plano mensal',
    metadata: { order_id: randomUUID() },
    tracking: { utm_source: 'e2e' },
    ...overrides,
  };
}

async function createSubscription(overrides: Record<string, unknown> = {}, key?: string): Promise<Record<string, any>> {
  const created = await api('POST', '/v1/subscriptions', { key: key ?? stackInfo().testKey, body: subscriptionBody(overrides), idempotencyKey: randomUUID() });
  expect(created.status).toBe(201);
  return created.body;
}

describe('subscriptions', () => {
  it('creates one pending, with the approval QR, and answers it again for the same Idempotency-Key', async () => {
    const idempotencyKey = randomUUID();
    const body = subscriptionBody();
    const created = await api('POST', '/v1/subscriptions', { body, idempotencyKey });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/subscriptions/${created.body.id}`);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^sub_/),
      object: 'subscription',
      mode: 'test',
      status: 'pending',
      amount: 2990,
      first_amount: 2990,
      frequency: 'monthly',
      start_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      provider: 'efi',
      provider_account_id: stackInfo().testProviderAccountId,
      approval: { qr_code: expect.any(String) },
      // The payer's customer record from creation on (payments' UpsertCustomer), never an empty placeholder.
      customer: { id: expect.stringMatching(/^cus_/), name: 'Maria Silva', document: '52998224725' },
      metadata: body['metadata'],
      tracking: { utm_source: 'e2e' },
    });
    expect(created.body.approval.qr_code.length).toBeGreaterThan(20);
    expect(created.body).not.toHaveProperty('payments');
    const customer = await api('GET', `/v1/customers/${created.body.customer.id}`);
    expect(customer.status).toBe(200);
    expect(customer.body).toMatchObject({ id: created.body.customer.id, document: '52998224725' });

    const replay = await api('POST', '/v1/subscriptions', { body, idempotencyKey });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(created.body.id);

    const conflict = await api('POST', '/v1/subscriptions', { body: { ...body, amount: 3990 }, idempotencyKey });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_conflict' });
  });

  it.each([
    ['customer.document missing', { customer: { name: 'Maria Silva' } }, 'parameter_missing', 'customer.document'],
    ['a CPF whose check digits fail', { customer: { name: 'Maria Silva', document: '529.982.247-26' } }, 'parameter_invalid', 'customer.document'],
    ['a frequency that does not exist', { frequency: 'daily' }, 'parameter_invalid', 'frequency'],
    ['end_date before start_date', { start_date: '2099-06-10', end_date: '2099-06-01' }, 'parameter_invalid', 'end_date'],
    ['a variable amount without first_amount', { amount: null }, 'parameter_missing', 'first_amount'],
  ])('refuses %s in Portuguese with the param, creating nothing', async (_case, overrides, code, param) => {
    const before = await api('GET', '/v1/subscriptions?limit=100');
    const refused = await api('POST', '/v1/subscriptions', { body: subscriptionBody(overrides), idempotencyKey: randomUUID() });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
    expect(refused.body.error.message).toMatch(/[ãçéêóú]|Informe|O campo/);
    const after = await api('GET', '/v1/subscriptions?limit=100');
    expect(after.body.data[0]?.id).toBe(before.body.data[0]?.id);
  });

  it('simulate approves it: active, approval gone, shown by get and by the status filter; cancel stops it', async () => {
    const subscription = await createSubscription();
    const active = await api('POST', `/v1/subscriptions/${subscription.id}/simulate`);
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ id: subscription.id, status: 'active', approval: null });
    // Only a pending subscription can be approved.
    const twice = await api('POST', `/v1/subscriptions/${subscription.id}/simulate`);
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({ param: 'id', message: expect.stringContaining('pendente') });

    const read = await api('GET', `/v1/subscriptions/${subscription.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: subscription.id, status: 'active', approval: null, payments: expect.any(Array) });

    const activeList = await api('GET', '/v1/subscriptions?status=active&limit=100');
    expect(activeList.status).toBe(200);
    expect(activeList.body.data.map((s: { id: string }) => s.id)).toContain(subscription.id);
    expect(activeList.body.data.every((s: { status: string }) => s.status === 'active')).toBe(true);
    const pendingList = await api('GET', '/v1/subscriptions?status=pending&limit=100');
    expect(pendingList.body.data.map((s: { id: string }) => s.id)).not.toContain(subscription.id);

    const canceled = await api('POST', `/v1/subscriptions/${subscription.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id: subscription.id, status: 'canceled', approval: null });
    // Canceling a canceled subscription answers it as it is.
    const again = await api('POST', `/v1/subscriptions/${subscription.id}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: subscription.id, status: 'canceled' });
    expect((await api('GET', `/v1/subscriptions/${subscription.id}`)).body.status).toBe('canceled');
  });

  it('pages the list with limit, starting_after and has_more', async () => {
    const first = await createSubscription();
    const second = await createSubscription();
    const page = await api('GET', '/v1/subscriptions?limit=1');
    expect(page.body).toMatchObject({ object: 'list', has_more: true, data: [{ id: second.id }] });
    const next = await api('GET', `/v1/subscriptions?limit=1&starting_after=${second.id}`);
    expect(next.body.data[0].id).toBe(first.id);
  });
});

describe('subscription access', () => {
  it('keeps test and live apart, refuses simulate in live mode, and hides them from another merchant', async () => {
    const test = await createSubscription();
    const live = await createSubscription({}, stackInfo().liveKey);
    expect(live).toMatchObject({ mode: 'live', provider_account_id: stackInfo().liveProviderAccountId });
    expect((await api('GET', `/v1/subscriptions/${live.id}`)).status).toBe(404);
    expect((await api('GET', `/v1/subscriptions/${test.id}`, { key: stackInfo().liveKey })).status).toBe(404);
    const liveList = await api('GET', '/v1/subscriptions?limit=100', { key: stackInfo().liveKey });
    expect(liveList.body.data.every((s: { mode: string }) => s.mode === 'live')).toBe(true);

    const simulated = await api('POST', `/v1/subscriptions/${live.id}/simulate`, { key: stackInfo().liveKey });
    expect(simulated.status).toBe(403);
    expect(simulated.body.error.code).toBe('live_mode_forbidden');

    const otherMerchant = stackInfo().providersMerchant.testKey;
    for (const [method, path] of [
      ['GET', `/v1/subscriptions/${test.id}`],
      ['POST', `/v1/subscriptions/${test.id}/cancel`],
      ['POST', `/v1/subscriptions/${test.id}/simulate`],
    ] as const) {
      const hidden = await api(method, path, { key: otherMerchant });
      expect(hidden.status).toBe(404);
      expect(hidden.body.error).toMatchObject({ code: 'not_found', param: 'id' });
    }
    const theirs = await api('GET', '/v1/subscriptions?limit=100', { key: otherMerchant });
    expect(theirs.body.data.map((s: { id: string }) => s.id)).not.toContain(test.id);
    expect((await api('GET', `/v1/subscriptions/${test.id}`)).body.status).toBe('pending');
  });

  it('lets a restricted key create and read its own, not cancel or simulate', async () => {
    const restricted = stackInfo().restrictedTestKey;
    const own = await createSubscription({}, restricted);
    const other = await createSubscription();
    expect((await api('GET', `/v1/subscriptions/${own.id}`, { key: restricted })).status).toBe(200);
    expect((await api('GET', `/v1/subscriptions/${other.id}`, { key: restricted })).status).toBe(404);
    const list = await api('GET', '/v1/subscriptions?limit=100', { key: restricted });
    const ids = list.body.data.map((s: { id: string }) => s.id);
    expect(ids).toContain(own.id);
    expect(ids).not.toContain(other.id);
    for (const action of ['cancel', 'simulate']) {
      const denied = await api('POST', `/v1/subscriptions/${own.id}/${action}`, { key: restricted });
      expect(denied.status).toBe(403);
      expect(denied.body.error).toMatchObject({ type: 'permission_error', code: 'restricted_key' });
    }
  });
});
