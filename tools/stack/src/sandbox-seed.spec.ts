import { sandboxGuide, SANDBOX_TEST_CARD } from './sandbox-guide';
import { emulatorAccountPlan } from './seed';

describe('the developer seed: an account at every emulator', () => {
  const plan = emulatorAccountPlan('acct_01abc', 'Client_Secret_0123456789abcdef0123456789abcdef');

  it('plans one test account at each of the five emulators besides Efí, after Efí (priority 10)', () => {
    expect(plan.map((a) => a.provider).sort()).toEqual(['asaas', 'mercadopago', 'pagarme', 'stripe', 'woovi']);
    const priorities = plan.map((a) => a.priority);
    expect(new Set(priorities).size).toBe(plan.length);
    expect(Math.min(...priorities)).toBeGreaterThan(10);
    // Boleto and card go to Asaas first (it takes all three methods; Efí only Pix and boleto here).
    expect(plan.find((a) => a.priority === Math.min(...priorities))?.provider).toBe('asaas');
  });

  it('uses credentials of the shapes each emulator accepts as a test account', () => {
    const credentials = Object.fromEntries(plan.map((a) => [a.provider, a.credentials]));
    expect(credentials['asaas']?.['api_key']).toMatch(/^\$aact_hmlg_[A-Za-z0-9]+$/);
    expect(credentials['pagarme']?.['secret_key']).toMatch(/^sk_test_[A-Za-z0-9]+$/);
    expect(credentials['stripe']?.['secret_key']).toMatch(/^sk_test_[A-Za-z0-9]+$/);
    expect(credentials['mercadopago']?.['access_token']).toMatch(/^TEST-[A-Za-z0-9]+$/);
    expect(credentials['woovi']?.['app_id']).toMatch(/^[A-Za-z0-9_]+$/);
  });

  it('is the same on every start (so a restart finds its accounts) and differs between merchants', () => {
    expect(emulatorAccountPlan('acct_01abc', 'Client_Secret_0123456789abcdef0123456789abcdef')).toEqual(plan);
    const other = emulatorAccountPlan('acct_02xyz', 'Client_Secret_0123456789abcdef0123456789abcdef');
    expect(other.map((a) => a.credentials)).not.toEqual(plan.map((a) => a.credentials));
  });
});

describe('the banner shows the sandbox', () => {
  const controlUrls = {
    efi: 'http://127.0.0.1:9444',
    asaas: 'http://127.0.0.1:9453',
    pagarme: 'http://127.0.0.1:9455',
    mercadopago: 'http://127.0.0.1:9451',
    stripe: 'http://127.0.0.1:9459',
    woovi: 'http://127.0.0.1:9457',
  };
  const text = sandboxGuide({
    baseUrl: 'http://localhost:8080',
    testKey: 'svc_test_k',
    efiAccountId: 'pa_efi',
    accounts: emulatorAccountPlan('acct_1', 's').map((a, i) => ({ provider: a.provider, accountId: `pa_${i}`, priority: a.priority })),
    controlUrls,
  });

  it('lists the six accounts with their control routes', () => {
    for (const url of Object.values(controlUrls)) expect(text).toContain(`${url}/__control/`);
    expect(text).toContain('pa_efi');
  });

  it('gives a Pix, a boleto and a card payment, each simulated, with the key and the test card', () => {
    for (const method of ['pix', 'boleto', 'card']) expect(text).toContain(`"method":"${method}"`);
    expect(text.match(/\/simulate"/g)).toHaveLength(3);
    expect(text).toContain('ORQ=http://localhost:8080 KEY=svc_test_k');
    expect(text).toContain(SANDBOX_TEST_CARD);
  });
});
