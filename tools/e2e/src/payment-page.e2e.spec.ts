// The browser-side callbacks (page.evaluate) run in Chromium and use DOM types.
/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parsePix } from 'pix-utils';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import QRCode from 'qrcode';
import { api, createPix } from './support/api';
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
