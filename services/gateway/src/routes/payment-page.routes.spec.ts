import { status } from '@grpc/grpc-js';
import { common, type paymentPage } from '@orquestra/contracts';
import { RpcError } from '@orquestra/platform';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { TEST_KEY, TEST_SETTINGS } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';
import pino from 'pino';

const PIX_CODE = '00020101021226830014br.gov.bcb.pix2561qrcodes.example/v2/abc5204000053039865802BR6304ABCD';

function page(overrides: Partial<paymentPage.PaymentPage> = {}): paymentPage.PaymentPage {
  return {
    id: 'pay_01jabc',
    mode: common.Mode.MODE_TEST,
    status: 'requires_method',
    method: '',
    amount: 123456,
    description: 'Camiseta azul',
    next_action: undefined,
    expires_at: '2026-11-22T13:30:00.000Z',
    available_methods: ['pix'],
    failure_code: '',
    paid_at: '',
    merchant_id: 'mer_01jabc',
    card_fields: false,
    ...overrides,
  };
}

const pendingPix = () =>
  page({
    status: 'pending',
    method: 'pix',
    available_methods: [],
    next_action: { type: 'pix_qr', qr_code: PIX_CODE, qr_code_url: 'http://api.example.com/qr/pay_01jabc.png' },
  });

jest.setTimeout(30_000);

describe('payment page routes (/pay/{id})', () => {
  let app: RunningApp;
  let clients: FakeClients;
  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(() => app.close());

  it('shows the amount, the escaped description and the offered methods, under a nonce CSP', async () => {
    const getPaymentPage = jest.fn(async () => ({ page: page({ description: '<script>alert("x")</script><img src=x onerror=alert(1)>' }) }));
    clients.payments.getPaymentPage = getPaymentPage;
    const answer = await app.request('GET', '/pay/pay_01jabc');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.text).toContain('R$ 1.234,56');
    expect(answer.text).not.toContain('<script>alert');
    expect(answer.text).not.toContain('<img src=x');
    expect(answer.text).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
    expect(answer.text).toContain('<button type="submit" name="method" value="pix"');
    expect(answer.text).not.toContain('value="boleto"');
    expect(answer.text).toContain('action="/pay/pay_01jabc"');
    expect(answer.text).toContain('Ambiente de teste');
    const csp = answer.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(answer.text).toContain(`<script nonce="${nonce}">`);
    // Every script on the page carries the nonce: nothing else would run.
    expect(answer.text.match(/<script/g)).toHaveLength(1);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(getPaymentPage).toHaveBeenCalledWith({ payment_id: 'pay_01jabc' }, expect.objectContaining({ requestId: expect.any(String) }));
  });

  it('shows an open Pix: the QR image, the copy-paste text and a copy button; the CSP admits the QR host', async () => {
    clients.payments.getPaymentPage = async () => ({ page: pendingPix() });
    const answer = await app.request('GET', '/pay/pay_01jabc');
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('<img class="qr" id="pix-qr" src="http://api.example.com/qr/pay_01jabc.png"');
    expect(answer.text).toContain(`<textarea id="pix-code" readonly aria-label="Código Pix Copia e Cola">${PIX_CODE}</textarea>`);
    expect(answer.text).toContain('id="copy"');
    expect(answer.text).toContain('data-status="pending"');
    expect(answer.headers.get('content-security-policy')).toContain("img-src 'self' data: http://api.example.com");
  });

  it('shows a boleto and a card redirect, dropping links that are not http(s)', async () => {
    clients.payments.getPaymentPage = async () => ({
      page: page({ status: 'pending', method: 'boleto', next_action: { type: 'boleto', digitable_line: '34191.79001 01043.510047 91020.150008 1 96610000012345', url: 'https://boletos.example.com/b/1' } }),
    });
    const boleto = await app.request('GET', '/pay/pay_01jabc');
    expect(boleto.text).toContain('34191.79001 01043.510047 91020.150008 1 96610000012345');
    expect(boleto.text).toContain('href="https://boletos.example.com/b/1"');

    clients.payments.getPaymentPage = async () => ({
      page: page({ status: 'pending', method: 'card', next_action: { type: 'redirect', url: 'javascript:alert(1)' } }),
    });
    const card = await app.request('GET', '/pay/pay_01jabc');
    expect(card.text).not.toContain('javascript:alert');
    expect(card.text).toContain('O link de pagamento com cartão não está disponível');
  });

  it('shows final states clearly: paid, expired, canceled, failed', async () => {
    const cases: Array<[Partial<paymentPage.PaymentPage>, string]> = [
      [{ status: 'succeeded', method: 'pix', paid_at: '2026-11-22T13:00:00.000Z' }, 'Pagamento confirmado'],
      [{ status: 'canceled', failure_code: 'expired' }, 'Prazo encerrado'],
      [{ status: 'canceled' }, 'Pagamento cancelado'],
      [{ status: 'failed', method: 'card' }, 'Pagamento não aprovado'],
    ];
    for (const [overrides, title] of cases) {
      clients.payments.getPaymentPage = async () => ({ page: page({ available_methods: [], ...overrides }) });
      const answer = await app.request('GET', '/pay/pay_01jabc');
      expect(answer.status).toBe(200);
      expect(answer.text).toContain(`<h2>${title}</h2>`);
      expect(answer.text).not.toContain('<form');
    }
  });

  it('answers a friendly 404 page for an unknown id, and for an impossible one without asking', async () => {
    clients.payments.getPaymentPage = async () => {
      throw new RpcError('not_found', status.NOT_FOUND, {});
    };
    const unknown = await app.request('GET', '/pay/pay_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(unknown.text).toContain('Pagamento não encontrado');

    const getPaymentPage = jest.fn();
    clients.payments.getPaymentPage = getPaymentPage;
    const impossible = await app.request('GET', '/pay/%3Cscript%3E');
    expect(impossible.status).toBe(404);
    expect(impossible.text).toContain('Pagamento não encontrado');
    expect(impossible.text).not.toContain('<script>');
    expect(getPaymentPage).not.toHaveBeenCalled();
  });

  it('takes the buyer choice as a same-origin form post and redirects back to the page (303)', async () => {
    const choosePaymentMethod = jest.fn(async () => ({ page: pendingPix() }));
    clients.payments.choosePaymentMethod = choosePaymentMethod;
    const answer = await fetch(`${app.url}/pay/pay_01jabc`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url, 'sec-fetch-site': 'same-origin' },
      body: 'method=pix',
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/pay/pay_01jabc');
    expect(choosePaymentMethod).toHaveBeenCalledWith({ payment_id: 'pay_01jabc', method: 'pix' }, expect.objectContaining({ requestId: expect.any(String) }));
  });

  it('mounts the card fields with the merchant key of the payment mode when card goes through them, the iframe origin in frame-src', async () => {
    clients.payments.getPaymentPage = async () => ({ page: page({ available_methods: ['pix', 'card'], card_fields: true }) });
    const getCardsConfig = jest.fn(async () => ({ config: { mode: common.Mode.MODE_TEST, publishable_key: 'pk_test_0123456789abcdef0123456789abcdef', allowed_origins: [], enabled: true } }));
    clients.vault.getCardsConfig = getCardsConfig;
    const answer = await app.request('GET', '/pay/pay_01jabc');
    expect(answer.status).toBe(200);
    expect(getCardsConfig).toHaveBeenCalledWith({ caller: expect.objectContaining({ merchant_id: 'mer_01jabc', mode: common.Mode.MODE_TEST }) }, expect.anything());
    const csp = answer.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(csp).toContain('frame-src http://localhost:8080');
    expect(answer.text).toContain(`<script nonce="${nonce}" src="http://localhost:8080/v1/cards/fields.js"></script>`);
    expect(answer.text).toContain('id="card-pay" class="card-pay" hidden data-pk="pk_test_0123456789abcdef0123456789abcdef"');
    expect(answer.text).toContain('id="card-open" data-method="card" aria-expanded="false" aria-controls="card-pay"');
    expect(answer.text).toContain('Pagar R$ 1.234,56');
    // The merchant's id is the gateway's alone.
    expect(answer.text).not.toContain('mer_01jabc');

    // The vault off for the mode: card as before (a hosted checkout), no fields.
    clients.vault.getCardsConfig = async () => ({ config: { mode: common.Mode.MODE_TEST, publishable_key: 'pk_test_0123456789abcdef0123456789abcdef', allowed_origins: [], enabled: false } });
    const off = await app.request('GET', '/pay/pay_01jabc');
    expect(off.text).not.toContain('id="card-pay"');
    expect(off.text).toContain('<button type="submit" name="method" value="card" data-method="card">');
    expect(off.headers.get('content-security-policy')).not.toContain('frame-src');
  });

  it('posts the card fields token (and nothing else of the card) to ChoosePaymentMethod, and shows a decline in Portuguese', async () => {
    const choosePaymentMethod = jest.fn(async () => ({ page: page({ status: 'failed', method: 'card', failure_code: 'insufficient_funds', available_methods: [] }) }));
    clients.payments.choosePaymentMethod = choosePaymentMethod;
    const answer = await fetch(`${app.url}/pay/pay_01jabc`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url, 'sec-fetch-site': 'same-origin' },
      body: 'method=card&card_token=tok_0123abcd',
    });
    expect(answer.status).toBe(303);
    expect(choosePaymentMethod).toHaveBeenCalledWith(
      { payment_id: 'pay_01jabc', method: 'card', card: { token: 'tok_0123abcd', id: '', installments: 1, brand: '', without_cvc: false } },
      expect.anything(),
    );
    clients.payments.getPaymentPage = async () => ({ page: page({ status: 'failed', method: 'card', failure_code: 'insufficient_funds', available_methods: [] }) });
    const declined = await app.request('GET', '/pay/pay_01jabc');
    expect(declined.text).toContain('O cartão não tem saldo ou limite suficiente.');
  });

  it('refuses a cross-site post without choosing anything', async () => {
    const choosePaymentMethod = jest.fn();
    clients.payments.choosePaymentMethod = choosePaymentMethod;
    const forged: Array<Record<string, string>> = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }];
    for (const headers of forged) {
      const answer = await app.request('POST', '/pay/pay_01jabc', { headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: 'method=pix' });
      expect(answer.status).toBe(403);
      expect(answer.text).toContain('só pode ser feita nesta página');
    }
    expect(choosePaymentMethod).not.toHaveBeenCalled();
  });

  it('shows the page again with a Portuguese error when the method is not offered', async () => {
    clients.payments.choosePaymentMethod = async () => {
      throw new RpcError('method_not_available', status.FAILED_PRECONDITION, {
        param: 'method',
        message: 'A forma de pagamento boleto não está disponível para este pagamento. Escolha uma das opções oferecidas: Pix.',
      });
    };
    clients.payments.getPaymentPage = async () => ({ page: page() });
    const answer = await app.request('POST', '/pay/pay_01jabc', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'method=boleto' });
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('<p class="error" role="alert">A forma de pagamento boleto não está disponível para este pagamento.');
    expect(answer.text).toContain('value="pix"');
  });

  it('serves the polling status: open payments without html, final ones with the confirmation panel', async () => {
    clients.payments.getPaymentPage = async () => ({ page: pendingPix() });
    const open = await app.request('GET', '/pay/pay_01jabc/status');
    expect(open.json).toEqual({ status: 'pending', final: false, html: null });

    clients.payments.getPaymentPage = async () => ({ page: page({ status: 'succeeded', method: 'pix', available_methods: [] }) });
    const paid = await app.request('GET', '/pay/pay_01jabc/status');
    expect(paid.json).toMatchObject({ status: 'succeeded', final: true });
    expect(paid.json.html).toContain('Pagamento confirmado');
    expect(paid.headers.get('cache-control')).toBe('no-store');

    // An unknown payment: the documented 404, the friendly page (the poller ignores it); a service
    // out of reach: 503 with the empty status.
    clients.payments.getPaymentPage = async () => {
      throw new RpcError('not_found', status.NOT_FOUND, {});
    };
    const unknown = await app.request('GET', '/pay/pay_nope/status');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('text/html; charset=utf-8');
    clients.payments.getPaymentPage = async () => {
      throw new RpcError('service_unavailable', status.UNAVAILABLE, {});
    };
    const down = await app.request('GET', '/pay/pay_01jabc/status');
    expect(down.status).toBe(503);
    expect(down.json).toEqual({ status: null, final: false, html: null });
  });

  it('serves the page at the root of a host of its own (pay.<domain>) without shadowing the API', async () => {
    const own = fakeClients();
    own.payments.getPaymentPage = async () => ({ page: page() });
    own.payments.listPayments = async () => ({ data: [], has_more: false });
    const payHost = await startApp({ clients: own, settings: { ...TEST_SETTINGS, payBaseUrl: 'https://pay.example.com' } });
    try {
      const answer = await payHost.request('GET', '/pay_01jabc');
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('action="/pay_01jabc"');
      expect((await payHost.request('GET', '/healthz')).status).toBe(200);
      expect((await payHost.request('GET', '/v1/payments', { headers: { authorization: `Bearer ${TEST_KEY}` } })).status).toBe(200);
      const other = await payHost.request('GET', '/nothing-here');
      expect(other.status).toBe(404);
      expect(other.json.error.code).toBe('route_not_found');
    } finally {
      await payHost.close();
    }
  });

  describe('tracking capture (spec §2: the page address carries UTMs and click ids)', () => {
    const visitFor = () => {
      const visits: unknown[] = [];
      const recordVisit = jest.fn(async (visit: unknown) => {
        visits.push(visit);
        return {};
      });
      clients.tracking.recordVisit = recordVisit;
      return { visits, recordVisit };
    };
    // The visit is recorded after the answer, in the background: polled for with a generous deadline
    // (a loaded machine can take well over a second), and the assertions after it say what was expected.
    const until = async (probe: () => boolean) => {
      for (const deadline = Date.now() + 10_000; !probe() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 10));
    };

    it('stores the 13 keys of the address on the payment and records the visit; other parameters ignored, over 500 characters dropped', async () => {
      clients.payments.getPaymentPage = async () => ({ page: page({ mode: common.Mode.MODE_LIVE }) });
      const recordPageTracking = jest.fn(async () => ({ tracking: { utm_source: 'instagram', utm_campaign: 'bf' } }));
      clients.payments.recordPageTracking = recordPageTracking;
      const { visits } = visitFor();
      const query =
        'utm_source=facebook&utm_campaign=bf&fbclid=ABC%20x&utm_medium=&utm_id=7&foo=bar&gclid=G1&gclid=G2' +
        `&utm_term=${'t'.repeat(501)}&utm_content=${'c'.repeat(500)}&ttp[x]=1`;
      const answer = await app.request('GET', `/pay/pay_01jabc?${query}`, {
        headers: { 'user-agent': `Mozilla/5.0 ${'u'.repeat(600)}`, referer: 'https://loja.example.com/oferta' },
      });
      expect(answer.status).toBe(200);
      const expected = { utm_source: 'facebook', utm_campaign: 'bf', fbclid: 'ABC x', gclid: 'G1', utm_content: 'c'.repeat(500) };
      expect(recordPageTracking).toHaveBeenCalledTimes(1);
      expect(recordPageTracking).toHaveBeenCalledWith({ payment_id: 'pay_01jabc', tracking: expected }, expect.objectContaining({ deadlineMs: 1000 }));
      await until(() => visits.length > 0);
      expect(visits).toEqual([
        {
          payment_id: 'pay_01jabc',
          merchant_id: 'mer_01jabc',
          mode: common.Mode.MODE_LIVE,
          tracking: expected,
          ip: '127.0.0.1',
          user_agent: `Mozilla/5.0 ${'u'.repeat(600)}`.slice(0, 500),
          // The page's own address (pay base, id, the keys taken): never the Host header or other parameters.
          url: `http://localhost:8080/pay/pay_01jabc?${new URLSearchParams({ utm_source: 'facebook', utm_campaign: 'bf', utm_content: 'c'.repeat(500), fbclid: 'ABC x', gclid: 'G1' }).toString()}`,
          referrer: 'https://loja.example.com/oferta',
        },
      ]);
    });

    it('without tracking in the address: nothing to store, the visit is still recorded', async () => {
      clients.payments.getPaymentPage = async () => ({ page: page() });
      const recordPageTracking = jest.fn(async () => ({ tracking: {} }));
      clients.payments.recordPageTracking = recordPageTracking;
      const { visits } = visitFor();
      expect((await app.request('GET', '/pay/pay_01jabc?foo=bar')).status).toBe(200);
      await until(() => visits.length > 0);
      expect(recordPageTracking).not.toHaveBeenCalled();
      expect(visits).toEqual([expect.objectContaining({ payment_id: 'pay_01jabc', tracking: {}, url: 'http://localhost:8080/pay/pay_01jabc', referrer: '' })]);
    });

    it('a page opened after the sale ended records no visit (the buyer IP and browser the tools get stay the buyer\'s)', async () => {
      clients.payments.getPaymentPage = async () => ({ page: page({ status: 'succeeded', method: 'pix' }) });
      clients.payments.recordPageTracking = jest.fn(async () => ({ tracking: {} }));
      const { recordVisit } = visitFor();
      expect((await app.request('GET', '/pay/pay_01jabc?utm_source=facebook')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(recordVisit).not.toHaveBeenCalled();
    });

    it('the page still renders (200) when tracking is down: both calls rejected, failures only logged', async () => {
      const lines: string[] = [];
      const logged = fakeClients();
      logged.payments.getPaymentPage = async () => ({ page: pendingPix() });
      logged.payments.recordPageTracking = async () => Promise.reject(new RpcError('service_unavailable', status.UNAVAILABLE, {}));
      const recordVisit = jest.fn(async () => Promise.reject(new RpcError('service_unavailable', status.UNAVAILABLE, {})));
      logged.tracking.recordVisit = recordVisit;
      const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
      const withLogs = await startApp({ clients: logged, logger });
      try {
        const answer = await withLogs.request('GET', '/pay/pay_01jabc?utm_source=facebook');
        expect(answer.status).toBe(200);
        expect(answer.text).toContain(PIX_CODE);
        await until(() => lines.some((line) => line.includes('payment page visit not recorded')));
        expect(recordVisit).toHaveBeenCalledTimes(1);
        expect(lines.some((line) => line.includes('payment page tracking not recorded'))).toBe(true);
        expect(lines.some((line) => line.includes('payment page visit not recorded'))).toBe(true);
      } finally {
        await withLogs.close();
      }
    });

    it('an unknown payment: the friendly 404, no visit recorded', async () => {
      clients.payments.getPaymentPage = async () => Promise.reject(new RpcError('not_found', status.NOT_FOUND, {}));
      clients.payments.recordPageTracking = async () => Promise.reject(new RpcError('not_found', status.NOT_FOUND, {}));
      const { recordVisit } = visitFor();
      const answer = await app.request('GET', '/pay/pay_01jabc?utm_source=facebook');
      expect(answer.status).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(recordVisit).not.toHaveBeenCalled();
    });

    it('the status polling and the method post are not visits', async () => {
      clients.payments.getPaymentPage = async () => ({ page: pendingPix() });
      clients.payments.choosePaymentMethod = async () => ({ page: pendingPix() });
      const recordPageTracking = jest.fn(async () => ({ tracking: {} }));
      clients.payments.recordPageTracking = recordPageTracking;
      const { recordVisit } = visitFor();
      expect((await app.request('GET', '/pay/pay_01jabc/status?utm_source=facebook')).status).toBe(200);
      const post = await fetch(`${app.url}/pay/pay_01jabc?utm_source=facebook`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url, 'sec-fetch-site': 'same-origin' },
        body: 'method=pix',
      });
      expect(post.status).toBe(303);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(recordPageTracking).not.toHaveBeenCalled();
      expect(recordVisit).not.toHaveBeenCalled();
    });
  });
});
