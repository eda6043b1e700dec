// The browser-side callbacks (page.evaluate) run in Chromium and use DOM types.
/// <reference lib="dom" />
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type FrameLocator, type Page } from 'playwright-core';
import { api } from './support/api';
import { stackInfo } from './support/stack-info';

// The card fields end to end (issue 16, spec §4 Saved cards): a merchant's page on another origin
// (the stack's demo merchant, tools/stack/src/demo-merchant.ts) loads /v1/cards/fields.js, the
// buyer types the card inside the platform's iframe in Debian's Chromium, the page tokenizes, the
// merchant's server saves the card, and the saved card is read and paid at the Stripe emulator.

const ARTIFACTS = path.resolve(__dirname, '../../../.local/e2e-artifacts');
const NUMBER = '4242424242424242';
const CUSTOMER = { name: 'Maria da Silva', document: '529.982.247-25', email: 'maria@exemplo.com.br' };

const merchant = () => stackInfo().vaultMerchant;
const full = () => merchant().testKey;
const restricted = () => merchant().restrictedTestKey;
const platformOrigin = () => new URL(stackInfo().baseUrl).origin;

async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

async function setAllowedOrigins(origins: string[]): Promise<void> {
  const answer = await api('PATCH', '/v1/cards/config', { key: full(), body: { allowed_origins: origins } });
  expect(answer.status).toBe(200);
  expect(answer.body.allowed_origins).toEqual(origins);
}

/** A tok_… as the iframe gets it (its Origin is the platform's), for the key checks below. */
async function tokenizeAsFrame(number = NUMBER): Promise<string> {
  const config = await api('GET', '/v1/cards/config', { key: full() });
  const answer = await fetch(`${stackInfo().baseUrl}/v1/cards/tokenize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: platformOrigin() },
    body: JSON.stringify({ publishable_key: config.body.publishable_key, origin: merchant().demoUrl, number, exp_month: 12, exp_year: 2030, cvc: '123' }),
  });
  const body = (await answer.json()) as Record<string, any>;
  expect({ status: answer.status, body }).toMatchObject({ status: 201, body: { token: expect.stringMatching(/^tok_/) } });
  return body.token as string;
}

async function fill(frame: FrameLocator, card: { number: string; expiry: string; cvc: string }): Promise<void> {
  await frame.getByLabel('Número do cartão').fill(card.number);
  await frame.getByLabel('Validade').fill(card.expiry);
  await frame.getByLabel('Código de segurança').fill(card.cvc);
}

async function shot(page: Page, name: string): Promise<void> {
  const file = path.join(ARTIFACTS, `card-fields-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`card fields screenshot: ${file}`);
}

describe('card fields, saved cards and paying a saved card', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];
  let cardId = '';
  let fingerprint = '';
  let stripeAccountId = '';

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await setAllowedOrigins([]).catch(() => undefined);
    await browser?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ locale: 'pt-BR' });
    page = await context.newPage();
    consoleErrors = [];
    page.on('pageerror', (error) => consoleErrors.push(error.message));
  });
  afterEach(async () => {
    await context.close();
  });

  it('answers the config with the script, a publishable key and the allowed sites; only full keys change them', async () => {
    const config = await api('GET', '/v1/cards/config', { key: restricted() });
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ object: 'cards_config', mode: 'test', script: `${stackInfo().baseUrl}/v1/cards/fields.js`, publishable_key: expect.stringMatching(/^pk_test_/), enabled: true });
    const refused = await api('PATCH', '/v1/cards/config', { key: restricted(), body: { allowed_origins: [] } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'restricted_key' });
    await setAllowedOrigins([merchant().demoUrl]);
  });

  it('in Chromium: the fields live in the platform iframe, check the card in Portuguese, tokenize, and the merchant saves the card', async () => {
    const response = await page.goto(merchant().demoUrl);
    expect(response?.status()).toBe(200);
    const frame = page.frameLocator('iframe[title="Dados do cartão"]');
    await frame.getByLabel('Número do cartão').waitFor();

    // The merchant's page cannot reach into the iframe (another origin): no input of the card is in its DOM.
    const parentView = await page.evaluate(() => ({
      inputs: document.querySelectorAll('input').length,
      frameDocument: (document.querySelector('iframe') as HTMLIFrameElement).contentDocument === null,
      frameSrc: (document.querySelector('iframe') as HTMLIFrameElement).src,
    }));
    expect(parentView).toMatchObject({ inputs: 1, frameDocument: true });
    expect(parentView.frameSrc.startsWith(`${platformOrigin()}/cards/frame?`)).toBe(true);

    // A wrong check digit, a past expiry and a short code: refused in the browser, each field says why.
    await fill(frame, { number: '4242 4242 4242 4241', expiry: '01/20', cvc: '12' });
    await page.getByRole('button', { name: 'Salvar cartão' }).click();
    await page.waitForFunction(() => (window as any).demo.error !== null);
    const refused = await page.evaluate(() => (window as any).demo.error);
    expect(refused.errors.map((e: { field: string }) => e.field)).toEqual(['number', 'expiry', 'cvc']);
    expect(refused.errors[0].message).toContain('Número do cartão inválido');
    expect(refused.errors[1].message).toContain('vencido');
    expect(await frame.locator('#number-error').textContent()).toMatch(/Número do cartão inválido/);
    await shot(page, 'invalid');

    // Typing formats the number and shows the brand.
    await frame.getByLabel('Número do cartão').fill('');
    await frame.getByLabel('Número do cartão').pressSequentially(NUMBER);
    expect(await frame.getByLabel('Número do cartão').inputValue()).toBe('4242 4242 4242 4242');
    expect(await frame.locator('#brand').textContent()).toBe('Visa');
    await frame.getByLabel('Validade').fill('');
    await frame.getByLabel('Validade').pressSequentially('1230');
    expect(await frame.getByLabel('Validade').inputValue()).toBe('12/30');
    await frame.getByLabel('Código de segurança').fill('123');
    // Keyboard: Tab walks number → expiry → code inside the iframe.
    await frame.getByLabel('Número do cartão').focus();
    await page.keyboard.press('Tab');
    expect(await frame.getByLabel('Validade').evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await frame.getByLabel('Código de segurança').evaluate((element) => element === document.activeElement)).toBe(true);

    await page.evaluate(() => ((window as any).demo.error = null));
    await page.getByRole('button', { name: 'Salvar cartão' }).click();
    await page.waitForFunction(() => (window as any).demo.saved !== null || (window as any).demo.error !== null, undefined, { timeout: 15_000 });
    const { tokenized, saved, error } = await page.evaluate(() => (window as any).demo);
    expect(error).toBeNull();
    expect(tokenized).toEqual({ token: expect.stringMatching(/^tok_/), brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 });
    expect(saved).toMatchObject({ object: 'card', brand: 'visa', last4: '4242', holder_name: 'MARIA DA SILVA', customer: expect.stringMatching(/^cus_/) });
    cardId = saved.id as string;
    await shot(page, 'tokenized');
    expect(consoleErrors).toEqual([]);
  });

  it('reads the saved card: brand, last4, expiry, fingerprint, customer, security code kept for now; the same number has the same fingerprint', async () => {
    expect(cardId).toMatch(/^card_/);
    const card = await api('GET', `/v1/cards/${cardId}`, { key: full() });
    expect(card.status).toBe(200);
    expect(card.body).toMatchObject({ id: cardId, object: 'card', mode: 'test', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 });
    expect(card.body.fingerprint).toEqual(expect.any(String));
    expect(card.body.fingerprint.length).toBeGreaterThan(8);
    expect(card.body.fingerprint).not.toContain('4242');
    expect(new Date(card.body.cvc_available_until).getTime()).toBeGreaterThan(Date.now());
    fingerprint = card.body.fingerprint;

    const again = await api('POST', '/v1/cards', { key: full(), body: { vault_token: await tokenizeAsFrame(), holder_name: 'MARIA DA SILVA', customer: CUSTOMER } });
    expect(again.status).toBe(201);
    expect(again.body.fingerprint).toBe(fingerprint);
    // The same CPF: the same customer.
    expect(again.body.customer).toBe(card.body.customer);
    const listed = await api('GET', `/v1/cards?customer_id=${card.body.customer}&limit=1`, { key: full() });
    expect(listed.body).toMatchObject({ object: 'list', has_more: true, data: [{ id: again.body.id }] });
    const next = await api('GET', `/v1/cards?customer_id=${card.body.customer}&limit=1&starting_after=${again.body.id}`, { key: full() });
    expect(next.body.data.map((c: { id: string }) => c.id)).toContain(cardId);
  });

  it('a token is used once', async () => {
    const token = await tokenizeAsFrame();
    const first = await api('POST', '/v1/cards', { key: full(), body: { vault_token: token, holder_name: 'MARIA', customer: CUSTOMER } });
    expect(first.status).toBe(201);
    const second = await api('POST', '/v1/cards', { key: full(), body: { vault_token: token, holder_name: 'MARIA', customer: CUSTOMER } });
    expect(second.status).toBeGreaterThanOrEqual(400);
    expect(second.body.error.param).toBe('vault_token');
  });

  it('a restricted key saves a card but cannot delete one (403 restricted_key)', async () => {
    const saved = await api('POST', '/v1/cards', { key: restricted(), body: { vault_token: await tokenizeAsFrame('5555555555554444'), holder_name: 'JOAO', customer: { name: 'João', document: '529.982.247-25' } } });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ brand: 'mastercard', last4: '4444' });
    const refused = await api('DELETE', `/v1/cards/${saved.body.id}`, { key: restricted() });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'restricted_key' });
    expect((await api('GET', `/v1/cards/${saved.body.id}`, { key: full() })).status).toBe(200);
  });

  it('a live key does not see the test card', async () => {
    const live = await api('GET', `/v1/cards/${cardId}`, { key: merchant().liveKey });
    expect(live.status).toBe(404);
    const list = await api('GET', '/v1/cards?limit=100', { key: merchant().liveKey });
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { id: string }) => c.id)).not.toContain(cardId);
    const liveConfig = await api('GET', '/v1/cards/config', { key: merchant().liveKey });
    expect(liveConfig.body.publishable_key).toMatch(/^pk_live_/);
  });

  it('refuses a site that is not allowed: the iframe shows only the refusal and tokenize() rejects; the tokenize call refuses it too', async () => {
    await setAllowedOrigins(['https://loja.exemplo.com.br']);
    try {
      await page.goto(merchant().demoUrl);
      const frame = page.frameLocator('iframe[title="Dados do cartão"]');
      await frame.getByRole('alert').waitFor();
      expect(await frame.getByRole('alert').textContent()).toContain('não está autorizado');
      expect(await frame.locator('input').count()).toBe(0);
      await page.getByRole('button', { name: 'Salvar cartão' }).click();
      await page.waitForFunction(() => (window as any).demo.error !== null);
      const error = await page.evaluate(() => (window as any).demo.error);
      expect(error.errors).toEqual([{ field: 'origin', message: expect.stringContaining('não está autorizado') }]);
      await shot(page, 'refused-origin');

      const config = await api('GET', '/v1/cards/config', { key: full() });
      const direct = await fetch(`${stackInfo().baseUrl}/v1/cards/tokenize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: platformOrigin() },
        body: JSON.stringify({ publishable_key: config.body.publishable_key, origin: merchant().demoUrl, number: NUMBER, exp_month: 12, exp_year: 2030, cvc: '123' }),
      });
      expect(direct.status).toBeGreaterThanOrEqual(400);
      expect(((await direct.json()) as any).error.param).toBe('origin');
      // And from the merchant's own page (not the iframe), whatever the origin: refused at the edge.
      const fromPage = await fetch(`${stackInfo().baseUrl}/v1/cards/tokenize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: merchant().demoUrl },
        body: JSON.stringify({ publishable_key: config.body.publishable_key, origin: merchant().demoUrl, number: NUMBER, exp_month: 12, exp_year: 2030, cvc: '123' }),
      });
      expect(fromPage.status).toBe(400);
    } finally {
      await setAllowedOrigins([merchant().demoUrl]);
    }
  });

  it('the frame page is framed only by the allowed site (CSP frame-ancestors) and no card data reaches a service log', async () => {
    const config = await api('GET', '/v1/cards/config', { key: full() });
    const frame = await fetch(`${stackInfo().baseUrl}/cards/frame?pk=${config.body.publishable_key}&origin=${encodeURIComponent(merchant().demoUrl)}`);
    expect(frame.status).toBe(200);
    expect(frame.headers.get('content-security-policy')).toContain(`frame-ancestors ${merchant().demoUrl}`);
    const dir = stackInfo().logDir;
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.log') && !name.includes('emulator'))) {
      const text = readFileSync(path.join(dir, file), 'utf8');
      expect({ file, leaks: text.includes(NUMBER) || text.includes('5555555555554444') }).toEqual({ file, leaks: false });
    }
  });

  it('pays the saved card (card.id) at the Stripe test account, and the security code is gone after the approval', async () => {
    const secret = `sk_test_${randomBytes(12).toString('hex')}`;
    const registered = await fetch(`${stackInfo().controlUrls.stripe}/__control/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret_key: secret }),
    });
    expect(registered.status).toBeLessThan(300);
    const account = await api('POST', '/v1/provider-accounts', { key: full(), body: { provider: 'stripe', name: 'Stripe (cartões)', credentials: { secret_key: secret }, priority: 5 } });
    expect(account.status).toBe(201);
    stripeAccountId = account.body.id as string;

    const body = { method: 'card', amount: 4990, description: 'Pedido com cartão salvo', customer: CUSTOMER, card: { id: cardId }, provider_account_id: account.body.id };
    const bot = await api('POST', '/v1/payments', { key: restricted(), idempotencyKey: randomUUID(), body });
    expect(bot.status).toBe(403);
    expect(bot.body.error).toMatchObject({ code: 'restricted_key' });

    const paid = await api('POST', '/v1/payments', { key: full(), idempotencyKey: randomUUID(), body });
    expect({ status: paid.status, error: paid.body.error ?? null }).toEqual({ status: 201, error: null });
    expect(paid.body).toMatchObject({ method: 'card', status: 'succeeded', provider: 'stripe', provider_account_id: account.body.id, amount: 4990 });
    const card = await api('GET', `/v1/cards/${cardId}`, { key: full() });
    expect(card.body.cvc_available_until).toBeNull();
  });

  it('deletes the card with a full key: gone from the API, and charging it is invalid_card', async () => {
    const deleted = await api('DELETE', `/v1/cards/${cardId}`, { key: full() });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: cardId, deleted: true });
    expect((await api('GET', `/v1/cards/${cardId}`, { key: full() })).status).toBe(404);
    const charged = await api('POST', '/v1/payments', {
      key: full(),
      idempotencyKey: randomUUID(),
      body: { method: 'card', amount: 1990, customer: CUSTOMER, card: { id: cardId }, provider_account_id: stripeAccountId },
    });
    expect(charged.status).toBe(402);
    expect(charged.body.error).toMatchObject({ code: 'invalid_card' });
  });
});
