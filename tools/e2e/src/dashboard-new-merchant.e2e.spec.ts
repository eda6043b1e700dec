// The browser-side callbacks (page.evaluate) run in Chromium and use DOM types.
/// <reference lib="dom" />
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { generateSync } from 'otplib';
import type { Browser } from 'playwright-core';
import { ARTIFACTS, NO_API, backend, dashboardUrl, launchChromium, shot } from './support/dashboard';
import { stackInfo } from './support/stack-info';

// The owner's dashboard for merchants signed up through it (issue 19), in Debian's Chromium: TOTP
// turned on and asked at the next sign-in; a provider account connected from the catalog's fields,
// its priority and state changed, a routing rule and the dry-run explained. Each test signs up its
// own merchant, so nothing here touches the seeded one.

(backend.dashboardApi ? describe : describe.skip)(`dashboard for a new merchant in Chromium${backend.dashboardApi ? '' : ` (${NO_API})`}`, () => {
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(() => {
    expect(pageErrors).toEqual([]);
  });

  it('signs up a new merchant, turns TOTP on, and the next sign-in asks for the code', async () => {
    const other = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
    const tab = await other.newPage();
    tab.on('pageerror', (error) => pageErrors.push(error.message));
    const email = `dono-${randomUUID().slice(0, 8)}@exemplo.com.br`;
    const password = 'uma-senha-longa-123';
    await tab.goto(dashboardUrl('/cadastro'));
    await tab.getByLabel('Nome da empresa').fill('Loja Nova E2E');
    await tab.getByLabel('E-mail').fill(email);
    await tab.getByLabel('Senha').fill(password);
    await shot(tab, 'sign-up');
    await tab.getByRole('button', { name: 'Criar conta' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Pagamentos' }).waitFor();
    expect(await tab.locator('.merchant').textContent()).toBe('Loja Nova E2E');

    await tab.getByRole('link', { name: 'Segurança da conta' }).click();
    await tab.getByRole('button', { name: 'Configurar aplicativo autenticador' }).click();
    const totpSecret = (await tab.locator('.secret .mono').textContent())?.trim() ?? '';
    expect(totpSecret).toMatch(/^[A-Z2-7]{16,}$/);
    await tab.getByLabel('Código de 6 dígitos').fill(generateSync({ secret: totpSecret }));
    await tab.getByRole('button', { name: 'Ativar', exact: true }).click();
    await tab.getByText('Verificação em duas etapas ativada.').waitFor();

    await tab.getByRole('button', { name: 'Sair', exact: true }).click();
    await tab.getByRole('heading', { name: 'Entrar no painel' }).waitFor();
    await tab.getByLabel('E-mail').fill(email);
    await tab.getByLabel('Senha').fill(password);
    await tab.getByRole('button', { name: 'Entrar' }).click();
    const code = tab.getByLabel('Código de verificação');
    await code.waitFor();
    await code.fill('000000');
    await tab.getByRole('button', { name: 'Confirmar código' }).click();
    await tab.getByRole('alert').waitFor();
    await shot(tab, 'sign-in-totp');
    // The code of the next 30-second step (accepted: one step of drift), since a step already used
    // to turn TOTP on is never accepted again.
    await code.fill(generateSync({ secret: totpSecret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await tab.getByRole('button', { name: 'Confirmar código' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Pagamentos' }).waitFor();
    await other.close();
  });

  it('a new merchant connects a provider account from the catalog, sets its priority, routes by a rule and reads the dry-run', async () => {
    const other = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
    const tab = await other.newPage();
    tab.on('pageerror', (error) => pageErrors.push(error.message));
    await tab.goto(dashboardUrl('/cadastro'));
    await tab.getByLabel('Nome da empresa').fill('Loja Provedores E2E');
    await tab.getByLabel('E-mail').fill(`dono-${randomUUID().slice(0, 8)}@exemplo.com.br`);
    await tab.getByLabel('Senha').fill('uma-senha-longa-123');
    await tab.getByRole('button', { name: 'Criar conta' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Pagamentos' }).waitFor();

    // The Woovi emulator knows this AppID (the provider side of connecting an account).
    const appId = `Client_Id_${randomUUID().replace(/-/g, '')}`;
    const known = await fetch(`${stackInfo().controlUrls.woovi}/__control/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ app_id: appId }) });
    expect(known.status).toBeLessThan(300);

    await tab.getByRole('link', { name: 'Contas de provedores' }).click();
    const connect = tab.getByRole('form', { name: 'Conectar conta de provedor' });
    await connect.getByLabel('Provedor').selectOption('woovi');
    await connect.getByLabel('Nome da conta').fill('Woovi principal');
    await connect.getByLabel('AppID').fill(appId);
    await connect.getByRole('button', { name: 'Conectar' }).click();
    await tab.getByText('Conta Woovi principal conectada.').waitFor();
    const row = tab.locator('tr', { hasText: 'Woovi principal' });
    await row.getByText('Ativa', { exact: true }).waitFor();
    await row.getByLabel('Prioridade de Woovi principal').fill('5');
    await row.getByRole('button', { name: 'Salvar', exact: true }).click();
    await row.getByRole('button', { name: 'Desativar' }).click();
    await row.getByText('Inativa', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Ativar', exact: true }).click();
    await row.getByText('Ativa', { exact: true }).waitFor();
    await shot(tab, 'provider-connected');
    const accounts = await tab.evaluate(async () => (await (await fetch('/dashboard/api/v1/provider-accounts')).json()) as { data: Array<{ name: string; priority: number; enabled: boolean; id: string }> });
    const woovi = accounts.data.find((account) => account.name === 'Woovi principal');
    expect(woovi).toMatchObject({ priority: 5, enabled: true });

    await tab.getByRole('link', { name: 'Roteamento' }).click();
    const rule = tab.getByRole('form', { name: 'Nova regra de roteamento' });
    await rule.getByLabel('Nome').fill('Pix grandes na Woovi');
    await rule.getByLabel('Método').selectOption('pix');
    await rule.getByLabel('A partir de (R$)').fill('50,00');
    await rule.getByRole('button', { name: 'Criar regra' }).click();
    await tab.locator('tr', { hasText: 'Pix grandes na Woovi' }).getByText('a partir de R$ 50,00').waitFor();
    await tab.getByRole('form', { name: 'Simular roteamento' }).getByRole('button', { name: 'Simular' }).click();
    const result = tab.getByRole('region', { name: 'Resultado da simulação' });
    await result.waitFor();
    expect(await tab.getByText('Regra aplicada: "Pix grandes na Woovi".').count()).toBe(1);
    expect(await result.textContent()).toContain('Escolhida');
    expect(await result.textContent()).toContain('alvo da regra "Pix grandes na Woovi"');
    await shot(tab, 'routing-rule-dry-run');
    await other.close();
  });
});
