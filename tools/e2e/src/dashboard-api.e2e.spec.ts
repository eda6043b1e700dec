import { randomUUID } from 'node:crypto';
import { api, eventually, pixPayment } from './support/api';
import { stackInfo } from './support/stack-info';

/**
 * The owner's dashboard API over HTTP through the running stack (gateway /dashboard/api, accounts'
 * OwnersService, the bus signal of a revoked key): sign-up and sign-in with cookies and CSRF as a
 * browser sends them, a restricted key made in the dashboard used on /v1 and revoked (401 at
 * once), payouts by API turned off and on by the owner, the audit log. The Chromium suite drives
 * the same API through the pages.
 */
type Json = Record<string, any>;

/** A browser's cookie jar for the stack's origin, and the CSRF token GET /me hands out. */
class OwnerBrowser {
  private readonly jar = new Map<string, string>();
  csrf = '';

  async call(method: string, path: string, options: { body?: unknown; headers?: Record<string, string>; csrf?: boolean } = {}): Promise<{ status: number; body: Json; headers: Headers }> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (this.jar.size > 0) headers.cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.csrf !== false && this.csrf && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    const response = await fetch(`${stackInfo().baseUrl}/dashboard/api${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      if (value === '' || /Expires=Thu, 01 Jan 1970/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Json) : {}, headers: response.headers };
  }

  async signIn(email: string, password: string): Promise<Json> {
    const answer = await this.call('POST', '/session', { body: { email, password } });
    expect(answer.status).toBe(200);
    await this.loadCsrf();
    return answer.body;
  }

  async loadCsrf(): Promise<Json> {
    const me = await this.call('GET', '/me');
    expect(me.status).toBe(200);
    this.csrf = me.body.csrf_token as string;
    return me.body;
  }

  hasSession(): boolean {
    return this.jar.has('orq_session');
  }
}

/** The seeded owner signed in once for the whole suite: its sign-ins count against a per-e-mail limit other suites share. */
let seededOwner: OwnerBrowser;
beforeAll(async () => {
  seededOwner = new OwnerBrowser();
  await seededOwner.signIn(stackInfo().owner.email, stackInfo().owner.password);
});

const email = (label: string) => `dono-${label}-${randomUUID().slice(0, 8)}@loja-e2e.com.br`;

describe('dashboard API (owner session)', () => {
  it('signs a merchant up with its owner, signs out and in again, and out everywhere', async () => {
    const browser = new OwnerBrowser();
    const address = email('signup');
    const up = await browser.call('POST', '/signup', { body: { merchant_name: 'Padaria do Zé', email: address, password: 'pao-de-queijo-42' } });
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ owner: { email: address, totp_enabled: false }, merchant: { id: expect.stringMatching(/^acct_/), name: 'Padaria do Zé' } });
    const cookie = up.headers.getSetCookie().find((line) => line.startsWith('orq_session=')) ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const me = await browser.loadCsrf();
    expect(me).toMatchObject({ owner: { email: address }, merchant: { name: 'Padaria do Zé' }, csrf_token: expect.any(String) });

    // The same e-mail again: refused in Portuguese, with param.
    const twice = await new OwnerBrowser().call('POST', '/signup', { body: { merchant_name: 'Outra', email: address.toUpperCase(), password: 'pao-de-queijo-42' } });
    expect(twice.status).toBe(400);
    expect(twice.body.error).toMatchObject({ code: 'parameter_invalid', param: 'email', message: expect.stringContaining('Já existe') });

    expect((await browser.call('DELETE', '/session')).status).toBe(204);
    expect(browser.hasSession()).toBe(false);
    expect((await browser.call('GET', '/me')).status).toBe(401);

    const wrong = await browser.call('POST', '/session', { body: { email: address, password: 'errada-errada' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatchObject({ code: 'invalid_credentials', type: 'authentication_error' });
    await browser.signIn(address, 'pao-de-queijo-42');
    const other = new OwnerBrowser();
    await other.signIn(address, 'pao-de-queijo-42');
    expect((await browser.call('POST', '/sessions/revoke-all')).status).toBe(204);
    expect((await other.call('GET', '/me')).status).toBe(401);
    expect((await browser.call('GET', '/me')).status).toBe(401);
  });

  it('rate-limits sign-in attempts per e-mail: 429 with Retry-After once the limit is used', async () => {
    const address = email('guess');
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    const limit = stackInfo().signInMaxPerEmail;
    for (let i = 0; i <= limit; i++) {
      const answer = await new OwnerBrowser().call('POST', '/session', { body: { email: address, password: `chute-${i}-xxxx` } });
      statuses.push(answer.status);
      if (answer.status === 429) {
        retryAfter = answer.headers.get('retry-after');
        expect(answer.body.error).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
      }
    }
    expect(statuses).toEqual([...Array(limit).fill(401), 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it('never accepts an API key, and refuses a mutation without the CSRF token (403)', async () => {
    const withKey = await api('GET', '/dashboard/api/me');
    expect(withKey.status).toBe(401);
    expect(withKey.body.error).toMatchObject({ code: 'unauthenticated', param: 'Authorization' });
    expect((await api('GET', '/dashboard/api/v1/payments')).status).toBe(401);

    const browser = seededOwner;
    const noToken = await browser.call('POST', '/keys', { body: { name: 'sem csrf', mode: 'test', restricted: true }, csrf: false });
    expect(noToken.status).toBe(403);
    expect(noToken.body.error).toMatchObject({ code: 'csrf_invalid' });
    const keys = await browser.call('GET', '/keys?mode=test');
    expect((keys.body.data as Json[]).some((key) => key.name === 'sem csrf')).toBe(false);
  });

  it('creates a restricted test key that works on /v1 as restricted, and revoked it fails at once (401)', async () => {
    const browser = seededOwner;
    const made = await browser.call('POST', '/keys', { body: { name: 'bot de vendas e2e', mode: 'test', restricted: true } });
    expect(made.status).toBe(201);
    const secret = made.body.secret as string;
    expect(secret).toMatch(/^svc_test_/);
    expect(made.body.key).toMatchObject({ name: 'bot de vendas e2e', mode: 'test', restricted: true, last4: secret.slice(-4), created_by: stackInfo().owner.email, last_used_at: null, revoked_at: null });

    const payment = await api('POST', '/v1/payments', { key: secret, body: pixPayment(), idempotencyKey: randomUUID() });
    expect(payment.status).toBe(201);
    expect((await api('GET', `/v1/payments/${payment.body.id}`, { key: secret })).status).toBe(200);
    const denied = await api('GET', '/v1/customers', { key: secret });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('restricted_key');

    // The dashboard lists it with its last use, and reads the payment it made through /dashboard/api/v1.
    const listed = await eventually(async () => {
      const keys = (await browser.call('GET', '/keys?mode=test')).body.data as Json[];
      const key = keys.find((k) => k.id === made.body.key.id);
      return key?.last_used_at ? key : undefined;
    }, 'last use recorded');
    expect(JSON.stringify(listed)).not.toContain(secret);
    const bridged = await browser.call('GET', `/v1/payments/${payment.body.id}`);
    expect(bridged.status).toBe(200);
    expect(bridged.body.id).toBe(payment.body.id);

    const revoked = await browser.call('DELETE', `/keys/${made.body.key.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.key.revoked_at).toEqual(expect.any(String));
    const after = await api('GET', `/v1/payments/${payment.body.id}`, { key: secret });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('unauthenticated');
    expect((await api('POST', '/v1/payments', { key: secret, body: pixPayment(), idempotencyKey: randomUUID() })).status).toBe(401);

    const audit = await browser.call('GET', '/audit?limit=20');
    const actions = (audit.body.data as Json[]).map((entry) => `${entry.action} ${entry.target}`);
    expect(actions).toEqual(expect.arrayContaining([`api_key.created ${made.body.key.id}`, `api_key.revoked ${made.body.key.id}`]));
    expect((audit.body.data as Json[]).find((entry) => entry.action === 'api_key.revoked')).toMatchObject({ actor: stackInfo().owner.email, mode: 'test', ip: expect.any(String) });
  });

  it('turns payouts by API off and on from the dashboard: off → 403 payouts_api_disabled, on → the payout is made', async () => {
    const browser = seededOwner;
    const credited = await fetch(`${stackInfo().efiControlUrl}/__control/balance/credit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: stackInfo().emulatorClientId, amount: 100_000 }),
    });
    expect(credited.status).toBeLessThan(300);
    const payout = () =>
      api('POST', '/v1/payouts', {
        idempotencyKey: randomUUID(),
        body: { provider_account_id: stackInfo().testProviderAccountId, amount: 1_000, destination: { type: 'pix_key', destination_id: stackInfo().payoutDestinationId }, description: 'Retirada pelo painel' },
      });
    try {
      const off = await browser.call('PATCH', '/payout-settings?mode=test', { body: { payouts_api_enabled: false } });
      expect(off.status).toBe(200);
      expect(off.body.payouts_api_enabled).toBe(false);
      const refused = await payout();
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('payouts_api_disabled');

      const on = await browser.call('PATCH', '/payout-settings?mode=test', { body: { payouts_api_enabled: true, daily_limit: 100_000_000 } });
      expect(on.body).toMatchObject({ payouts_api_enabled: true, daily_limit: 100_000_000 });
      expect((await browser.call('GET', '/payout-settings?mode=live')).body.payouts_api_enabled).toBe(false);
      const made = await payout();
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ object: 'payout', amount: 1_000, provider: 'efi' });

      const destinations = await browser.call('GET', '/payout-destinations?mode=test');
      expect((destinations.body.data as Json[]).map((d) => d.id)).toContain(stackInfo().payoutDestinationId);
      const badKey = await browser.call('POST', '/payout-destinations?mode=test', { body: { pix_key_type: 'cpf', pix_key: '123.456.789-00', name: 'Sócio' } });
      expect(badKey.status).toBe(400);
      expect(badKey.body.error).toMatchObject({ code: 'parameter_invalid', param: 'pix_key' });

      const audit = (await browser.call('GET', '/audit?limit=50')).body.data as Json[];
      expect(audit.filter((entry) => entry.action === 'payout_settings.updated').map((entry) => entry.target)).toEqual(
        expect.arrayContaining(['payouts_api_enabled=false', 'payouts_api_enabled=true daily_limit=100000000']),
      );
    } finally {
      // The seeded state the other suites start from: payouts on in test mode.
      await browser.call('PATCH', '/payout-settings?mode=test', { body: { payouts_api_enabled: true } });
    }
  });

  it('runs /v1 through /dashboard/api/v1 as the owner, and audits the mutation', async () => {
    const browser = seededOwner;
    const signedIn = await browser.loadCsrf();
    const created = await browser.call('POST', '/v1/payments', { body: pixPayment(), headers: { 'idempotency-key': randomUUID() } });
    expect(created.status).toBe(201);
    const events = await eventually(async () => {
      const list = await api('GET', `/v1/events?resource_id=${created.body.id}`);
      return (list.body.data as Json[]).length > 0 ? (list.body.data as Json[]) : undefined;
    }, 'the payment event');
    expect(JSON.stringify(events)).toContain(created.body.id);
    // Recorded once the call is answered.
    const entry = await eventually(async () => {
      const audit = (await browser.call('GET', '/audit?limit=20')).body.data as Json[];
      return audit.find((e) => e.action === 'api.request' && e.target === 'POST /v1/payments → 201');
    }, 'the audit entry');
    expect(entry).toMatchObject({ actor: stackInfo().owner.email, mode: 'test' });
    expect(signedIn.owner.id).toMatch(/^own_/);
  });
});
