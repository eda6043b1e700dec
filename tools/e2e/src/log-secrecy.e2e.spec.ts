import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { api, eventually } from './support/api';
import { WebhookReceiver } from './support/webhook-receiver';
import { stackInfo } from './support/stack-info';

/**
 * Secrets never reach the logs: provider credentials (on connect, on a refused connect, and while
 * the providers service uses them), API keys (valid, restricted, live and unknown ones) and card
 * numbers sent in request bodies (rejected fields, malformed JSON), and card numbers and security
 * codes through the vault (card fields tokenize, accepted and refused, a saved card paid at a
 * Stripe account, deleted), and the owner's dashboard secrets (password, session token, CSRF
 * token, TOTP secret, a key made there). The test performs those
 * actions against the running stack, then reads every service's log file and looks for each
 * secret as is and inside base64 (as a Basic auth header or an encoded blob would carry it).
 *
 * The emulators' own logs are left out: they play the provider, which owns those credentials.
 */

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A Luhn-valid card number of `length` digits starting with `prefix`, random in between. */
function luhnNumber(prefix: string, length = 16): string {
  const body = prefix + Array.from(randomBytes(length - prefix.length - 1), (b) => String(b % 10)).join('');
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let digit = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return body + String((10 - (sum % 10)) % 10);
}

/** The Stripe emulator's approving test number, paid from the vault below. */
const PAID_PAN = '4242424242424242';

/** Base64 fragments that appear inside the base64 of any text containing `secret`, whatever its offset. */
function base64Needles(secret: string): string[] {
  return [0, 1, 2].map((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift), Buffer.from(secret)]).toString('base64');
    // Characters touched by the leading filler or by whatever follows the secret differ between
    // contexts: drop the first group when shifted, and the last group always.
    return encoded.slice(shift === 0 ? 0 : 4, -4);
  });
}

async function control(code: 'asaas' | 'pagarme' | 'mercadopago' | 'woovi' | 'stripe' | 'efi', credentials: Record<string, string>): Promise<void> {
  const response = await fetch(`${stackInfo().controlUrls[code]}/__control/${code === 'efi' ? 'clients' : 'accounts'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  expect(response.status).toBeLessThan(300);
}

function serviceLogs(): Array<{ file: string; text: string }> {
  const dir = stackInfo().logDir;
  const files = readdirSync(dir).filter((file) => file.endsWith('.log') && !file.includes('emulator'));
  return files.map((file) => ({ file, text: readFileSync(path.join(dir, file), 'utf8') }));
}

const ROOT = path.resolve(__dirname, '../../..');

describe('secrets never appear in the logs', () => {
  const secrets: Record<string, string> = {};
  const tokens: string[] = [];
  const receiver = new WebhookReceiver();
  afterAll(async () => {
    await receiver.stop();
  });
  const PAN = '5555341244441115';
  const PAN_SPACED = '5555 3412 4444 1115';

  beforeAll(async () => {
    const key = stackInfo().providersMerchant.testKey;

    // Provider credentials: connected, refused, and then used to create and read a charge.
    const asaas = { api_key: `$aact_hmlg_LOGSECRET${hex(16)}` };
    const pagarme = { secret_key: `sk_test_LOGSECRET${hex(16)}` };
    const mercadopago = { access_token: `TEST-LOGSECRET${hex(16)}`, webhook_secret: `LOGSECRETWH${hex(16)}` };
    const refused = { api_key: `$aact_hmlg_LOGSECRETREFUSED${hex(16)}` };
    Object.assign(secrets, {
      'asaas api_key': asaas.api_key,
      'pagarme secret_key': pagarme.secret_key,
      'mercadopago access_token': mercadopago.access_token,
      'mercadopago webhook_secret': mercadopago.webhook_secret,
      'refused asaas api_key': refused.api_key,
    });
    await control('asaas', asaas);
    await control('pagarme', pagarme);
    await control('mercadopago', mercadopago);
    const refusedAnswer = await api('POST', '/v1/provider-accounts', { key, body: { provider: 'asaas', credentials: refused, priority: 900 } });
    expect(refusedAnswer.status).toBe(400);
    for (const [provider, credentials] of [['asaas', asaas], ['pagarme', pagarme], ['mercadopago', mercadopago]] as const) {
      const connected = await api('POST', '/v1/provider-accounts', {
        key,
        body: { provider, name: `${provider} log-secrecy`, credentials, priority: 900 },
      });
      expect(connected.status).toBe(201);
      const payment = await api('POST', '/v1/payments', {
        key,
        idempotencyKey: randomUUID(),
        body: {
          method: 'pix',
          amount: 1234,
          provider_account_id: connected.body.id,
          customer: { name: 'Maria Silva', email: 'maria@example.com', document: '529.982.247-25', phone: '+5511987654321' },
        },
      });
      expect(payment.status).toBe(201);
      expect((await api('POST', `/v1/payments/${payment.body.id}/sync`, { key })).status).toBe(200);
      expect((await api('POST', `/v1/payments/${payment.body.id}/cancel`, { key })).status).toBe(200);
      // Out of the routing of later payments of this merchant.
      expect((await api('POST', `/v1/provider-accounts/${connected.body.id}/disable`, { key })).status).toBe(200);
    }

    // Woovi (AppID), Stripe (secret key, a card charge) and Efí (client secret and the mTLS
    // client certificate's private key), connected and used the same way.
    const woovi = { app_id: `LOGSECRETWOOVI${hex(16)}` };
    const stripe = { secret_key: `sk_test_LOGSECRET${hex(16)}` };
    const efiClient = { client_id: `Client_Id_LOGSECRET${hex(6)}`, client_secret: `Client_Secret_LOGSECRET${hex(16)}`, chave: `${hex(4)}@logsecret.example` };
    const certificate = ['client.pem', 'client.key'].map((file) => readFileSync(path.join(ROOT, '.local/certs', file), 'utf8')).join('\n');
    const privateKeyBody = /-----BEGIN [A-Z ]*PRIVATE KEY-----\s*([A-Za-z0-9+/=\s]+?)-----END/.exec(certificate)?.[1]?.replace(/\s+/g, '') ?? '';
    expect(privateKeyBody.length).toBeGreaterThan(100);
    Object.assign(secrets, {
      'woovi app_id': woovi.app_id,
      'stripe secret_key': stripe.secret_key,
      'efi client_secret': efiClient.client_secret,
      // 64 characters from the middle of the private key: enough to be unique, and what a log line
      // holding the PEM (wrapped or not) would contain.
      'efi certificate private key': privateKeyBody.slice(64, 128),
    });
    await control('woovi', woovi);
    await control('stripe', stripe);
    await control('efi', efiClient);
    const others = [
      ['woovi', woovi, { method: 'pix' }],
      ['stripe', stripe, { method: 'card', card: { token: 'pm_card_visa' } }],
      ['efi', { client_id: efiClient.client_id, client_secret: efiClient.client_secret, certificate, pix_key: efiClient.chave }, { method: 'pix' }],
    ] as const;
    for (const [provider, credentials, payment] of others) {
      const connected = await api('POST', '/v1/provider-accounts', { key, body: { provider, name: `${provider} log-secrecy`, credentials, priority: 900 } });
      expect([provider, connected.status]).toEqual([provider, 201]);
      const created = await api('POST', '/v1/payments', {
        key,
        idempotencyKey: randomUUID(),
        body: { amount: 1234, provider_account_id: connected.body.id, customer: { name: 'Maria Silva', email: 'maria@example.com', document: '529.982.247-25' }, ...payment },
      });
      expect([provider, created.status]).toEqual([provider, 201]);
      expect((await api('POST', `/v1/payments/${created.body.id}/sync`, { key })).status).toBe(200);
      expect((await api('POST', `/v1/provider-accounts/${connected.body.id}/disable`, { key })).status).toBe(200);
    }

    // Webhook endpoint signing secrets: shown once at creation and at rotation, used to sign.
    await receiver.start();
    const endpoint = await api('POST', '/v1/webhook-endpoints', { key, body: { url: `${receiver.url}/logs`, events: ['payment.*'] } });
    expect(endpoint.status).toBe(201);
    const rotated = await api('POST', `/v1/webhook-endpoints/${endpoint.body.id}/rotate-secret`, { key });
    expect(rotated.status).toBeLessThan(300);
    Object.assign(secrets, { 'webhook endpoint secret': endpoint.body.secret, 'rotated webhook endpoint secret': rotated.body.secret });
    expect(rotated.body.secret).toMatch(/^whsec_/);
    const signed = await api('POST', '/v1/payments', {
      key,
      idempotencyKey: randomUUID(),
      body: { method: 'pix', amount: 1500, customer: { name: 'Maria Silva', email: 'maria@example.com', document: '529.982.247-25' } },
    });
    expect(signed.status).toBe(201);
    await eventually(async () => (receiver.at('/logs').length > 0 ? true : undefined), 'a signed delivery');
    expect((await api('DELETE', `/v1/webhook-endpoints/${endpoint.body.id}`, { key })).status).toBeLessThan(300);

    // API keys: every kind, on allowed and refused calls, plus keys nobody issued.
    const info = stackInfo();
    const unknownKey = `svc_test_LOGSECRET${hex(12)}`;
    const garbageKey = `LOGSECRETNOTAKEY${hex(12)}`;
    Object.assign(secrets, {
      'test key': info.testKey,
      'restricted key': info.restrictedTestKey,
      'live key': info.liveKey,
      'unknown key': unknownKey,
      'malformed key': garbageKey,
    });
    for (const apiKey of [info.testKey, info.restrictedTestKey, info.liveKey]) {
      expect((await api('GET', '/v1/payments?limit=1', { key: apiKey })).status).toBe(200);
    }
    expect((await api('GET', '/v1/provider-accounts', { key: info.restrictedTestKey })).status).toBe(403);
    expect((await api('POST', '/v1/payments/pay_x/simulate', { key: info.liveKey })).status).toBeGreaterThanOrEqual(400);
    for (const apiKey of [unknownKey, garbageKey]) {
      expect((await api('GET', '/v1/payments', { key: apiKey })).status).toBe(401);
    }
    expect((await api('GET', '/v1/payments', { key: null, headers: { authorization: `Basic ${Buffer.from(`${unknownKey}:`).toString('base64')}` } })).status).toBe(401);

    // Card data in bodies: a field the API does not take, and malformed JSON carrying it.
    Object.assign(secrets, { 'card number': PAN, 'card number with spaces': PAN_SPACED });
    const withCard = await api('POST', '/v1/payments', {
      idempotencyKey: randomUUID(),
      body: {
        method: 'card',
        amount: 1990,
        customer: { name: 'Maria Silva', document: '529.982.247-25' },
        card: { number: PAN, cvc: '737', exp_month: 12, exp_year: 2030, holder_name: 'MARIA SILVA' },
      },
    });
    expect(withCard.status).toBe(400);
    expect(JSON.stringify(withCard.body)).not.toContain(PAN);
    const tokenIsPan = await api('POST', '/v1/payments', {
      idempotencyKey: randomUUID(),
      body: { method: 'card', amount: 1990, customer: { name: 'Maria Silva', document: '529.982.247-25' }, card: { token: PAN_SPACED, installments: 99 } },
    });
    expect(tokenIsPan.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(tokenIsPan.body)).not.toContain(PAN_SPACED);
    const malformed = await api('POST', '/v1/payments', { idempotencyKey: randomUUID(), rawBody: `{"card": {"number": "${PAN}", ` });
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(malformed.body)).not.toContain(PAN);

    // Card data through the vault: the card fields' tokenize call (accepted and refused), saving
    // the card, paying it at a Stripe account (providers reveals it and sends it to the emulator),
    // deleting it. The numbers are unique to this run; security codes are found by their field.
    const fieldsPan = luhnNumber('4000');
    const amexPan = luhnNumber('3782', 15);
    Object.assign(secrets, {
      'card fields number': fieldsPan,
      'american express number': amexPan,
      'refused card number': `${fieldsPan.slice(0, -1)}${(Number(fieldsPan.slice(-1)) + 1) % 10}`,
      'paid card number': PAID_PAN,
    });
    const platformOrigin = new URL(stackInfo().baseUrl).origin;
    const config = await api('GET', '/v1/cards/config', { key });
    expect(config.status).toBe(200);
    const tokenize = (number: string, cvc: string) =>
      fetch(`${stackInfo().baseUrl}/v1/cards/tokenize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: platformOrigin },
        body: JSON.stringify({ publishable_key: config.body.publishable_key, origin: 'https://loja.logsecret.example', number, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, any> }));
    for (const [number, cvc] of [[fieldsPan, '123'], [amexPan, '1234'], [PAID_PAN, '321']] as const) {
      const answer = await tokenize(number, cvc);
      expect(answer).toMatchObject({ status: 201, body: { token: expect.stringMatching(/^tok_/) } });
      tokens.push(answer.body.token as string);
    }
    const refusedCard = await tokenize(secrets['refused card number']!, '123');
    expect(refusedCard).toMatchObject({ status: 400, body: { error: { param: 'number' } } });
    expect(JSON.stringify(refusedCard.body)).not.toContain(secrets['refused card number']);
    const customer = { name: 'Maria Silva', email: 'maria@example.com', document: '529.982.247-25', phone: '+5511987654321' };
    const saved = await api('POST', '/v1/cards', { key, body: { vault_token: tokens[2], holder_name: 'MARIA SILVA', customer } });
    expect(saved.status).toBe(201);
    const stripeCards = { secret_key: `sk_test_LOGSECRETCARDS${hex(12)}` };
    secrets['stripe cards secret_key'] = stripeCards.secret_key;
    await control('stripe', stripeCards);
    const cardsAccount = await api('POST', '/v1/provider-accounts', { key, body: { provider: 'stripe', name: 'stripe cards log-secrecy', credentials: stripeCards, priority: 900 } });
    expect(cardsAccount.status).toBe(201);
    const paidWithCard = await api('POST', '/v1/payments', {
      key,
      idempotencyKey: randomUUID(),
      body: { method: 'card', amount: 2590, customer, card: { id: saved.body.id }, provider_account_id: cardsAccount.body.id },
    });
    expect({ status: paidWithCard.status, error: paidWithCard.body.error ?? null }).toEqual({ status: 201, error: null });
    expect((await api('DELETE', `/v1/cards/${saved.body.id}`, { key })).status).toBe(200);
    expect((await api('POST', `/v1/provider-accounts/${cardsAccount.body.id}/disable`, { key })).status).toBe(200);

    // The owner's dashboard: a password (signed up, then a wrong one and the right one), the
    // session token of the cookie, the CSRF token, a TOTP secret, and an API key made there.
    const dashboard = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${stackInfo().baseUrl}/dashboard/api${route}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, any>) : {} };
    };
    const ownerEmail = `log-secrecy-${hex(4)}@loja.com.br`;
    const password = `LOGSECRETPW${hex(12)}`;
    const up = await dashboard('POST', '/signup', { merchant_name: 'Log secrecy', email: ownerEmail, password });
    expect(up.status).toBe(201);
    expect((await dashboard('POST', '/session', { email: ownerEmail, password: `LOGSECRETWRONG${hex(8)}` })).status).toBe(401);
    const signedIn = await dashboard('POST', '/session', { email: ownerEmail, password });
    const sessionToken = (/orq_session=([^;]+)/.exec(signedIn.headers.getSetCookie().join('\n')) ?? [])[1] ?? '';
    expect(sessionToken).toHaveLength(43);
    const me = await dashboard('GET', '/me', undefined, { cookie: `orq_session=${sessionToken}` });
    const csrfCookie = (/orq_csrf=([^;]+)/.exec(me.headers.getSetCookie().join('\n')) ?? [])[1] ?? '';
    const owned = { cookie: `orq_session=${sessionToken}; orq_csrf=${csrfCookie}`, 'x-csrf-token': me.body.csrf_token as string };
    const totp = await dashboard('POST', '/totp/setup', undefined, owned);
    expect(totp.status).toBe(200);
    const ownerKey = await dashboard('POST', '/keys', { name: 'log secrecy', mode: 'test', restricted: true }, owned);
    expect(ownerKey.status).toBe(201);
    Object.assign(secrets, {
      'owner password': password,
      'owner session token': sessionToken,
      'dashboard CSRF token': me.body.csrf_token as string,
      'owner TOTP secret': totp.body.secret as string,
      'API key made in the dashboard': ownerKey.body.secret as string,
    });

    // Log writers flush asynchronously: wait until the gateway's line of the last request above is
    // written (a loaded machine can take longer than any fixed pause), then give the other
    // services' writers a moment more, so the searches below read everything that was logged.
    await eventually(
      async () => (serviceLogs().some((log) => log.file === 'gateway.log' && log.text.includes('"path":"/dashboard/api/keys"')) ? true : undefined),
      "the gateway's log line of the dashboard key creation",
      20_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
  });

  it('finds the service logs it searches (and they are not empty)', () => {
    const logs = serviceLogs();
    expect(logs.map((log) => log.file)).toEqual(expect.arrayContaining(['gateway.log', 'payments.log', 'providers.log', 'accounts.log']));
    const gateway = logs.find((log) => log.file === 'gateway.log')!;
    // The actions above were logged (by request id and path), just without the secrets.
    expect(gateway.text).toContain('/v1/provider-accounts');
  });

  it('carries request and trace ids on request lines, as JSON', () => {
    const gateway = serviceLogs().find((log) => log.file === 'gateway.log')!;
    const requests = gateway.text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request' && String(line.path).startsWith('/v1/'));
    expect(requests.length).toBeGreaterThan(10);
    for (const line of requests) {
      expect(line.request_id).toMatch(/^req_/);
      expect(line.trace_id).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it('holds no credential, API key or card number, plain or base64', () => {
    const logs = serviceLogs();
    const leaks: string[] = [];
    for (const [what, secret] of Object.entries(secrets)) {
      for (const { file, text } of logs) {
        if (text.includes(secret)) leaks.push(`${what} in ${file}`);
        if (base64Needles(secret).some((needle) => text.includes(needle))) leaks.push(`${what} (base64) in ${file}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('holds no card security code: no cvc/cvv/security_code field with digits in any line', () => {
    const leaks: string[] = [];
    const field = /"(cvc|cvv|ccv|card_cvc|security_code|securityCode)"\s*:\s*"?\d{3,4}/i;
    for (const { file, text } of serviceLogs()) {
      for (const line of text.split('\n')) if (field.test(line)) leaks.push(`${file}: ${line.slice(0, 120).replace(/\d{3,}/g, '…')}`);
    }
    expect(leaks).toEqual([]);
    // The vault's own log is among those searched (it logs start-up, never a request).
    const vaultLog = serviceLogs().find((log) => log.file === 'vault.log');
    expect(vaultLog?.text.length ?? 0).toBeGreaterThan(0);
    expect(tokens).toHaveLength(3);
  });

  it('detects a secret hidden in base64 at any offset (the search itself works)', () => {
    const secret = `LOGSECRET${hex(16)}`;
    for (const prefix of ['', 'a', 'ab', 'abc', 'user:']) {
      const blob = Buffer.from(`${prefix}${secret}:tail`).toString('base64');
      expect(base64Needles(secret).some((needle) => blob.includes(needle))).toBe(true);
    }
  });
});
