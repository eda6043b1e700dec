// The browser-side callbacks (page.evaluate) run in Chromium and use DOM types.
/// <reference lib="dom" />
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { api } from './support/api';
import { stackInfo } from './support/stack-info';

// Tracking capture end to end (issue 17, spec §2 Tracking and §4 "Payment link address"): the
// merchant's site (the stack's demo merchant, tools/stack/src/demo-merchant.ts, another origin)
// loads /v1/tracking.js; a landing opened with UTMs stores them, the next page's payment links
// carry them, and the payment page opened from the link stores them on the payment, under the
// rule that values sent at creation win. In Debian's Chromium.

const ARTIFACTS = path.resolve(__dirname, '../../../.local/e2e-artifacts');
const LANDING_KEYS = { utm_source: 'facebook', utm_campaign: 'bf', fbclid: 'ABC' };
const LANDING_QUERY = 'utm_source=facebook&utm_campaign=bf&fbclid=ABC';

const merchant = () => stackInfo().vaultMerchant;
const key = () => merchant().testKey;

async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

/** A payment of the demo merchant awaiting the buyer's method (its page offers the methods). */
async function createPayment(tracking?: Record<string, string>): Promise<{ id: string; payment_url: string; tracking: Record<string, string> }> {
  const answer = await api('POST', '/v1/payments', {
    key: key(),
    idempotencyKey: randomUUID(),
    body: { amount: 19990, description: 'Tênis de corrida', customer: { name: 'Joana Souza', email: 'joana@example.com' }, ...(tracking ? { tracking } : {}) },
  });
  expect(answer.status).toBe(201);
  return answer.body as { id: string; payment_url: string; tracking: Record<string, string> };
}

const trackingOf = async (id: string) => {
  const answer = await api('GET', `/v1/payments/${id}`, { key: key() });
  expect(answer.status).toBe(200);
  return answer.body.tracking as Record<string, string>;
};

async function shot(page: Page, name: string): Promise<void> {
  const file = path.join(ARTIFACTS, `tracking-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`tracking screenshot: ${file}`);
}

describe('tracking capture: merchant-site script → payment link → payment page (Chromium)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ locale: 'pt-BR' });
    page = await context.newPage();
    pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });
  afterEach(async () => {
    await context.close();
  });

  it('serves the script publicly as JavaScript with an hour of cache', async () => {
    const response = await fetch(`${stackInfo().baseUrl}/v1/tracking.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const text = await response.text();
    // The platform's own payment base is a payment host of the script.
    const payBase = new URL((await createPayment()).payment_url);
    expect(text).toContain(JSON.stringify(`${payBase.host}${payBase.pathname.replace(/\/pay_[^/]+$/, '')}`));
    expect(text.length).toBeLessThan(6000);
  });

  it('landing with UTMs → next page → the payment links carry them (a link with its own UTMs is left whole) → the payment stores them (creation values win)', async () => {
    const fromAd = await createPayment({ utm_source: 'instagram' });
    const fromEmail = await createPayment();
    expect(fromAd.tracking).toEqual({ utm_source: 'instagram' });

    // The landing of the campaign, on the merchant's own origin.
    const landing = `${merchant().demoUrl}/loja?${LANDING_QUERY}&payment=${fromAd.id}&email_payment=${fromEmail.id}`;
    expect((await page.goto(landing))?.status()).toBe(200);
    await page.waitForFunction(() => typeof (window as any).Orquestra?.utm === 'function');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('orquestra_utm') ?? 'null'));
    expect(stored.v).toEqual(LANDING_KEYS);
    // data-days="30": kept for 30 days from now.
    expect(Math.abs(stored.exp - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);
    await shot(page, 'landing');

    // Another page of the shop, without UTMs in its address.
    await Promise.all([page.waitForURL(/\/checkout\?/), page.click('#to-checkout')]);
    expect(new URL(page.url()).searchParams.has('utm_source')).toBe(false);
    await page.waitForFunction(() => (document.getElementById('pay') as HTMLAnchorElement).href.includes('fbclid='));
    const hrefs = await page.evaluate(() =>
      Object.fromEntries(['pay', 'pay-email', 'custom-host', 'other-site'].map((id) => [id, (document.getElementById(id) as HTMLAnchorElement).href])),
    );
    expect(hrefs).toEqual({
      pay: `${fromAd.payment_url}?${LANDING_QUERY}`,
      // The e-mail link carries its own attribution: left whole (campaigns are never mixed).
      'pay-email': `${fromEmail.payment_url}?utm_source=newsletter`,
      // A custom payment domain named in data-hosts.
      'custom-host': `https://pay.loja.example/pay_demo?${LANDING_QUERY}`,
      'other-site': 'https://www.example.org/blog',
    });

    await shot(page, 'checkout');

    // utm() and withUtm(url) as documented; a link added after load is decorated when clicked.
    const helpers = await page.evaluate((payUrl) => {
      const orquestra = (window as any).Orquestra;
      const late = document.createElement('a');
      late.href = payUrl;
      late.textContent = 'late';
      document.body.appendChild(late);
      late.addEventListener('click', (event) => event.preventDefault());
      late.click();
      return {
        utm: orquestra.utm(),
        whatsapp: orquestra.withUtm('https://wa.me/5511999999999?text=oi'),
        ownCampaign: orquestra.withUtm(`${payUrl}?utm_campaign=own`),
        late: late.href,
      };
    }, fromAd.payment_url);
    expect(helpers).toEqual({
      utm: LANDING_KEYS,
      whatsapp: `https://wa.me/5511999999999?text=oi&${LANDING_QUERY}`,
      ownCampaign: `${fromAd.payment_url}?utm_campaign=own`,
      late: `${fromAd.payment_url}?${LANDING_QUERY}`,
    });

    // The buyer clicks: the payment page opens with the UTMs in its address.
    const [opened] = await Promise.all([page.waitForResponse((response) => response.url().startsWith(fromAd.payment_url)), page.click('#pay')]);
    expect(opened.status()).toBe(200);
    expect(page.url()).toBe(`${fromAd.payment_url}?${LANDING_QUERY}`);
    await page.locator('#amount').waitFor();
    expect(await page.textContent('#amount')).toBe('R$ 199,90');
    await shot(page, 'payment-page');
    // Stored before the page was answered; utm_source sent at creation wins over the link's.
    expect(await trackingOf(fromAd.id)).toEqual({ utm_source: 'instagram', utm_campaign: 'bf', fbclid: 'ABC' });

    // Back at the shop, the e-mail link: its own utm_source reaches the payment.
    await page.goBack();
    await page.waitForFunction(() => (document.getElementById('pay') as HTMLAnchorElement).href.includes('fbclid='));
    await Promise.all([page.waitForURL(`${fromEmail.payment_url}?utm_source=newsletter`), page.click('#pay-email')]);
    await page.locator('#amount').waitFor();
    expect(await trackingOf(fromEmail.id)).toEqual({ utm_source: 'newsletter' });

    // A later visit with other values fills only what is still absent (the first visit won).
    expect((await page.goto(`${fromAd.payment_url}?utm_campaign=other&gclid=G1`))?.status()).toBe(200);
    expect(await trackingOf(fromAd.id)).toEqual({ utm_source: 'instagram', utm_campaign: 'bf', fbclid: 'ABC', gclid: 'G1' });
    expect(pageErrors).toEqual([]);
  });

  it('a new landing with UTMs replaces the stored set (last touch); pages without UTMs keep it', async () => {
    const payment = await createPayment();
    await page.goto(`${merchant().demoUrl}/loja?${LANDING_QUERY}`);
    await page.waitForFunction(() => typeof (window as any).Orquestra?.utm === 'function');
    await page.goto(`${merchant().demoUrl}/loja?utm_source=tiktok&ttclid=T1&payment=${payment.id}`);
    await page.waitForFunction(() => typeof (window as any).Orquestra?.utm === 'function');
    await Promise.all([page.waitForURL(/\/checkout\?/), page.click('#to-checkout')]);
    await page.waitForFunction(() => (document.getElementById('pay') as HTMLAnchorElement).href.includes('ttclid='));
    expect(await page.evaluate(() => (window as any).Orquestra.utm())).toEqual({ utm_source: 'tiktok', ttclid: 'T1' });
    expect(await page.evaluate(() => (document.getElementById('pay') as HTMLAnchorElement).href)).toBe(`${payment.payment_url}?utm_source=tiktok&ttclid=T1`);
  });

  it('the payment page ignores tracking values over 500 characters and other parameters', async () => {
    const payment = await createPayment();
    const response = await fetch(`${payment.payment_url}?utm_term=${'t'.repeat(501)}&utm_content=ok&utm_id=7&ref=x`);
    expect(response.status).toBe(200);
    expect(await trackingOf(payment.id)).toEqual({ utm_content: 'ok' });
  });

  it('refuses an unknown tracking key at creation (400, param tracking, naming the key in Portuguese)', async () => {
    for (const [path, body] of [
      ['/v1/payments', { amount: 1000, description: 'x', customer: { name: 'Joana Souza' }, tracking: { utm_foo: 'x' } }],
      ['/v1/subscriptions', { customer: { name: 'Joana Souza', document: '529.982.247-25' }, frequency: 'monthly', amount: 1000, tracking: { utm_foo: 'x' } }],
    ] as const) {
      const answer = await api('POST', path, { key: key(), idempotencyKey: randomUUID(), body });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'parameter_invalid', param: 'tracking' });
      expect(answer.body.error.message).toContain('tracking.utm_foo não é aceita');
    }
  });
});
