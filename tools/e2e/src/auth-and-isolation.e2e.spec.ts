import { api, createPix, eventually } from './support/api';
import { stackInfo } from './support/stack-info';

describe('authentication', () => {
  it('answers 401 with the spec error body without a key or with an unknown one', async () => {
    for (const key of [null, 'svc_test_' + 'x'.repeat(32), 'not-a-key']) {
      const response = await api('GET', '/v1/payments', { key });
      expect(response.status).toBe(401);
      expect(response.body.error).toMatchObject({ type: 'authentication_error', code: 'unauthenticated' });
      expect(response.body.error.message).toMatch(/Authorization: Bearer/);
    }
  });
});

describe('restricted keys', () => {
  it('create payments and read only their own', async () => {
    const restricted = stackInfo().restrictedTestKey;
    const own = await createPix({}, restricted);
    const other = await createPix();
    expect((await api('GET', `/v1/payments/${own.id}`, { key: restricted })).status).toBe(200);
    const hidden = await api('GET', `/v1/payments/${other.id}`, { key: restricted });
    expect(hidden.status).toBe(404);
    const list = await api('GET', '/v1/payments?limit=100', { key: restricted });
    expect(list.status).toBe(200);
    const ids = list.body.data.map((p: { id: string }) => p.id);
    expect(ids).toContain(own.id);
    expect(ids).not.toContain(other.id);
  });

  it('get 403 restricted_key everywhere else', async () => {
    const restricted = stackInfo().restrictedTestKey;
    const own = await createPix({}, restricted);
    for (const [method, path] of [
      ['POST', `/v1/payments/${own.id}/cancel`],
      ['POST', `/v1/payments/${own.id}/simulate`],
      ['POST', `/v1/payments/${own.id}/refund`],
      ['GET', '/v1/customers'],
      ['GET', '/v1/webhook-endpoints'],
      ['POST', '/v1/webhook-endpoints'],
      ['GET', '/v1/provider-accounts'],
    ] as const) {
      const response = await api(method, path, { key: restricted });
      expect(response.status).toBe(403);
      expect(response.body.error).toMatchObject({ type: 'permission_error', code: 'restricted_key' });
    }
    // The event log is readable, but only the events of the key's own payments (issue 5).
    const other = await createPix();
    const seen = await eventually(async () => {
      const events = await api('GET', `/v1/events?limit=100&type=payment.created&created[gte]=${Math.floor(Date.now() / 1000) - 120}`, { key: restricted });
      expect(events.status).toBe(200);
      const ids = events.body.data.map((e: { data: { object: { id: string } } }) => e.data.object.id);
      return ids.includes(own.id) ? ids : undefined;
    }, 'the restricted key seeing its own payment.created');
    const everything = await eventually(async () => {
      const events = await api('GET', `/v1/events?limit=100&type=payment.created&created[gte]=${Math.floor(Date.now() / 1000) - 120}`);
      const ids = events.body.data.map((e: { data: { object: { id: string } } }) => e.data.object.id);
      return ids.includes(other.id) ? ids : undefined;
    }, 'the full key seeing the other payment.created');
    expect(everything).toContain(own.id);
    expect(seen).not.toContain(other.id);
  });
});

describe('test and live isolation', () => {
  it('never shows test data to live keys or live data to test keys', async () => {
    const testPayment = await createPix();
    const livePayment = await createPix({}, stackInfo().liveKey);
    expect(livePayment.mode).toBe('live');
    expect(livePayment.provider_account_id).toBe(stackInfo().liveProviderAccountId);
    expect((await api('GET', `/v1/payments/${testPayment.id}`, { key: stackInfo().liveKey })).status).toBe(404);
    expect((await api('GET', `/v1/payments/${livePayment.id}`)).status).toBe(404);
    const liveList = await api('GET', '/v1/payments?limit=100', { key: stackInfo().liveKey });
    expect(liveList.body.data.every((p: { mode: string }) => p.mode === 'live')).toBe(true);
    const testList = await api('GET', '/v1/payments?limit=100');
    expect(testList.body.data.map((p: { id: string }) => p.id)).not.toContain(livePayment.id);
  });

  it('refuses simulate in live mode', async () => {
    const livePayment = await createPix({}, stackInfo().liveKey);
    const response = await api('POST', `/v1/payments/${livePayment.id}/simulate`, { key: stackInfo().liveKey });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('live_mode_forbidden');
    expect((await api('GET', `/v1/payments/${livePayment.id}`, { key: stackInfo().liveKey })).body.status).toBe('pending');
  });
});
