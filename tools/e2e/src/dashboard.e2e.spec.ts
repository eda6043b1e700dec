// The browser-side callbacks (page.evaluate) run in Chromium and use DOM types.
/// <reference lib="dom" />
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { api, pixPayment } from './support/api';
import { ARTIFACTS, NO_API, NO_OAUTH, NO_SEED, OWNER, PAGES, backend, dashboardUrl, launchChromium, shot, unlabelledControls } from './support/dashboard';
import { stackInfo } from './support/stack-info';

// The owner's dashboard (issue 19) in Debian's Chromium against the whole stack, as the seeded
// owner: the static mount, signing in, a restricted test key created in the UI, used from here on
// /v1, revoked in the UI and refused at once; payouts by API turned off and on in the UI around a
// payout by API; a refund, a webhook endpoint, dispute evidence and an OAuth app done in the UI; an
// axe-core audit and every page visited (no script error, a title, labelled controls) and
// screenshotted to the artifacts. New merchants (sign-up, TOTP, providers): dashboard-new-merchant.e2e.spec.ts.
// Over 300 lines as one suite because its steps share one signed-in page in order (the key revoked
// early is looked for in the audit log at the end).

describe('dashboard: the static app at /dashboard', () => {
  it('serves index.html for every app route with a same-origin CSP, and its hashed assets with their types', async () => {
    for (const route of ['', '/', '/pagamentos', '/desenvolvedores/chaves']) {
      const answer = await fetch(dashboardUrl(route));
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('content-security-policy')).toContain("default-src 'self'");
      const html = await answer.text();
      expect(html).toContain('<html lang="pt-BR">');
      const script = /src="(\/dashboard\/assets\/app-[^"]+\.js)"/.exec(html)?.[1];
      const style = /href="(\/dashboard\/assets\/app-[^"]+\.css)"/.exec(html)?.[1];
      expect(script && style).toBeTruthy();
      const js = await fetch(`${stackInfo().baseUrl}${script}`);
      expect({ status: js.status, type: js.headers.get('content-type') }).toEqual({ status: 200, type: 'text/javascript; charset=utf-8' });
      expect(js.headers.get('cache-control')).toContain('immutable');
      const css = await fetch(`${stackInfo().baseUrl}${style}`);
      expect({ status: css.status, type: css.headers.get('content-type') }).toEqual({ status: 200, type: 'text/css; charset=utf-8' });
    }
    expect((await fetch(dashboardUrl('/assets/nope.js'))).status).toBe(404);
  });
});
(backend.dashboardApi ? describe : describe.skip)(`dashboard in Chromium${backend.dashboardApi ? '' : ` (${NO_API})`}`, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  let paymentId = '';

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    context = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Something to list: a paid Pix of the seeded merchant (simulated in test mode).
    const created = await api('POST', '/v1/payments', { body: pixPayment({ amount: 4990, description: 'Pedido do painel', tracking: { utm_source: 'instagram' } }), idempotencyKey: randomUUID() });
    expect(created.status).toBe(201);
    paymentId = created.body.id as string;
    expect((await api('POST', `/v1/payments/${paymentId}/simulate`)).status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs in (seeded owner, or a merchant signed up through the UI), in test mode, marked as such', async () => {
    await page.goto(dashboardUrl('/'));
    await page.getByRole('heading', { name: 'Entrar no painel' }).waitFor();
    expect(await unlabelledControls(page)).toEqual([]);
    await shot(page, 'sign-in');
    if (backend.seededOwner) {
      await page.getByLabel('E-mail').fill(OWNER.email);
      await page.getByLabel('Senha').fill(OWNER.password);
      await page.getByRole('button', { name: 'Entrar' }).click();
    } else {
      await page.getByRole('link', { name: 'Criar conta' }).click();
      await page.getByRole('heading', { name: 'Criar conta' }).waitFor();
      await shot(page, 'sign-up');
      await page.getByLabel('Nome da empresa').fill('Loja do Painel E2E');
      await page.getByLabel('E-mail').fill(`dono-${randomUUID().slice(0, 8)}@exemplo.com.br`);
      await page.getByLabel('Senha').fill('uma-senha-longa-123');
      await page.getByRole('button', { name: 'Criar conta' }).click();
    }
    await page.getByRole('heading', { level: 1, name: 'Pagamentos' }).waitFor();
    expect(page.url()).toBe(dashboardUrl('/pagamentos'));
    expect(await page.getByRole('note').textContent()).toContain('Modo de teste');
    expect(await page.getByRole('radio', { name: 'Teste' }).isChecked()).toBe(true);
    // Keyboard, on a fresh load: the first Tab reaches the skip link, which leads to the main content.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Pagamentos' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Pular para o conteúdo');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('conteudo');
  });

  it('creates a restricted test key in the UI, whose secret works on /v1 until it is revoked in the UI', async () => {
    await page.getByRole('link', { name: 'Chaves de API' }).click();
    await page.getByRole('heading', { level: 1, name: 'Chaves de API' }).waitFor();
    const name = `Bot e2e ${randomUUID().slice(0, 6)}`;
    const form = page.getByRole('form', { name: 'Nova chave de API' });
    await form.getByLabel('Nome').fill(name);
    await form.getByLabel('Tipo').selectOption('restricted');
    await form.getByLabel('Modo').selectOption('test');
    await form.getByRole('button', { name: 'Criar chave' }).click();
    const secretField = page.locator('.secret input');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^svc_test_/);
    await shot(page, 'api-key-created');

    // The restricted key creates a payment and lists only its own.
    const created = await api('POST', '/v1/payments', { key: secret, body: pixPayment(), idempotencyKey: randomUUID() });
    expect(created.status).toBe(201);
    const own = await api('GET', '/v1/payments', { key: secret });
    expect(own.status).toBe(200);
    expect((own.body.data as Array<{ id: string }>).map((payment) => payment.id)).toEqual([created.body.id]);
    // It stays restricted: no refunds.
    expect((await api('POST', `/v1/payments/${paymentId}/refund`, { key: secret, body: {}, idempotencyKey: randomUUID() })).status).toBe(403);

    // Listed with its last 4 and creator; revoked through the confirmation dialog.
    const row = page.locator('tr', { hasText: name });
    await row.waitFor();
    expect(await row.textContent()).toContain(secret.slice(-4));
    await row.getByRole('button', { name: 'Revogar', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await shot(page, 'api-key-revoke-dialog');
    await dialog.getByRole('button', { name: 'Revogar chave' }).click();
    await row.getByText('Revogada em').waitFor();

    // At once, on every route.
    const refused = await api('GET', '/v1/payments', { key: secret });
    expect(refused.status).toBe(401);
    expect((await api('POST', '/v1/payments', { key: secret, body: pixPayment(), idempotencyKey: randomUUID() })).status).toBe(401);
    await shot(page, 'api-keys');
  });

  (backend.seededOwner ? it : it.skip)(`turns payouts by API off and on in the UI around a payout by API${backend.seededOwner ? '' : ` (${NO_SEED})`}`, async () => {
    const info = stackInfo();
    const payout = (amount: number) =>
      api('POST', '/v1/payouts', {
        body: { provider_account_id: info.testProviderAccountId, amount, destination: { type: 'pix_key', destination_id: info.payoutDestinationId }, description: 'Retirada pelo painel (e2e)' },
        idempotencyKey: randomUUID(),
      });
    const credited = await fetch(`${info.efiControlUrl}/__control/balance/credit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: info.emulatorClientId, amount: 100_000 }),
    });
    expect(credited.status).toBeLessThan(300);

    await page.getByRole('link', { name: 'Repasses' }).click();
    await page.getByRole('heading', { level: 1, name: 'Repasses' }).waitFor();
    const toggle = page.getByLabel('Permitir repasses pela API neste modo');
    await toggle.waitFor();
    const save = async (on: boolean) => {
      await toggle.setChecked(on);
      await page.getByLabel('Limite diário (R$)').fill('1.000.000,00');
      await page.getByRole('button', { name: 'Salvar', exact: true }).click();
      await page.getByText('Configuração salva.').waitFor();
    };

    await save(false);
    const refused = await payout(1_000);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'payouts_api_disabled' });

    await save(true);
    const made = await payout(1_000);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ object: 'payout', amount: 1_000, destination: { type: 'pix_key', destination_id: info.payoutDestinationId } });
    await page.reload();
    await page.getByText(made.body.id as string).waitFor();
    await shot(page, 'payouts');
  });

  it('refunds part of a payment, finds it by search and status, and creates a webhook endpoint (secret shown once, then rotated) in the UI', async () => {
    await page.goto(dashboardUrl(`/pagamentos/${paymentId}`));
    const refundForm = page.getByRole('form', { name: 'Estornar pagamento' });
    await refundForm.getByLabel('Valor (R$)').fill('10,00');
    await refundForm.getByLabel('Motivo').fill('Produto devolvido');
    await refundForm.getByRole('button', { name: 'Estornar', exact: true }).click();
    await page.getByText(/Estorno re_\w+ de R\$ 10,00 pedido\./).waitFor();
    const read = await api('GET', `/v1/payments/${paymentId}`);
    expect(read.body.refunds).toEqual([expect.objectContaining({ amount: 1000, reason: 'Produto devolvido' })]);

    // The list's search and filters are the API's: this payment by its id, then by its new status.
    await page.goto(dashboardUrl('/pagamentos'));
    const filters = page.getByRole('search', { name: 'Filtrar pagamentos' });
    await filters.getByLabel('Buscar').fill(paymentId);
    await filters.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForFunction((id) => {
      const rows = document.querySelectorAll('main tbody tr');
      return rows.length === 1 && rows[0]?.textContent?.includes(id);
    }, paymentId);
    await filters.getByLabel('Buscar').fill('');
    await filters.getByLabel('Situação').selectOption('partially_refunded');
    await filters.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForFunction(() => Array.from(document.querySelectorAll('main tbody tr')).every((row) => row.textContent?.includes('Estornado em parte')));
    await page.locator('main table a', { hasText: paymentId }).waitFor();

    await page.goto(dashboardUrl('/desenvolvedores/webhooks'));
    const form = page.getByRole('form', { name: 'Novo endpoint de webhook' });
    await form.getByLabel('URL').fill('https://loja.exemplo.com.br/webhooks/orquestra');
    await form.getByRole('button', { name: 'Criar endpoint' }).click();
    const secret = await page.locator('.secret input').inputValue();
    expect(secret.length).toBeGreaterThan(16);
    await page.getByRole('button', { name: 'Já copiei' }).click();
    const row = page.locator('tr', { hasText: 'loja.exemplo.com.br' });
    await row.getByRole('button', { name: 'Trocar segredo' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Trocar segredo' }).click();
    const rotated = await page.locator('.secret input').inputValue();
    expect(rotated).not.toBe(secret);
    await row.getByRole('button', { name: 'Entregas' }).click();
    await page.getByRole('heading', { name: /Entregas de we_/ }).waitFor();
    await shot(page, 'webhook-created');
  });

  it('answers an open MED dispute with evidence in the UI', async () => {
    const paid = await api('POST', '/v1/payments', { body: pixPayment({ amount: 3000 }), idempotencyKey: randomUUID() });
    expect((await api('POST', `/v1/payments/${paid.body.id}/simulate`)).status).toBe(200);
    const dispute = await api('POST', `/v1/payments/${paid.body.id}/simulate-dispute`, { body: {} });
    expect(dispute.status).toBe(201);

    await page.goto(dashboardUrl('/disputas'));
    const row = page.locator('tr', { hasText: dispute.body.id as string });
    await row.getByRole('button', { name: 'Enviar provas' }).click();
    const form = page.getByRole('form', { name: 'Enviar provas' });
    await form.getByLabel('Explicação').fill('O comprador recebeu o produto: entrega confirmada pelos Correios.');
    await form.getByLabel('Links de comprovantes').fill('https://loja.exemplo.com.br/entregas/123.pdf');
    await shot(page, 'dispute-evidence');
    await form.getByRole('button', { name: 'Enviar provas' }).click();
    await row.getByText('Provas enviadas em').waitFor();
    const read = await api('GET', `/v1/disputes/${dispute.body.id}`);
    expect(read.body.evidence).toMatchObject({ text: expect.stringContaining('entrega confirmada'), urls: ['https://loja.exemplo.com.br/entregas/123.pdf'] });
  });

  (backend.oauthApps ? it : it.skip)(`registers an OAuth app (client secret shown once) and deletes it in the UI${backend.oauthApps ? '' : ` (${NO_OAUTH})`}`, async () => {
    await page.goto(dashboardUrl('/desenvolvedores/oauth'));
    const form = page.getByRole('form', { name: 'Registrar app OAuth' });
    const name = `App E2E ${randomUUID().slice(0, 6)}`;
    await form.getByLabel('Nome do app').fill(name);
    await form.getByLabel('URLs de redirecionamento').fill('https://app.exemplo.com.br/oauth/callback');
    await form.getByRole('button', { name: 'Registrar app' }).click();
    const secret = await page.locator('.secret input').inputValue();
    expect(secret.length).toBeGreaterThan(16);
    const row = page.locator('tr', { hasText: name });
    await row.waitFor();
    await shot(page, 'oauth-app-created');
    await row.getByRole('button', { name: 'Excluir', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Excluir app' }).click();
    await row.waitFor({ state: 'detached' });
  });

  (backend.seededOwner ? it : it.skip)(`has no serious or critical accessibility violation on any page (axe-core, WCAG 2 A and AA)${backend.seededOwner ? '' : ` (${NO_SEED})`}`, async () => {
    // axe is injected as an inline script, which the dashboard's CSP refuses: this one context bypasses it.
    const audit = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', bypassCSP: true });
    const tab = await audit.newPage();
    await tab.goto(dashboardUrl('/entrar'));
    const findings: string[] = [];
    const check = async (route: string) => {
      await tab.waitForFunction(() => !document.querySelector('.loading'), undefined, { timeout: 15_000 });
      await tab.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
      const { passed, violations } = await tab.evaluate(async () => {
        const result = await (window as any).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
        return {
          passed: (result.passes as unknown[]).length,
          violations: (result.violations as Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>)
            .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
            .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(', ')}`),
        };
      });
      // The audit ran for real: a page passes a good number of rules (labels, contrast, names, landmarks…).
      expect({ route, ran: passed > 10 }).toEqual({ route, ran: true });
      findings.push(...violations.map((violation) => `${route}: ${violation}`));
    };
    await tab.getByRole('heading', { name: 'Entrar no painel' }).waitFor();
    await check('/entrar');
    await tab.getByLabel('E-mail').fill(OWNER.email);
    await tab.getByLabel('Senha').fill(OWNER.password);
    await tab.getByRole('button', { name: 'Entrar' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Pagamentos' }).waitFor();
    for (const [route] of PAGES(paymentId)) {
      await tab.goto(dashboardUrl(route));
      await tab.locator('main h1').waitFor();
      await check(route);
    }
    await audit.close();
    expect(findings).toEqual([]);
  });

  it('visits every page: a title, no script error, every control labelled; screenshots kept', async () => {
    for (const [route, name] of PAGES(paymentId)) {
      await page.goto(dashboardUrl(route));
      await page.locator('main h1').waitFor();
      // Loading is over when no "Carregando…" remains.
      await page.waitForFunction(() => !document.querySelector('.loading'), undefined, { timeout: 15_000 });
      if (route === '/analises') await page.locator('canvas').first().waitFor();
      expect({ route, unlabelled: await unlabelledControls(page) }).toEqual({ route, unlabelled: [] });
      await shot(page, name);
    }
    // What the pages show from the API: the paid payment, its events, and the seeded account.
    await page.goto(dashboardUrl(`/pagamentos/${paymentId}`));
    await page.getByText('payment.succeeded').waitFor();
    expect(await page.locator('main').textContent()).toContain('R$ 49,90');

    // The routing dry-run explains the choice account by account.
    await page.goto(dashboardUrl('/roteamento'));
    await page.getByRole('button', { name: 'Simular' }).click();
    await page.getByRole('region', { name: 'Resultado da simulação' }).waitFor();
    await shot(page, 'routing-dry-run');

    // The audit log shows the key created and revoked above.
    await page.goto(dashboardUrl('/desenvolvedores/auditoria'));
    await page.getByText('Chave de API revogada').first().waitFor();

    // Live mode: chosen in the header, kept across a reload, no test banner; then back to test.
    await page.goto(dashboardUrl('/saldos'));
    await page.getByRole('radio', { name: 'Produção' }).check();
    await page.reload();
    await page.locator('main h1').waitFor();
    expect(await page.getByRole('radio', { name: 'Produção' }).isChecked()).toBe(true);
    expect(await page.getByRole('note').count()).toBe(0);
    await page.waitForFunction(() => !document.querySelector('.loading'), undefined, { timeout: 15_000 });
    await shot(page, 'live-mode');
    await page.getByRole('radio', { name: 'Teste' }).check();
    expect(await page.getByRole('note').textContent()).toContain('Modo de teste');

    // Small screens: the navigation folds behind the Menu button.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(dashboardUrl('/pagamentos'));
    await page.locator('main h1').waitFor();
    expect(await page.getByRole('navigation', { name: 'Navegação principal' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    expect(await page.getByRole('navigation', { name: 'Navegação principal' }).isVisible()).toBe(true);
    await shot(page, 'mobile-menu');
    expect(pageErrors).toEqual([]);
  });
});
