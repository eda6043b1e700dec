import { randomBytes, randomUUID } from 'node:crypto';
import { api, eventually } from './support/api';
import { stackInfo } from './support/stack-info';

/**
 * Refunds through the REST API on the providers other than Efí that refund by API (Mercado Pago,
 * Asaas, Woovi): connect an account, take a Pix, get it paid, refund part then the rest
 * (`partially_refunded` → `refunded`, settled by the provider's own webhook), and see a refund
 * made in the provider's dashboard arrive by webhook as `source: provider`.
 */
type Json = Record<string, any>;
type Code = 'mercadopago' | 'asaas' | 'woovi';

const key = () => stackInfo().providersMerchant.testKey;
const token = () => randomBytes(12).toString('hex');

const PROVIDERS: { code: Code; credentials: () => Record<string, string>; dashboardRefund: (cents: number) => Json }[] = [
  { code: 'mercadopago', credentials: () => ({ access_token: `TEST-${token()}`, webhook_secret: token() }), dashboardRefund: (cents) => ({ amount_cents: cents }) },
  { code: 'asaas', credentials: () => ({ api_key: `$aact_hmlg_${token()}` }), dashboardRefund: (cents) => ({ value_cents: cents }) },
  { code: 'woovi', credentials: () => ({ app_id: `Client_Id_${token()}` }), dashboardRefund: (cents) => ({ value: cents }) },
];

async function control(code: Code, path: string, body: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${stackInfo().controlUrls[code]}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

async function paymentWhen(paymentId: string, what: string, ok: (payment: Json) => boolean): Promise<Json> {
  return eventually(
    async () => {
      const read = await api('GET', `/v1/payments/${paymentId}`, { key: key() });
      return ok(read.body) ? read.body : undefined;
    },
    what,
    15_000,
  );
}

const refund = (paymentId: string, body: Json) => api('POST', `/v1/payments/${paymentId}/refund`, { key: key(), idempotencyKey: randomUUID(), body });

describe.each(PROVIDERS)('refunds on $code through the REST API', ({ code, credentials, dashboardRefund }) => {
  const secrets = credentials();
  let accountId: string;

  beforeAll(async () => {
    expect((await control(code, '/__control/accounts', code === 'woovi' ? { app_id: secrets['app_id'] } : secrets)).status).toBeLessThan(300);
    const connected = await api('POST', '/v1/provider-accounts', {
      key: key(),
      body: { provider: code, name: `${code} reembolsos`, credentials: secrets, priority: 40 },
    });
    expect(connected.status).toBe(201);
    accountId = connected.body.id;
  });

  async function paidPix(amount: number): Promise<Json> {
    const created = await api('POST', '/v1/payments', {
      key: key(),
      idempotencyKey: randomUUID(),
      body: {
        method: 'pix',
        amount,
        provider_account_id: accountId,
        customer: { name: 'Maria Silva', email: 'maria@example.com', document: '529.982.247-25', phone: '+5511987654321' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.provider).toBe(code);
    expect((await api('POST', `/v1/payments/${created.body.id}/simulate`, { key: key() })).status).toBe(200);
    return paymentWhen(created.body.id, 'payment succeeded', (p) => p.status === 'succeeded');
  }

  it('refunds part (partially_refunded), then the rest (refunded), settled by the provider’s webhook', async () => {
    const payment = await paidPix(5000);
    const first = await refund(payment.id, { amount: 1250, reason: 'Item devolvido' });
    expect(first.status).toBe(201);
    expect(first.body.refund).toMatchObject({ amount: 1250, source: 'service', status: 'pending', reason: 'Item devolvido' });
    expect(first.body.refund.provider_refund_id).not.toBe('');

    const partial = await paymentWhen(payment.id, 'partially_refunded', (p) => p.status === 'partially_refunded');
    expect(partial.amount_refunded).toBe(1250);
    expect(partial.refunds).toEqual([expect.objectContaining({ id: first.body.refund.id, status: 'succeeded', source: 'service' })]);

    const rest = await refund(payment.id, {});
    expect(rest.status).toBe(201);
    expect(rest.body.refund.amount).toBe(3750);
    const refunded = await paymentWhen(payment.id, 'refunded', (p) => p.status === 'refunded');
    expect(refunded.amount_refunded).toBe(5000);
    expect(refunded.refunds).toHaveLength(2);
    expect(refunded.refunds.every((r: Json) => r.source === 'service' && r.status === 'succeeded')).toBe(true);
    expect(refunded.events.map((e: Json) => e.type)).toEqual(expect.arrayContaining(['payment.partially_refunded', 'payment.refunded', 'refund.succeeded']));

    // Nothing is left: refused before reaching the provider.
    const again = await refund(payment.id, { amount: 1 });
    expect(again.status).toBe(409);
  });

  it('shows a refund made in the provider’s dashboard as source provider', async () => {
    const payment = await paidPix(3000);
    const made = await control(code, `/__control/charges/${payment.provider_payment_id}/refund`, dashboardRefund(1000));
    expect(made.status).toBe(200);
    const after = await paymentWhen(payment.id, 'dashboard refund seen', (p) => p.status === 'partially_refunded');
    expect(after.amount_refunded).toBe(1000);
    expect(after.refunds).toEqual([expect.objectContaining({ amount: 1000, status: 'succeeded', source: 'provider' })]);
    expect(after.refunds[0].id).toMatch(/^re_/);
  });
});
