// The browser-side callbacks (page.evaluate) run in Chromium and use DOM types.
/// <reference lib="dom" />
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { accounts, common } from '@orquestra/contracts';
import { createRpcClient } from '@orquestra/platform';
import { parsePix } from 'pix-utils';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import QRCode from 'qrcode';
import { api, createPix, eventually } from './support/api';
import { stackInfo } from './support/stack-info';

/** Screenshots kept as test artifacts (git-ignored with the rest of .local). */
const ARTIFACTS = path.resolve(__dirname, '../../../.local/e2e-artifacts');
const METHODS = ['pix', 'boleto', 'card'] as const;

/** Debian's Chromium, driven by playwright-core: no browser is downloaded. */
async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** What routing says can be charged now for this merchant (what the page must offer). */
async function methodsRoutingOffers(amount: number): Promise<string[]> {
  const offered: string[] = [];
  for (const method of METHODS) {
    const answer = await api('POST', '/v1/routing/simulate', { body: { method, amount } });
    if (answer.status === 200 && Array.isArray(answer.body.candidates) && answer.body.candidates.length > 0) offered.push(method);
  }
  return offered;
}

async function createWithoutMethod(overrides: Record<string, unknown> = {}) {
  const response = await api('POST', '/v1/payments', {
    body: { amount: 2590, description: 'Assinatura Premium <b>anual</b>', customer: { name: 'Joana Souza', email: 'joana@example.com' }, ...overrides },
    idempotencyKey: `page-${Date.now()}-${Math.random()}`,
  });
  expect(response.status).toBe(201);
  return response.body;
}

describe('the buyer payment page in a real browser (Chromium)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ locale: 'pt-BR', permissions: ['clipboard-read', 'clipboard-write'] });
    page = await context.newPage();
    consoleErrors = [];
    // A CSP violation or a script error shows here: the page must have none.
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
  });
  afterEach(async () => {
    await context.close();
  });

  it('lets the buyer choose Pix, shows the QR and the copy-paste code, and confirms the payment without a reload', async () => {
    const created = await createWithoutMethod();
    expect(created).toMatchObject({ status: 'requires_method', method: null, next_action: null, provider: null, amount: 2590 });
    expect(created.payment_url).toBe(`${stackInfo().baseUrl}/pay/${created.id}`);
    // Default time to choose: 60 minutes.
    expect(new Date(created.expires_at).getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);

    const response = await page.goto(created.payment_url);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'nonce-");
    expect(await page.textContent('#amount')).toBe('R$ 25,90');
    // The description is text, never markup.
    expect(await page.textContent('#description')).toBe('Assinatura Premium <b>anual</b>');
    expect(await page.locator('#description b').count()).toBe(0);
    const shown = await page.locator('button[data-method]').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-method')));
    expect(shown).toEqual(await methodsRoutingOffers(2590));
    expect(shown).toContain('pix');

    await Promise.all([page.waitForURL(created.payment_url), page.click('button[data-method="pix"]')]);
    const qr = page.locator('img#pix-qr');
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toBe(`${stackInfo().baseUrl}/qr/${created.id}.png`);
    // The image really loaded (served by the public PNG route, admitted by the CSP).
    await page.waitForFunction(() => {
      const img = document.getElementById('pix-qr') as HTMLImageElement | null;
      return Boolean(img && img.complete && img.naturalWidth > 0);
    });
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(400);
    const code = await page.inputValue('#pix-code');
    const brCode = parsePix(code);
    expect('error' in brCode && brCode.error).toBeFalsy();
    expect(code).toMatch(/6304[0-9A-F]{4}$/);
    const pixShot = path.join(ARTIFACTS, `payment-page-pix-${created.id}.png`);
    await page.screenshot({ path: pixShot, fullPage: true });
    console.log(`payment page screenshot (Pix): ${pixShot}`);
    await page.click('#copy');
    await page.waitForFunction(() => document.getElementById('copy')?.textContent === 'Código copiado!');

    const chosen = (await api('GET', `/v1/payments/${created.id}`)).body;
    expect(chosen).toMatchObject({ status: 'pending', method: 'pix', provider: 'efi', next_action: { type: 'pix_qr', qr_code: code } });
    expect(chosen.events.map((e: { type: string }) => e.type)).toEqual(['payment.created', 'payment.pending']);

    // The page must change in place: this marker would vanish on a reload.
    await page.evaluate(() => ((window as unknown as { __stillHere: boolean }).__stillHere = true));
    const paid = await api('POST', `/v1/payments/${created.id}/simulate`);
    expect(paid.status).toBe(200);
    await page.waitForSelector('#final[data-final="succeeded"]', { timeout: 15_000 });
    expect(await page.textContent('#final h2')).toBe('Pagamento confirmado');
    expect(await page.evaluate(() => (window as unknown as { __stillHere?: boolean }).__stillHere)).toBe(true);
    expect(await page.locator('#pix-qr').count()).toBe(0);

    const screenshot = path.join(ARTIFACTS, `payment-page-paid-${created.id}.png`);
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log(`payment page screenshot: ${screenshot}`);
    expect(consoleErrors).toEqual([]);
  });

  it('answers a friendly Portuguese 404 page for an unknown payment', async () => {
    const response = await page.goto(`${stackInfo().baseUrl}/pay/pay_01jzzzzzzzzzzzzzzzzzzzzzzz`);
    expect(response?.status()).toBe(404);
    expect(await page.textContent('h2')).toBe('Pagamento não encontrado');
    expect(await page.textContent('body')).toContain('Confira se o link está completo');
    expect(consoleErrors.filter((e) => !e.includes('404'))).toEqual([]);
  });

  it('shows a payment already paid as paid', async () => {
    const payment = await createPix({ amount: 1234 });
    expect((await api('POST', `/v1/payments/${payment.id}/simulate`)).body.status).toBe('succeeded');
    await page.goto(payment.payment_url);
    expect(await page.textContent('#amount')).toBe('R$ 12,34');
    expect(await page.textContent('#final h2')).toBe('Pagamento confirmado');
    expect(await page.locator('form, #pix-qr').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
  });

  it('answers a clear Portuguese error when a method that is not offered is chosen', async () => {
    const created = await createWithoutMethod();
    await page.goto(created.payment_url);
    const offered = await page.locator('button[data-method]').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-method')));
    const notOffered = METHODS.find((method) => !offered.includes(method)) ?? 'crypto';
    // A tampered form: the button now asks for a method the page did not offer.
    await page.locator('button[data-method="pix"]').evaluate((button: HTMLButtonElement, value: string) => (button.value = value), notOffered);
    const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('button[data-method="pix"]')]);
    expect(answer.status()).toBe(422);
    await page.waitForSelector('p.error');
    expect(await page.textContent('p.error')).toContain(`não está disponível para este pagamento. Escolha uma das opções oferecidas: Pix`);
    // Nothing was charged: the buyer can still choose.
    expect((await api('GET', `/v1/payments/${created.id}`)).body).toMatchObject({ status: 'requires_method', method: null });
    expect(await page.locator('button[data-method="pix"]').count()).toBe(1);
  });

  it('shows a canceled payment as final, and lists, cancels and protects payments awaiting a method', async () => {
    const created = await createWithoutMethod({ expires_in_minutes: 5 });
    expect(new Date(created.expires_at).getTime()).toBeLessThanOrEqual(Date.now() + 5 * 60_000 + 2_000);
    const listed = await api('GET', '/v1/payments?status=requires_method&limit=100');
    expect(listed.body.data.map((p: { id: string }) => p.id)).toContain(created.id);
    // Cross-site posts choose nothing.
    const forged = await fetch(created.payment_url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, body: 'method=pix', redirect: 'manual' });
    expect(forged.status).toBe(403);
    expect((await api('POST', `/v1/payments/${created.id}/sync`)).body.status).toBe('requires_method');
    const canceled = await api('POST', `/v1/payments/${created.id}/cancel`);
    expect(canceled.body).toMatchObject({ status: 'canceled', method: null });
    await page.goto(created.payment_url);
    expect(await page.textContent('#final h2')).toBe('Pagamento cancelado');
    expect(await page.locator('form').count()).toBe(0);
    // A late choice (e.g. a page left open) is refused in Portuguese.
    const late = await fetch(created.payment_url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'method=pix', redirect: 'manual' });
    expect(late.status).toBe(409);
    expect(await late.text()).toContain('Este pagamento não aguarda a escolha da forma de pagamento');
  });

  it('serves qr_code_url as a public PNG of exactly the Pix copy-paste text', async () => {
    const payment = await createPix();
    const image = await fetch(payment.next_action.qr_code_url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const expected = await QRCode.toBuffer(payment.next_action.qr_code, { type: 'png', width: 400, margin: 2, errorCorrectionLevel: 'M' });
    expect(Buffer.from(await image.arrayBuffer()).equals(expected)).toBe(true);
  });
});

/**
 * Card on a hosted checkout (Asaas's invoice page) and boleto, chosen on the page, on a merchant of
 * this suite's own (created here through the accounts service), so the Asaas and Stripe accounts it
 * connects never change another suite's routing.
 */
describe('the payment page with a hosted card checkout (Asaas) and boleto (Asaas)', () => {
  const ADDRESS = { street: 'Avenida Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-200' };
  const CUSTOMER = { name: 'Joana Souza', email: 'joana@example.com', document: '529.982.247-25', address: ADDRESS };
  let key = '';
  let asaasAccount = '';
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  async function control(code: 'asaas' | 'stripe', body: Record<string, string>): Promise<void> {
    const answer = await fetch(`${stackInfo().controlUrls[code]}/__control/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(answer.status).toBeLessThan(300);
  }

  async function connect(provider: 'asaas' | 'stripe', credentials: Record<string, string>, priority: number): Promise<string> {
    await control(provider, credentials);
    const response = await api('POST', '/v1/provider-accounts', { key, body: { provider, name: `${provider} checkout`, credentials, priority } });
    expect(response.status).toBe(201);
    return response.body.id as string;
  }

  async function createForChoice() {
    const response = await api('POST', '/v1/payments', { key, idempotencyKey: randomUUID(), body: { amount: 4990, description: 'Curso online', customer: CUSTOMER } });
    expect(response.status).toBe(201);
    return response.body;
  }

  const readPayment = async (id: string) => (await api('GET', `/v1/payments/${id}`, { key })).body;

  /** The buyer picks card on our page and lands on Asaas's invoice page (followed by the page's script). */
  async function chooseCardAndLandOnAsaas(paymentUrl: string): Promise<void> {
    await page.goto(paymentUrl);
    const shown = await page.locator('button[data-method]').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-method')));
    expect(shown).toEqual(['pix', 'boleto', 'card']);
    await page.click('button[data-method="card"]');
    await page.waitForURL((url) => url.href.startsWith(`${stackInfo().controlUrls.asaas.replace('127.0.0.1', 'localhost')}/i/`), { timeout: 15_000 });
    await page.waitForSelector('#card-number');
    expect(await page.textContent('#invoice-amount')).toBe('R$ 49,90');
  }

  async function typeCard(number: string): Promise<void> {
    await page.fill('#card-number', number);
    await page.fill('#card-holder', 'JOANA SOUZA');
    await page.fill('#card-expiry', '12/39');
    await page.fill('#card-cvv', '123');
  }

  beforeAll(async () => {
    const client = createRpcClient(accounts.AccountsServiceService, `127.0.0.1:${stackInfo().ports.accounts}`, { deadlineMs: 10_000 });
    try {
      const { merchant } = await client.createMerchant({ name: 'Loja Checkout', email: `e2e-checkout-${Date.now()}@orquestra.dev` });
      if (!merchant) throw new Error('no merchant');
      key = (await client.createApiKey({ merchant_id: merchant.id, mode: common.Mode.MODE_TEST, kind: accounts.KeyKind.KEY_KIND_FULL, name: 'checkout e2e' })).secret;
    } finally {
      client.close();
    }
    asaasAccount = await connect('asaas', { api_key: `$aact_hmlg_${randomBytes(16).toString('hex')}` }, 10);
    await connect('stripe', { secret_key: `sk_test_${randomBytes(12).toString('hex')}` }, 20);
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ locale: 'pt-BR' });
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
  });

  it('REST: a card payment without card.token is pending with next_action redirect to the Asaas hosted checkout', async () => {
    const providers = await api('GET', '/v1/providers', { key });
    const asaas = (providers.body.data as Array<Record<string, any>>).find((p) => p.code === 'asaas');
    expect(asaas?.capabilities).toMatchObject({ methods: ['pix', 'boleto', 'card'], hosted_checkout: ['card'], customer_requires: { boleto: ['document'], card: ['document'] } });

    const response = await api('POST', '/v1/payments', { key, idempotencyKey: randomUUID(), body: { method: 'card', amount: 4990, customer: CUSTOMER } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ method: 'card', status: 'pending', provider: 'asaas', provider_account_id: asaasAccount, next_action: { type: 'redirect' } });
    expect(response.body.next_action.url).toMatch(/^http:\/\/localhost:\d+\/i\/[a-z0-9]+$/);
    expect((await fetch(response.body.next_action.url)).status).toBe(200);

    // Without the document Asaas needs, the datum is named; a token still needs its own account.
    const noDocument = await api('POST', '/v1/payments', { key, idempotencyKey: randomUUID(), body: { method: 'card', amount: 4990, customer: { name: 'Sem Documento' } } });
    expect(noDocument.status).toBe(400);
    expect(noDocument.body.error).toMatchObject({ code: 'missing_document', param: 'customer.document' });
    const tokenAtAsaas = await api('POST', '/v1/payments', { key, idempotencyKey: randomUUID(), body: { method: 'card', amount: 4990, customer: CUSTOMER, card: { token: 'pm_card_visa' }, provider_account_id: asaasAccount } });
    expect(tokenAtAsaas.status).toBe(400);
    expect(tokenAtAsaas.body.error).toMatchObject({ code: 'parameter_invalid', param: 'card.token' });
  });

  it('card chosen on the page: the buyer pays on the Asaas page and our page shows it paid', async () => {
    const created = await createForChoice();
    await chooseCardAndLandOnAsaas(created.payment_url);
    const chosen = await readPayment(created.id);
    expect(chosen).toMatchObject({ status: 'pending', method: 'card', provider: 'asaas', next_action: { type: 'redirect', url: page.url() } });
    await page.screenshot({ path: path.join(ARTIFACTS, `payment-page-asaas-checkout-${created.id}.png`), fullPage: true });

    await typeCard('4111 1111 1111 1111');
    await Promise.all([page.waitForURL(page.url()), page.click('#pay')]);
    await page.waitForSelector('#invoice-status[data-status="CONFIRMED"]');
    await page.screenshot({ path: path.join(ARTIFACTS, `payment-page-asaas-confirmed-${created.id}.png`), fullPage: true });

    const paid = await eventually(async () => {
      const read = await readPayment(created.id);
      return read.status === 'succeeded' ? read : undefined;
    }, 'the card payment confirmed by the Asaas webhook', 15_000);
    expect(paid).toMatchObject({ method: 'card', provider: 'asaas', failure_code: null });
    expect(paid.events.map((e: { type: string }) => e.type)).toEqual(['payment.created', 'payment.pending', 'payment.succeeded']);

    await page.goto(created.payment_url);
    await page.waitForSelector('#final[data-final="succeeded"]');
    expect(await page.textContent('#final h2')).toBe('Pagamento confirmado');
    const shot = path.join(ARTIFACTS, `payment-page-card-paid-${created.id}.png`);
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`payment page screenshot (card paid at Asaas): ${shot}`);
  });

  it('a card declined on the Asaas page fails the payment with a Portuguese reason', async () => {
    const created = await createForChoice();
    await chooseCardAndLandOnAsaas(created.payment_url);
    await typeCard('4000 0000 0000 0002');
    await page.click('#pay');
    await page.waitForSelector('#card-error');
    expect(await page.textContent('#card-error')).toContain('Transação não autorizada');
    await page.screenshot({ path: path.join(ARTIFACTS, `payment-page-asaas-declined-${created.id}.png`), fullPage: true });

    const failed = await eventually(async () => {
      const read = await readPayment(created.id);
      return read.status === 'failed' ? read : undefined;
    }, 'the card payment failed by the Asaas decline webhook', 15_000);
    expect(failed).toMatchObject({ failure_code: 'card_declined', next_action: null });
    expect(failed.failure_reason).toContain('O banco emissor recusou o cartão');
    // The charge was removed at Asaas: the invoice can no longer be paid by another card.
    await page.reload();
    expect(await page.getAttribute('#invoice-status', 'data-status')).toBe('DELETED');

    await page.goto(created.payment_url);
    await page.waitForSelector('#final[data-final="failed"]');
    expect(await page.textContent('#final h2')).toBe('Pagamento não aprovado');
    await page.screenshot({ path: path.join(ARTIFACTS, `payment-page-card-failed-${created.id}.png`), fullPage: true });
  });

  it('boleto chosen on the page shows the digitable line', async () => {
    const created = await createForChoice();
    await page.goto(created.payment_url);
    await Promise.all([page.waitForURL(created.payment_url), page.click('button[data-method="boleto"]')]);
    const line = await page.locator('#digitable-line').textContent();
    expect(line).toMatch(/^\d{47}$/);
    // Asaas (priority 10) takes boleto before Stripe (20).
    expect(await readPayment(created.id)).toMatchObject({ status: 'pending', method: 'boleto', provider: 'asaas', next_action: { type: 'boleto', digitable_line: line } });
    const shot = path.join(ARTIFACTS, `payment-page-boleto-${created.id}.png`);
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`payment page screenshot (boleto): ${shot}`);
  });
});
