import { AppError } from '@orquestra/platform';
import type { vault } from '@orquestra/contracts';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { startApp, type RunningApp } from '../testing/http-harness';

const PLATFORM = 'http://localhost:8080';
const CARD = { publishable_key: 'pk_test_abc', origin: 'https://loja.com.br', number: '4242 4242 4242 4242', exp_month: 12, exp_year: 30, cvc: '123' };

/** A vault that allows one origin and checks the key and the origin before the card, as its proto says. */
function vaultAllowing(origin: string, seen: vault.TokenizeRequest[] = []): FakeClients['vault']['tokenize'] {
  return async (request) => {
    seen.push(request);
    if (request.publishable_key !== 'pk_test_abc') throw new AppError('not_found', { param: 'publishable_key' });
    if (request.origin !== origin) throw new AppError('parameter_invalid', { param: 'origin', message: 'Site não autorizado.' });
    if (!request.number) throw new AppError('parameter_missing', { param: 'number' });
    return { token: 'tok_01jtok', expires_at: '2026-12-02T12:00:00.000Z', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 };
  };
}

describe('card fields routes (public)', () => {
  let clients: FakeClients;
  let app: RunningApp;
  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(() => app.close());

  it('serves the script, cacheable and loadable from another origin', async () => {
    const answer = await app.request('GET', '/v1/cards/fields.js');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(answer.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(answer.text).toContain('Orquestra.cardFields = cardFields');
    expect(answer.text).toContain('event.origin !== PLATFORM');
  });

  describe('GET /cards/frame', () => {
    it('renders the inputs for an allowed parent, framed by that origin only', async () => {
      clients.vault.tokenize = vaultAllowing('https://loja.com.br');
      const answer = await app.request('GET', '/cards/frame?pk=pk_test_abc&origin=https://loja.com.br');
      expect(answer.status).toBe(200);
      const csp = answer.headers.get('content-security-policy') ?? '';
      expect(csp).toContain('frame-ancestors https://loja.com.br');
      expect(csp).toContain("connect-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(answer.text).toContain('autocomplete="cc-number"');
      expect(answer.text).toContain('<label for="cvc">');
      expect(answer.text).toContain('var PARENT = "https://loja.com.br"');
    });

    it('refuses another site (403, no inputs) and an unknown key', async () => {
      clients.vault.tokenize = vaultAllowing('https://loja.com.br');
      const other = await app.request('GET', '/cards/frame?pk=pk_test_abc&origin=https://golpe.example');
      expect(other.status).toBe(403);
      expect(other.text).toContain('não está autorizado');
      expect(other.text).not.toContain('cc-number');
      expect((await app.request('GET', '/cards/frame?pk=pk_test_zzz&origin=https://loja.com.br')).status).toBe(403);
      expect((await app.request('GET', '/cards/frame?pk=nope&origin=https://loja.com.br')).status).toBe(400);
      expect((await app.request('GET', '/cards/frame?pk=pk_test_abc&origin=javascript:alert(1)')).status).toBe(400);
    });

    it('says the fields are unavailable when the vault is down', async () => {
      clients.vault.tokenize = async () => {
        throw new AppError('service_unavailable');
      };
      expect((await app.request('GET', '/cards/frame?pk=pk_test_abc&origin=https://loja.com.br')).status).toBe(503);
    });
  });

  describe('POST /v1/cards/tokenize', () => {
    it('passes the card and the parent origin to the vault only from the platform origin', async () => {
      const seen: vault.TokenizeRequest[] = [];
      clients.vault.tokenize = vaultAllowing('https://loja.com.br', seen);
      const answer = await app.request('POST', '/v1/cards/tokenize', { headers: { origin: PLATFORM }, body: CARD });
      expect(answer.status).toBe(201);
      expect(answer.json).toEqual({ object: 'card_token', token: 'tok_01jtok', expires_at: '2026-12-02T12:00:00.000Z', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 });
      expect(seen).toEqual([{ publishable_key: 'pk_test_abc', origin: 'https://loja.com.br', number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' }]);
      expect(answer.headers.get('cache-control')).toBe('no-store');
    });

    it("also accepts the page's own origin when the platform is reached under another host name", async () => {
      clients.vault.tokenize = vaultAllowing('https://loja.com.br');
      const own = new URL(app.url).origin;
      const answer = await app.request('POST', '/v1/cards/tokenize', { headers: { origin: own, 'sec-fetch-site': 'same-origin' }, body: CARD });
      expect(answer.status).toBe(201);
    });

    it('refuses a call from any other page or from a server (no Origin)', async () => {
      clients.vault.tokenize = vaultAllowing('https://loja.com.br');
      const callers: Array<Record<string, string>> = [{ origin: 'https://loja.com.br' }, {}, { origin: PLATFORM, 'sec-fetch-site': 'cross-site' }];
      for (const headers of callers) {
        const answer = await app.request('POST', '/v1/cards/tokenize', { headers, body: CARD });
        expect(answer.status).toBe(400);
        expect(answer.json).toMatchObject({ error: { code: 'invalid_request', param: 'origin' } });
      }
    });

    it("answers the vault's refusal of the parent origin", async () => {
      clients.vault.tokenize = vaultAllowing('https://loja.com.br');
      const answer = await app.request('POST', '/v1/cards/tokenize', { headers: { origin: PLATFORM }, body: { ...CARD, origin: 'https://golpe.example' } });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ error: { param: 'origin' } });
    });

    it('never repeats the card in a validation error', async () => {
      clients.vault.tokenize = vaultAllowing('https://loja.com.br');
      for (const body of [{ ...CARD, number: '4242x4242424242424242' }, { ...CARD, cvc: '98765' }, { ...CARD, exp_month: 13 }, { ...CARD, extra: '4242424242424242' }]) {
        const answer = await app.request('POST', '/v1/cards/tokenize', { headers: { origin: PLATFORM }, body });
        expect(answer.status).toBe(400);
        expect(answer.text).not.toMatch(/4242|98765/);
      }
    });
  });
});
