/// <reference lib="dom" />
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { stackInfo } from './stack-info';

// What the dashboard's Chromium suites share (dashboard.e2e.spec.ts, dashboard-new-merchant.e2e.spec.ts):
// the probe of the gateway's dashboard API, the pages, screenshots and the labelled-controls check.

export const ARTIFACTS = path.resolve(__dirname, '../../../../.local/e2e-artifacts');
export const OWNER = { email: 'owner@orquestra.test', password: 'orquestra-dev-123' };

/**
 * What the running gateway offers, asked once when the file loads (jest decides skips before tests
 * run): the dashboard API of engineer A's side of issue 19, and the seeded owner's sign-in.
 */
function probeBackend(): { dashboardApi: boolean; seededOwner: boolean; oauthApps: boolean } {
  const script = `
    const base = process.argv[1];
    (async () => {
      const me = await fetch(base + '/dashboard/api/me');
      const body = await me.json().catch(() => ({}));
      const dashboardApi = !(me.status === 404 && body?.error?.code === 'route_not_found');
      let seededOwner = false;
      let oauthApps = false;
      if (dashboardApi) {
        const signIn = await fetch(base + '/dashboard/api/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(${JSON.stringify(OWNER)}) });
        seededOwner = signIn.status === 200;
        const cookie = (signIn.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
        if (seededOwner) oauthApps = (await fetch(base + '/dashboard/api/oauth/apps', { headers: { cookie } })).status === 200;
      }
      process.stdout.write(JSON.stringify({ dashboardApi, seededOwner, oauthApps }));
    })().catch(() => process.stdout.write('{"dashboardApi":false,"seededOwner":false,"oauthApps":false}'));`;
  const run = spawnSync(process.execPath, ['-e', script, stackInfo().baseUrl], { encoding: 'utf8', timeout: 15_000 });
  try {
    return JSON.parse(run.stdout) as { dashboardApi: boolean; seededOwner: boolean; oauthApps: boolean };
  } catch {
    return { dashboardApi: false, seededOwner: false, oauthApps: false };
  }
}

/** Asked once per test file, when it loads. */
export const backend = probeBackend();
export const NO_API = 'skipped: GET /dashboard/api/me answers 404 route_not_found (the dashboard API is not in this gateway yet)';
export const NO_OAUTH = 'skipped: GET /dashboard/api/oauth/apps does not answer 200 for the seeded owner (the OAuth routes are not in this gateway yet)';
export const NO_SEED = 'skipped: the stack seed has no owner@orquestra.test (payouts need the seeded merchant, its Efí account and saved Pix key)';

/** Every page of the navigation (and one payment), with the name of its screenshot. */
export const PAGES = (paymentId: string): Array<[string, string]> => [
  ['/pagamentos', 'payments'],
  [`/pagamentos/${paymentId}`, 'payment-detail'],
  ['/disputas', 'disputes'],
  ['/assinaturas', 'subscriptions'],
  ['/clientes', 'customers'],
  ['/saldos', 'balances'],
  ['/repasses', 'payouts'],
  ['/subcontas', 'subaccounts'],
  ['/provedores', 'provider-accounts'],
  ['/roteamento', 'routing'],
  ['/analises', 'analytics'],
  ['/conciliacao', 'reconciliation'],
  ['/integracoes', 'integrations'],
  ['/desenvolvedores/chaves', 'api-keys'],
  ['/desenvolvedores/webhooks', 'webhooks'],
  ['/desenvolvedores/oauth', 'oauth'],
  ['/desenvolvedores/auditoria', 'audit'],
  ['/conta', 'account'],
];

export const dashboardUrl = (route = '') => `${stackInfo().baseUrl}/dashboard${route}`;

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true });
}

/** Every form control of the page has an accessible name (a <label>, aria-label or aria-labelledby). */
export async function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('input, select, textarea'))
      .filter((element) => (element as HTMLInputElement).type !== 'hidden')
      .filter((element) => !((element as HTMLInputElement).labels?.length || element.getAttribute('aria-label') || element.getAttribute('aria-labelledby')))
      .map((element) => element.outerHTML.slice(0, 120)),
  );
}

/** Debian's Chromium, headless, as every browser suite launches it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}
