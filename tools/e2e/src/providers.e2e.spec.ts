import { randomBytes, randomUUID } from 'node:crypto';
import { parsePix } from 'pix-utils';
import { api, eventually } from './support/api';
import { stackInfo } from './support/stack-info';

/**
 * Every provider through the whole stack: connect an account (credentials checked against the
 * provider's emulator), take a Pix on it, get paid by the provider's own webhook, cancel, and
 * refuse forged webhooks. Efí is covered by the payments suite; these are the other five.
 */
type Code = 'mercadopago' | 'asaas' | 'pagarme' | 'woovi' | 'stripe';

const token = () => randomBytes(12).toString('hex');
const CREDENTIALS: Record<Code, () => Record<string, string>> = {
  mercadopago: () => ({ access_token: `TEST-${token()}`, webhook_secret: token() }),
  asaas: () => ({ api_key: `$aact_hmlg_${token()}` }),
  pagarme: () => ({ secret_key: `sk_test_${token()}` }),
  woovi: () => ({ app_id: `Client_Id_${token()}` }),
  stripe: () => ({ secret_key: `sk_test_${token()}` }),
};

const key = () => stackInfo().providersMerchant.testKey;

async function control(code: Code, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${stackInfo().controlUrls[code]}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

async function createPix(accountId: string, amount: number) {
  const response = await api('POST', '/v1/payments', {
    key: key(),
    idempotencyKey: randomUUID(),
    body: {
      method: 'pix',
      amount,
      description: 'Pedido multi-provedor',
      provider_account_id: accountId,
      customer: { name: 'Maria Silva', email: 'maria@example.com', document: '529.982.247-25', phone: '+5511987654321' },
      metadata: { order_id: randomUUID() },
    },
  });
  expect(response.status).toBe(201);
  return response.body;
}

/** The providers wired into the stack (tools/stack/src/start-stack.ts EMULATORS). */
const PROVIDERS: Code[] = ['mercadopago', 'asaas', 'pagarme', 'woovi', 'stripe'];

describe.each<Code>(PROVIDERS)('provider %s through the REST API', (code) => {
  const credentials = CREDENTIALS[code]();
  let account: Record<string, any>;

  beforeAll(async () => {
    expect((await control(code, 'POST', '/__control/accounts', credentials)).status).toBeLessThan(300);
  });

  it('refuses credentials the provider does not know', async () => {
    const response = await api('POST', '/v1/provider-accounts', {
      key: key(),
      body: { provider: code, name: `${code} errado`, credentials: CREDENTIALS[code](), priority: 50 },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('connects an account, storing the credentials without ever showing them', async () => {
    const response = await api('POST', '/v1/provider-accounts', {
      key: key(),
      body: { provider: code, name: `${code} sandbox`, credentials, priority: 30 },
    });
    expect(response.status).toBe(201);
    account = response.body;
    expect(account).toMatchObject({ provider: code, mode: 'test', enabled: true });
    const shown = JSON.stringify(account);
    for (const secret of Object.values(credentials)) expect(shown).not.toContain(secret);
  });

  it('takes a Pix with a valid BR Code and is paid by the provider’s own webhook', async () => {
    const payment = await createPix(account.id, 2590);
    expect(payment).toMatchObject({ status: 'pending', provider: code, provider_account_id: account.id, amount: 2590 });
    expect(payment.next_action.type).toBe('pix_qr');
    const pix = parsePix(payment.next_action.qr_code);
    expect('error' in pix && pix.error).toBeFalsy();
    expect(payment.fee).toBeGreaterThanOrEqual(0);
    expect(payment.net).toBe(payment.amount - payment.fee);

    const paid = await api('POST', `/v1/payments/${payment.id}/simulate`, { key: key() });
    expect(paid.status).toBe(200);
    const final = await eventually(
      async () => {
        const current = await api('GET', `/v1/payments/${payment.id}`, { key: key() });
        return current.body.status === 'succeeded' ? current.body : undefined;
      },
      `${code} webhook to mark the payment succeeded`,
      15_000,
    );
    expect(final.events.map((e: { type: string }) => e.type)).toContain('payment.succeeded');
  });

  it('cancels a pending Pix at the provider', async () => {
    const payment = await createPix(account.id, 1200);
    const canceled = await api('POST', `/v1/payments/${payment.id}/cancel`, { key: key() });
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('canceled');
    // The provider agrees: a sync re-reads the charge and changes nothing.
    const synced = await api('POST', `/v1/payments/${payment.id}/sync`, { key: key() });
    expect(synced.status).toBe(200);
    expect(synced.body.status).toBe('canceled');
  });

  it('refuses a forged webhook and changes nothing', async () => {
    const payment = await createPix(account.id, 990);
    // The account's public webhook route, with a made-up secret (the real one is never shown).
    const url = new URL(`${stackInfo().baseUrl}/webhooks/providers/${account.id}`);
    url.searchParams.set('hmac', 'f'.repeat(64));
    const forged = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': 'ts=1,v1=00', 'stripe-signature': 't=1,v1=00', 'x-webhook-signature': 'AAAA' },
      body: JSON.stringify({ id: 'evt_forged', type: 'payment', event: 'PAYMENT_RECEIVED', data: { id: payment.provider_payment_id } }),
    });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(forged.status).toBeLessThan(500);
    const current = await api('GET', `/v1/payments/${payment.id}`, { key: key() });
    expect(current.body.status).toBe('pending');
  });
});
