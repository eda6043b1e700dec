// The browser-side callbacks (page.evaluate) run in Chromium and use DOM types.
/// <reference lib="dom" />
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type FrameLocator, type Page } from 'playwright-core';
import { api } from './support/api';
import { stackInfo } from './support/stack-info';

// Card on the payment page through the card fields (issue 16 item 5): a payment created without a
// method at a merchant with a Stripe account (which charges vault cards), opened at pay/<id> in
// Debian's Chromium; the buyer picks card, types it in the platform's iframe, pays; Stripe's
// emulator approves 4242… and declines 4000 0000 0000 0002. The merchant restricts its card fields
// to its own site: the platform's own payment page may still show them.

const ARTIFACTS = path.resolve(__dirname, '../../../.local/e2e-artifacts');
const merchant = () => stackInfo().vaultMerchant;
const key = () => merchant().testKey;

async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

async function shot(page: Page, name: string): Promise<void> {
  const file = path.join(ARTIFACTS, `payment-page-card-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`payment page card screenshot: ${file}`);
}

/** The merchant's Stripe test account (the card fields suite may have connected one already). */
async function ensureStripeAccount(): Promise<string> {
  const listed = await api('GET', '/v1/provider-accounts', { key: key() });
  expect(listed.status).toBe(200);
  const existing = (listed.body.data as Array<{ id: string; provider: string; status?: string }>).find((account) => account.provider === 'stripe');
  if (existing) return existing.id;
  const secret = `sk_test_${randomBytes(12).toString('hex')}`;
  const registered = await fetch(`${stackInfo().controlUrls.stripe}/__control/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ secret_key: secret }),
  });
  expect(registered.status).toBeLessThan(300);
  const account = await api('POST', '/v1/provider-accounts', { key: key(), body: { provider: 'stripe', name: 'Stripe (cartões)', credentials: { secret_key: secret }, priority: 5 } });
  expect(account.status).toBe(201);
  return account.body.id as string;
}

async function createWithoutMethod(description: string) {
  const created = await api('POST', '/v1/payments', {
    key: key(),
    idempotencyKey: randomUUID(),
    body: { amount: 8990, description, customer: { name: 'Maria da Silva', document: '529.982.247-25', email: 'maria@exemplo.com.br' } },
  });
  expect({ status: created.status, error: created.body.error ?? null }).toEqual({ status: 201, error: null });
  expect(created.body).toMatchObject({ status: 'requires_method', method: null });
  return created.body as { id: string; payment_url: string };
}

async function fill(frame: FrameLocator, number: string): Promise<void> {
  await frame.getByLabel('Número do cartão').fill(number);
  await frame.getByLabel('Validade').fill('12/30');
  await frame.getByLabel('Código de segurança').fill('123');
}

describe('payment page: card through the card fields (Chromium, Stripe emulator)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];
  let stripeAccountId = '';

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    stripeAccountId = await ensureStripeAccount();
    // Only the merchant's own site may show its fields; the platform's payment page is not listed.
    const restricted = await api('PATCH', '/v1/cards/config', { key: key(), body: { allowed_origins: [merchant().demoUrl] } });
    expect(restricted.status).toBe(200);
  });
  afterAll(async () => {
    await api('PATCH', '/v1/cards/config', { key: key(), body: { allowed_origins: [] } }).catch(() => undefined);
    await browser?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ locale: 'pt-BR' });
    page = await context.newPage();
    consoleErrors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
  });
  afterEach(async () => {
    await context.close();
  });

  /** Opens pay/<id>, picks card, types `number` in the iframe and pays; answers the page once it settles. */
  async function payWithCard(paymentUrl: string, number: string, name: string): Promise<void> {
    const response = await page.goto(paymentUrl);
    expect(response?.status()).toBe(200);
    const cardButton = page.getByRole('button', { name: 'Cartão de crédito' });
    await cardButton.waitFor();
    expect(await cardButton.getAttribute('aria-expanded')).toBe('false');
    await cardButton.click();
    expect(await cardButton.getAttribute('aria-expanded')).toBe('true');
    const frame = page.frameLocator('iframe[title="Dados do cartão"]');
    await frame.getByLabel('Número do cartão').waitFor();
    // The page itself holds no card input (the iframe is the platform's, another document).
    const parentView = await page.evaluate(() => ({
      cardInputs: Array.from(document.querySelectorAll('input')).filter((input) => input.type !== 'hidden').length,
      frameSrc: (document.querySelector('#card-fields iframe') as HTMLIFrameElement).src,
    }));
    expect(parentView.cardInputs).toBe(0);
    expect(parentView.frameSrc.startsWith(`${new URL(stackInfo().baseUrl).origin}/cards/frame?`)).toBe(true);
    await fill(frame, number);
    await shot(page, `${name}-filled`);
    await page.getByRole('button', { name: /^Pagar R\$/ }).click();
    await page.locator('#final').waitFor({ timeout: 30_000 });
  }

  it('approves 4242 4242 4242 4242 typed in the iframe: the page shows the payment confirmed, the payment is succeeded at Stripe', async () => {
    const created = await createWithoutMethod('Pedido 42 (cartão na página)');
    await payWithCard(created.payment_url, '4242 4242 4242 4242', 'approved');
    expect(await page.locator('#final').getAttribute('data-final')).toBe('succeeded');
    expect(await page.getByRole('heading', { name: 'Pagamento confirmado' }).isVisible()).toBe(true);
    await shot(page, 'approved');
    const paid = await api('GET', `/v1/payments/${created.id}`, { key: key() });
    expect(paid.body).toMatchObject({ status: 'succeeded', method: 'card', provider: 'stripe', provider_account_id: stripeAccountId, amount: 8990 });
    expect(consoleErrors).toEqual([]);
  });

  it('declines 4000 0000 0000 0002: the page says the card was refused, in Portuguese, and the payment is failed', async () => {
    const created = await createWithoutMethod('Pedido 43 (cartão recusado)');
    await payWithCard(created.payment_url, '4000 0000 0000 0002', 'declined');
    expect(await page.locator('#final').getAttribute('data-final')).toBe('failed');
    expect(await page.getByRole('heading', { name: 'Pagamento não aprovado' }).isVisible()).toBe(true);
    expect(await page.locator('#final').textContent()).toContain('O banco emissor recusou o cartão.');
    await shot(page, 'declined');
    const failed = await api('GET', `/v1/payments/${created.id}`, { key: key() });
    expect(failed.body).toMatchObject({ status: 'failed', method: 'card', provider: 'stripe', failure_code: 'card_declined' });
    expect(consoleErrors).toEqual([]);
  });

  it('refuses a posted card token that is not the card fields tok_, and leaves the choice open', async () => {
    const created = await createWithoutMethod('Pedido 44');
    const answer = await fetch(created.payment_url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'method=card&card_token=pm_card_visa',
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('card.token deve ser o token (tok_…)');
    expect((await api('GET', `/v1/payments/${created.id}`, { key: key() })).body.status).toBe('requires_method');
  });
});
