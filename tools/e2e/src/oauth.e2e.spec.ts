import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { owners } from '@orquestra/contracts';
import { createRpcClient } from '@orquestra/platform';
import { chromium, type Browser, type Page } from 'playwright-core';
import { api, pixPayment } from './support/api';
import { stackInfo } from './support/stack-info';

/**
 * An OAuth app of a platform, authorized by the stack's seeded merchant in a real browser (the
 * consent page under /oauth, signed in with the owner's dashboard session), then calling /v1 with
 * its tokens: authorization code + PKCE, refresh with rotation, revocation failing at once, and a
 * restricted grant held to a restricted key's rules.
 */

const ARTIFACTS = path.resolve(__dirname, '../../../.local/e2e-artifacts');
const PASSWORD = 'senha-de-teste-oauth-123';

type Json = Record<string, any>;

/** An owner in the dashboard: the session cookie and the CSRF token, as the dashboard's pages send them. */
class DashboardOwner {
  private readonly jar = new Map<string, string>();
  private csrf = '';

  get session(): string {
    return this.jar.get('orq_session') ?? '';
  }

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const headers: Record<string, string> = {};
    if (this.jar.size > 0) headers.cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    if (this.csrf && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${stackInfo().baseUrl}/dashboard/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (value === '' || /Expires=Thu, 01 Jan 1970/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
  }

  async enter(path: '/signup' | '/session', body: Json): Promise<void> {
    const answer = await this.call('POST', path, body);
    expect(answer.status).toBeLessThan(300);
    const me = await this.call('GET', '/me');
    expect(me.status).toBe(200);
    this.csrf = me.body.csrf_token as string;
  }
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

function pkcePair(): { verifier: string; challenge: string } {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: base64url(createHash('sha256').update(verifier).digest()) };
}

describe('OAuth apps', () => {
  const platformOwner = new DashboardOwner();
  const merchantOwner = new DashboardOwner();
  let browser: Browser;
  let callback: Server;
  let redirectUri: string;
  let clientId: string;
  let clientSecret: string;
  let merchantSession: string;
  const suffix = `${Date.now()}`;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // The app's own redirect endpoint (what a platform's server would be).
    callback = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://localhost:${(callback.address() as AddressInfo).port}/callback`;

    // The platform: a merchant of its own whose owner registers the app in the dashboard.
    await platformOwner.enter('/signup', { merchant_name: 'Plataforma Parceira', email: `plataforma-${suffix}@orquestra.dev`, password: PASSWORD });
    const registered = await platformOwner.call('POST', '/oauth/apps', { name: 'Conector Parceiro', redirect_uris: [redirectUri] });
    expect(registered).toMatchObject({ status: 201, body: { client_id: expect.stringMatching(/^oapp_/), client_secret: expect.stringMatching(/^oas_/) } });
    clientId = registered.body.client_id as string;
    clientSecret = registered.body.client_secret as string;

    // The merchant that authorizes it: the seeded one (it has test accounts), through an owner of
    // this suite's own (the seeded owner's sign-ins are other suites' and rate-limited per e-mail).
    const ownerEmail = `dono-oauth-${suffix}@orquestra.dev`;
    const ownersRpc = createRpcClient(owners.OwnersServiceService, `127.0.0.1:${stackInfo().ports.accounts}`, { deadlineMs: 10_000 });
    try {
      await ownersRpc.createOwner({ merchant_id: stackInfo().merchantId, email: ownerEmail, password: PASSWORD, reset_password: true });
    } finally {
      ownersRpc.close();
    }
    await merchantOwner.enter('/session', { email: ownerEmail, password: PASSWORD });
    merchantSession = merchantOwner.session;

    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  });

  afterAll(async () => {
    await browser?.close();
    callback?.close();
  });

  function authorizeUrl(scope: string, challenge: string | undefined, state: string): string {
    const url = new URL(`${stackInfo().baseUrl}/oauth/auth`);
    url.search = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope,
      state,
      ...(challenge ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
    }).toString();
    return url.toString();
  }

  async function signedInPage(): Promise<Page> {
    const context = await browser.newContext({ locale: 'pt-BR' });
    await context.addCookies([{ name: 'orq_session', value: merchantSession, url: stackInfo().baseUrl, httpOnly: true, sameSite: 'Lax' }]);
    return context.newPage();
  }

  /** Runs the consent page in Chromium and answers the code the app's redirect URI received. */
  async function authorize(
    choice: { mode: 'Teste' | 'Produção'; access: 'Acesso total' | 'Acesso restrito' },
    challenge: string,
    screenshot?: string,
    scope = 'payments:full payments:restricted mode:test',
  ): Promise<string> {
    const page = await signedInPage();
    const state = randomUUID();
    await page.goto(authorizeUrl(scope, challenge, state));
    await page.getByRole('heading', { name: /Conector Parceiro quer acessar/ }).waitFor();
    await page.getByLabel(choice.mode).check();
    await page.getByLabel(choice.access).check();
    if (screenshot) {
      const file = path.join(ARTIFACTS, screenshot);
      await page.screenshot({ path: file, fullPage: true });
      console.log(`OAuth consent page screenshot: ${file}`);
    }
    await Promise.all([page.waitForURL((url) => url.toString().startsWith(redirectUri)), page.getByRole('button', { name: 'Autorizar' }).click()]);
    const landed = new URL(page.url());
    await page.context().close();
    expect(landed.searchParams.get('state')).toBe(state);
    expect(landed.searchParams.get('error')).toBeNull();
    return landed.searchParams.get('code')!;
  }

  async function token(params: Record<string, string>): Promise<{ status: number; body: Record<string, any> }> {
    const response = await fetch(`${stackInfo().baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
      },
      body: new URLSearchParams(params).toString(),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  it('lists the platform\'s app without its secret, and only to its owner', async () => {
    const listed = await platformOwner.call('GET', '/oauth/apps');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: clientId, name: 'Conector Parceiro', redirect_uris: [redirectUri] })]);
    expect(JSON.stringify(listed.body)).not.toContain(clientSecret);
    expect((await merchantOwner.call('GET', '/oauth/apps')).body.data.map((app: Json) => app.id)).not.toContain(clientId);
    // Never with an API key, and never without the CSRF token.
    const byKey = await fetch(`${stackInfo().baseUrl}/dashboard/api/oauth/apps`, { headers: { authorization: `Bearer ${stackInfo().testKey}` } });
    expect(byKey.status).toBe(401);
    const noCsrf = await fetch(`${stackInfo().baseUrl}/dashboard/api/oauth/apps`, {
      method: 'POST',
      headers: { cookie: `orq_session=${platformOwner.session}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'X', redirect_uris: [redirectUri] }),
    });
    expect(noCsrf.status).toBe(403);
    expect((await platformOwner.call('POST', '/oauth/apps', { name: 'Inseguro', redirect_uris: ['http://app.example/cb'] })).status).toBe(400);
  });

  it('publishes its endpoints, and refuses an authorization request without PKCE', async () => {
    const discovery = await fetch(`${stackInfo().baseUrl}/oauth/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    const metadata = (await discovery.json()) as Record<string, any>;
    expect(metadata).toMatchObject({
      issuer: `${stackInfo().baseUrl}/oauth`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: expect.arrayContaining(['authorization_code', 'refresh_token']),
      scopes_supported: expect.arrayContaining(['payments:full', 'payments:restricted', 'mode:test', 'mode:live']),
    });
    const noPkce = await fetch(authorizeUrl('payments:full mode:test', undefined, 's'), { redirect: 'manual' });
    const location = new URL(noPkce.headers.get('location') ?? '', stackInfo().baseUrl);
    expect(location.toString().startsWith(redirectUri)).toBe(true);
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });

  it('asks an owner without a dashboard session to sign in first', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(authorizeUrl('payments:full mode:test', pkcePair().challenge, 's'));
    await page.getByRole('heading', { name: 'Entre no painel para continuar' }).waitFor();
    await context.close();
  });

  it('sends the browser back with access_denied when the merchant refuses', async () => {
    const page = await signedInPage();
    await page.goto(authorizeUrl('payments:full mode:test', pkcePair().challenge, 'refused'));
    await page.getByRole('heading', { name: /Conector Parceiro quer acessar/ }).waitFor();
    await Promise.all([page.waitForURL((url) => url.toString().startsWith(redirectUri)), page.getByRole('button', { name: 'Recusar' }).click()]);
    const landed = new URL(page.url());
    await page.context().close();
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe('refused');
    expect(landed.searchParams.get('code')).toBeNull();
  });

  it('authorizes with code + PKCE, calls /v1, refreshes with rotation, and fails at once when revoked', async () => {
    const { challenge } = pkcePair();
    const code = await authorize({ mode: 'Teste', access: 'Acesso total' }, challenge, 'oauth-consent.png');

    // The code needs its verifier: without it, or with another, no token.
    expect(await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri })).toMatchObject({ status: 400 });
    expect(await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: pkcePair().verifier }))
      .toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    // Whether or not the failures spent the code, a fresh authorization gets a clean one.
    const second = pkcePair();
    const code2 = await authorize({ mode: 'Teste', access: 'Acesso total' }, second.challenge);
    const issued = await token({ grant_type: 'authorization_code', code: code2, redirect_uri: redirectUri, code_verifier: second.verifier });
    expect(issued).toMatchObject({
      status: 200,
      body: { token_type: 'Bearer', expires_in: 600, scope: 'payments:full mode:test', access_token: expect.any(String), refresh_token: expect.any(String) },
    });
    const access = issued.body.access_token as string;

    const created = await api('POST', '/v1/payments', { key: access, body: pixPayment(), idempotencyKey: randomUUID() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'payment', mode: 'test' });
    expect((await api('GET', `/v1/payments/${created.body.id}`, { key: access })).status).toBe(200);
    // Full access reaches full-key routes.
    expect((await api('GET', '/v1/customers', { key: access })).status).toBe(200);

    // Refresh: a new pair; the used refresh token is spent.
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: issued.body.refresh_token });
    expect(refreshed).toMatchObject({ status: 200, body: { access_token: expect.any(String), refresh_token: expect.any(String) } });
    expect(refreshed.body.refresh_token).not.toBe(issued.body.refresh_token);
    const access2 = refreshed.body.access_token as string;
    expect((await api('GET', `/v1/payments/${created.body.id}`, { key: access2 })).status).toBe(200);

    // The merchant sees the app among its authorizations in the dashboard and revokes it: the next call fails.
    const listed = await merchantOwner.call('GET', '/oauth/authorizations');
    expect(listed.status).toBe(200);
    const mine = (listed.body.data as Json[]).filter((grant) => grant.app.id === clientId && grant.access === 'full');
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(mine[0]).toMatchObject({ object: 'oauth_authorization', mode: 'test', app: { name: 'Conector Parceiro' } });
    for (const grant of mine) expect((await merchantOwner.call('DELETE', `/oauth/authorizations/${grant.id}`)).status).toBe(200);
    const revoked = await api('GET', `/v1/payments/${created.body.id}`, { key: access2 });
    expect(revoked).toMatchObject({ status: 401, body: { error: { code: 'unauthenticated' } } });
    expect((await token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token })).body.error).toBe('invalid_grant');
    const audit = await merchantOwner.call('GET', '/audit?limit=20');
    expect((audit.body.data as Json[]).map((entry) => entry.action)).toEqual(expect.arrayContaining(['oauth_authorization.created', 'oauth_authorization.revoked']));
  });

  it('holds a restricted grant to a restricted key\'s rules', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await authorize({ mode: 'Teste', access: 'Acesso restrito' }, challenge);
    const issued = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier });
    expect(issued).toMatchObject({ status: 200, body: { scope: 'payments:restricted mode:test' } });
    const access = issued.body.access_token as string;
    const created = await api('POST', '/v1/payments', { key: access, body: pixPayment(), idempotencyKey: randomUUID() });
    expect(created.status).toBe(201);
    expect((await api('GET', `/v1/payments/${created.body.id}`, { key: access })).status).toBe(200);
    const refused = await api('GET', '/v1/customers', { key: access });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'restricted_key' } } });
    // Like a restricted key, it reads only the payments it created.
    const byOwnerKey = await api('POST', '/v1/payments', { key: stackInfo().testKey, body: pixPayment(), idempotencyKey: randomUUID() });
    expect(byOwnerKey.status).toBe(201);
    expect((await api('GET', `/v1/payments/${byOwnerKey.body.id}`, { key: access })).status).toBe(404);
    expect((await api('POST', `/v1/payments/${created.body.id}/refund`, { key: access, body: {} })).status).toBe(403);
  });

  it('acts in live mode when the merchant grants live', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await authorize({ mode: 'Produção', access: 'Acesso restrito' }, challenge, undefined, 'payments:restricted mode:test mode:live');
    const issued = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier });
    expect(issued).toMatchObject({ status: 200, body: { scope: 'payments:restricted mode:live' } });
    const listed = await api('GET', '/v1/payments?limit=1', { key: issued.body.access_token });
    expect(listed.status).toBe(200);
    const created = await api('POST', '/v1/payments', { key: issued.body.access_token, body: pixPayment(), idempotencyKey: randomUUID() });
    expect(created.body.mode).toBe('live');
  });

  it('uses a code once: a replayed code is refused and revokes the tokens it gave', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await authorize({ mode: 'Teste', access: 'Acesso restrito' }, challenge);
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier };
    const issued = await token(exchange);
    expect(issued.status).toBe(200);
    expect((await api('GET', '/v1/payments?limit=1', { key: issued.body.access_token })).status).toBe(200);
    expect((await token(exchange)).body.error).toBe('invalid_grant');
    expect((await api('GET', '/v1/payments?limit=1', { key: issued.body.access_token })).status).toBe(401);
  });

  it('refuses garbage and unknown bearer values', async () => {
    expect((await api('GET', '/v1/payments', { key: 'not-a-token' })).status).toBe(401);
    expect((await api('GET', '/v1/payments', { key: base64url(randomBytes(32)) })).status).toBe(401);
  });
});
