import { accounts, common, owners } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import { eventuallyExpect } from '@orquestra/platform/testing';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { TEST_KEY } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const TOKEN = 'T'.repeat(43);
const OWNER = { id: 'own_1', email: 'dono@loja.com', merchant_id: 'acct_1', totp_enabled: false, created_at: '2026-11-28T10:00:00.000Z' };
const MERCHANT = { id: 'acct_1', name: 'Loja', email: 'dono@loja.com', created_at: '2026-11-28T10:00:00.000Z' };

function withOwner(clients: FakeClients): FakeClients {
  clients.owners.authenticateSession = jest.fn(async ({ token }) => {
    if (token !== TOKEN) throw new AppError('unauthenticated');
    return { owner: OWNER, merchant: MERCHANT, session_id: 'a'.repeat(64), expires_at: '2026-11-28T22:00:00.000Z' };
  });
  clients.owners.recordAudit = jest.fn(async () => ({}));
  return clients;
}

const cookieOf = (headers: Headers, name: string): string | undefined =>
  headers.getSetCookie().map((line) => line.split(';')[0]!).find((pair) => pair.startsWith(`${name}=`));

describe('/dashboard/api', () => {
  let clients: FakeClients;
  let app: RunningApp;
  const session = { cookie: `orq_session=${TOKEN}` };

  async function csrf(): Promise<{ token: string; cookie: string }> {
    const me = await app.request('GET', '/dashboard/api/me', { headers: session });
    expect(me.status).toBe(200);
    return { token: me.json.csrf_token as string, cookie: `${session.cookie}; ${cookieOf(me.headers, 'orq_csrf')}` };
  }

  beforeEach(async () => {
    clients = withOwner(fakeClients());
    app = await startApp({ clients });
  });
  afterEach(() => app.close());

  it('signs in and sets the session cookie: HttpOnly, SameSite=Lax, Path=/, not Secure on plain http localhost', async () => {
    clients.owners.signIn = jest.fn(async () => ({
      outcome: owners.SignInOutcome.SIGN_IN_OUTCOME_SIGNED_IN,
      retry_after_seconds: 0,
      owner: OWNER,
      merchant: MERCHANT,
      session: { token: TOKEN, expires_at: '2026-11-28T22:00:00.000Z' },
    }));
    const answer = await app.request('POST', '/dashboard/api/session', { body: { email: 'dono@loja.com', password: 'senha-boa-123' } });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ owner: { id: 'own_1', email: 'dono@loja.com', totp_enabled: false }, merchant: { id: 'acct_1', name: 'Loja' } });
    const line = answer.headers.getSetCookie().find((l) => l.startsWith('orq_session='))!;
    expect(line).toContain(`orq_session=${TOKEN}`);
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
    expect(line).toMatch(/Path=\//);
    expect(line).not.toMatch(/Secure/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(clients.owners.signIn).toHaveBeenCalledWith(expect.objectContaining({ ip: '127.0.0.1' }), expect.anything());
  });

  it('marks the cookie Secure when the request is not plain http on localhost', async () => {
    clients.owners.signIn = jest.fn(async () => ({ outcome: owners.SignInOutcome.SIGN_IN_OUTCOME_SIGNED_IN, retry_after_seconds: 0, owner: OWNER, merchant: MERCHANT, session: { token: TOKEN, expires_at: '2026-11-28T22:00:00.000Z' } }));
    const answer = await app.request('POST', '/dashboard/api/session', { headers: { 'x-forwarded-proto': 'https' }, body: { email: 'dono@loja.com', password: 'senha-boa-123' } });
    expect(answer.headers.getSetCookie().find((l) => l.startsWith('orq_session='))).toMatch(/Secure/);
  });

  it('answers sign-in refusals: 401 invalid_credentials, 401 totp_required with param, 429 with Retry-After', async () => {
    const outcomes = [
      [owners.SignInOutcome.SIGN_IN_OUTCOME_INVALID_CREDENTIALS, 401, 'invalid_credentials', 'email'],
      [owners.SignInOutcome.SIGN_IN_OUTCOME_TOTP_REQUIRED, 401, 'totp_required', 'totp_code'],
      [owners.SignInOutcome.SIGN_IN_OUTCOME_RATE_LIMITED, 429, 'rate_limited', null],
    ] as const;
    for (const [outcome, status, code, param] of outcomes) {
      clients.owners.signIn = jest.fn(async () => ({ outcome, retry_after_seconds: outcome === owners.SignInOutcome.SIGN_IN_OUTCOME_RATE_LIMITED ? 420 : 0 }));
      const answer = await app.request('POST', '/dashboard/api/session', { body: { email: 'dono@loja.com', password: 'x' } });
      expect(answer.status).toBe(status);
      expect(answer.json.error).toMatchObject({ code, param });
      expect(answer.headers.getSetCookie()).toEqual([]);
      if (status === 429) expect(answer.headers.get('retry-after')).toBe('420');
    }
  });

  it('answers a rate-limited sign-up 429 with the Retry-After accounts gave, and a store pause 503 with its own', async () => {
    clients.owners.signUp = jest.fn(async () => {
      throw new AppError('rate_limited', { message: 'Muitas tentativas a partir deste endereço. Aguarde 14 minuto(s) e tente novamente.', retryAfterSeconds: 840 });
    });
    const body = { merchant_name: 'Loja', email: 'dono@loja.com', password: 'uma senha longa e boa' };
    const limited = await app.request('POST', '/dashboard/api/signup', { body });
    expect(limited.status).toBe(429);
    expect(limited.json.error).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
    expect(limited.headers.get('retry-after')).toBe('840');
    clients.owners.signUp = jest.fn(async () => {
      throw new AppError('service_unavailable', { retryAfterSeconds: 1 });
    });
    const paused = await app.request('POST', '/dashboard/api/signup', { body });
    expect(paused.status).toBe(503);
    expect(paused.headers.get('retry-after')).toBe('1');
    clients.owners.signUp = jest.fn(async () => {
      throw new AppError('service_unavailable');
    });
    expect((await app.request('POST', '/dashboard/api/signup', { body })).headers.get('retry-after')).toBeNull();
  });

  it('refuses bad bodies in Portuguese with param, never a 500', async () => {
    for (const body of ['{', '[]', '{"email": 3, "password": "x"}', '{"email":"a@b.c"}', '{"email":"a@b.c","password":"x","extra":1}']) {
      const answer = await app.request('POST', '/dashboard/api/session', { headers: { 'content-type': 'application/json' }, body });
      expect(answer.status).toBe(400);
      expect(answer.json.error.message).toMatch(/[a-zà-ú]/);
    }
    const signup = await app.request('POST', '/dashboard/api/signup', { body: { merchant_name: 'Loja', email: 'x@y.com' } });
    expect(signup.json.error).toMatchObject({ code: 'parameter_missing', param: 'password' });
  });

  it('refuses any Authorization header, even a valid API key, on every dashboard route (401)', async () => {
    for (const [method, path] of [['GET', '/dashboard/api/me'], ['GET', '/dashboard/api/v1/payments'], ['POST', '/dashboard/api/session']] as const) {
      const answer = await app.request(method, path, { headers: { authorization: `Bearer ${TEST_KEY}`, ...session } });
      expect(answer.status).toBe(401);
      expect(answer.json.error).toMatchObject({ code: 'unauthenticated', param: 'Authorization' });
    }
  });

  it('needs a live session: none or a dead one → 401', async () => {
    expect((await app.request('GET', '/dashboard/api/me')).status).toBe(401);
    expect((await app.request('GET', '/dashboard/api/keys', { headers: { cookie: `orq_session=${'x'.repeat(43)}` } })).status).toBe(401);
  });

  it('refuses a mutation without the CSRF token, with a wrong one, or with another session’s (403 csrf_invalid)', async () => {
    clients.accounts.createApiKey = jest.fn();
    const body = { name: 'bot', mode: 'test', restricted: true };
    const missing = await app.request('POST', '/dashboard/api/keys', { headers: session, body });
    expect(missing.status).toBe(403);
    expect(missing.json.error).toMatchObject({ code: 'csrf_invalid', param: 'X-CSRF-Token' });
    const { token, cookie } = await csrf();
    expect((await app.request('POST', '/dashboard/api/keys', { headers: { ...session, 'x-csrf-token': token }, body })).status).toBe(403);
    expect((await app.request('POST', '/dashboard/api/keys', { headers: { cookie, 'x-csrf-token': `${token}x` }, body })).status).toBe(403);
    // The same CSRF pair under another session's cookie.
    const other = 'U'.repeat(43);
    clients.owners.authenticateSession = jest.fn(async () => ({ owner: OWNER, merchant: MERCHANT, session_id: 'b'.repeat(64), expires_at: '' }));
    expect((await app.request('POST', '/dashboard/api/keys', { headers: { cookie: cookie.replace(TOKEN, other), 'x-csrf-token': token }, body })).status).toBe(403);
    expect(clients.accounts.createApiKey).not.toHaveBeenCalled();
  });

  it('creates a key as the owner (secret once), lists keys, and revoking drops the key from this replica’s cache', async () => {
    const key: accounts.ApiKey = { id: 'key_1', name: 'bot', mode: common.Mode.MODE_TEST, kind: accounts.KeyKind.KEY_KIND_FULL, last4: '2345', created_by: 'dono@loja.com', created_at: '2026-11-28T10:00:00.000Z' };
    clients.accounts.createApiKey = jest.fn(async () => ({ key_id: 'key_1', secret: TEST_KEY, mode: common.Mode.MODE_TEST, kind: accounts.KeyKind.KEY_KIND_FULL, last4: '2345', key }));
    clients.accounts.listApiKeys = jest.fn(async () => ({ keys: [key] }));
    const { token, cookie } = await csrf();
    const made = await app.request('POST', '/dashboard/api/keys', { headers: { cookie, 'x-csrf-token': token }, body: { name: 'bot', mode: 'test', restricted: false } });
    expect(made.status).toBe(201);
    expect(made.json).toEqual({ secret: TEST_KEY, key: { id: 'key_1', name: 'bot', mode: 'test', restricted: false, last4: '2345', created_by: 'dono@loja.com', created_at: key.created_at, last_used_at: null, revoked_at: null } });
    expect(clients.accounts.createApiKey).toHaveBeenCalledWith(expect.objectContaining({ merchant_id: 'acct_1', actor: { owner_id: 'own_1', email: 'dono@loja.com', ip: '127.0.0.1' } }), expect.anything());
    expect((await app.request('GET', '/dashboard/api/keys?mode=test', { headers: session })).json.data).toHaveLength(1);
    expect((await app.request('GET', '/dashboard/api/keys?mode=prod', { headers: session })).json.error).toMatchObject({ code: 'parameter_invalid', param: 'mode' });

    // The key works on /v1 (and is cached), then is revoked here: the next /v1 call asks accounts again.
    let revoked = false;
    const authenticateKey = clients.accounts.authenticateKey;
    clients.accounts.authenticateKey = jest.fn(async (request, options) => {
      if (revoked) throw new AppError('unauthenticated');
      return authenticateKey(request, options);
    });
    clients.payments.listPayments = jest.fn(async () => ({ data: [], has_more: false }));
    expect((await app.request('GET', '/v1/payments', { headers: { authorization: `Bearer ${TEST_KEY}` } })).status).toBe(200);
    expect((await app.request('GET', '/v1/payments', { headers: { authorization: `Bearer ${TEST_KEY}` } })).status).toBe(200);
    expect(clients.accounts.authenticateKey).toHaveBeenCalledTimes(1);
    clients.accounts.revokeApiKey = jest.fn(async () => {
      revoked = true;
      return { key_id: 'key_full', revoked_at: '2026-11-28T11:00:00.000Z', key: { ...key, id: 'key_full', revoked_at: '2026-11-28T11:00:00.000Z' } };
    });
    const gone = await app.request('DELETE', '/dashboard/api/keys/key_full', { headers: { cookie, 'x-csrf-token': token } });
    expect(gone.status).toBe(200);
    expect(gone.json.key.revoked_at).toBe('2026-11-28T11:00:00.000Z');
    expect((await app.request('GET', '/v1/payments', { headers: { authorization: `Bearer ${TEST_KEY}` } })).status).toBe(401);
    expect((await app.request('DELETE', '/dashboard/api/keys/nope', { headers: { cookie, 'x-csrf-token': token } })).json.error).toMatchObject({ param: 'id' });
  });

  it('runs /v1 routes for the owner as a full key of the chosen mode, and audits mutations', async () => {
    clients.payments.listPayments = jest.fn(async () => ({ data: [], has_more: false }));
    const listed = await app.request('GET', '/dashboard/api/v1/payments?mode=live', { headers: session });
    expect(listed.status).toBe(200);
    expect(clients.payments.listPayments).toHaveBeenCalledWith(
      expect.objectContaining({ caller: expect.objectContaining({ merchant_id: 'acct_1', mode: common.Mode.MODE_LIVE, key_id: 'owner:own_1', restricted: false }) }),
      expect.anything(),
    );
    const { token, cookie } = await csrf();
    expect((await app.request('POST', '/dashboard/api/v1/payments', { headers: session, body: {} })).status).toBe(403);
    const invalid = await app.request('POST', '/dashboard/api/v1/payments', { headers: { cookie, 'x-csrf-token': token }, body: { method: 'pix' } });
    expect(invalid.status).toBe(400);
    // Audited once the answer is finished, in the background.
    await eventuallyExpect(() =>
      expect(clients.owners.recordAudit).toHaveBeenCalledWith(
        expect.objectContaining({ merchant_id: 'acct_1', action: 'api.request', target: 'POST /v1/payments → 400', mode: common.Mode.MODE_TEST, actor: expect.objectContaining({ email: 'dono@loja.com' }) }),
        expect.anything(),
      ),
    10_000);
  }, 30_000);

  it('takes the mode from X-Orquestra-Mode too, keeps the other query parameters, and refuses an unknown mode', async () => {
    clients.payments.listPayments = jest.fn(async () => ({ data: [], has_more: false }));
    expect((await app.request('GET', '/dashboard/api/v1/payments?limit=5&mode=live', { headers: session })).status).toBe(200);
    expect(clients.payments.listPayments).toHaveBeenLastCalledWith(expect.objectContaining({ limit: 5, caller: expect.objectContaining({ mode: common.Mode.MODE_LIVE }) }), expect.anything());
    expect((await app.request('GET', '/dashboard/api/v1/payments', { headers: { ...session, 'x-orquestra-mode': 'live' } })).status).toBe(200);
    expect(clients.payments.listPayments).toHaveBeenLastCalledWith(expect.objectContaining({ caller: expect.objectContaining({ mode: common.Mode.MODE_LIVE }) }), expect.anything());
    expect((await app.request('GET', '/dashboard/api/v1/payments', { headers: session })).status).toBe(200);
    expect(clients.payments.listPayments).toHaveBeenLastCalledWith(expect.objectContaining({ caller: expect.objectContaining({ mode: common.Mode.MODE_TEST }) }), expect.anything());
    const unknown = await app.request('GET', '/dashboard/api/v1/payments?mode=prod', { headers: session });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatchObject({ code: 'parameter_invalid', param: 'mode' });
  });

  it('sets payout controls with the contract’s names, audits them, and maps accounts’ params back', async () => {
    clients.accounts.setPayoutSettings = jest.fn(async () => ({ settings: { api_enabled: true, daily_limit: 5_000, updated_at: '2026-11-28T10:00:00.000Z' } }));
    clients.accounts.createPayoutDestination = jest.fn(async () => {
      throw new AppError('parameter_invalid', { param: 'key', message: 'CPF inválido.' });
    });
    const { token, cookie } = await csrf();
    const headers = { cookie, 'x-csrf-token': token };
    const set = await app.request('PATCH', '/dashboard/api/payout-settings?mode=test', { headers, body: { payouts_api_enabled: true, daily_limit: 5_000 } });
    expect(set.json).toEqual({ payouts_api_enabled: true, daily_limit: 5_000, updated_at: '2026-11-28T10:00:00.000Z' });
    expect(clients.owners.recordAudit).toHaveBeenCalledWith(expect.objectContaining({ action: 'payout_settings.updated', target: 'payouts_api_enabled=true daily_limit=5000' }), expect.anything());
    expect((await app.request('PATCH', '/dashboard/api/payout-settings', { headers, body: {} })).json.error).toMatchObject({ code: 'parameter_missing' });
    expect((await app.request('PATCH', '/dashboard/api/payout-settings', { headers, body: { daily_limit: 0 } })).json.error).toMatchObject({ param: 'daily_limit' });
    const bad = await app.request('POST', '/dashboard/api/payout-destinations', { headers, body: { pix_key_type: 'cpf', pix_key: '1', name: 'Conta' } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: 'parameter_invalid', param: 'pix_key', message: 'CPF inválido.' });
  });

  it('serves its own OpenAPI document without a session', async () => {
    const doc = await app.request('GET', '/dashboard/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.json.paths)).toContain('/dashboard/api/keys/{id}');
  });
});
