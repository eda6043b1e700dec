import { parsePix } from 'pix-utils';
import { api, createPix, emulator, eventually } from './support/api';
import { stackInfo } from './support/stack-info';

describe('Pix payments through the REST API', () => {
  it('creates a pending Pix with a valid BR Code, QR image, fee, net and everything given', async () => {
    const before = Date.now();
    const response = await api('POST', '/v1/payments', {
      body: {
        method: 'pix',
        amount: 5050,
        description: 'Camiseta',
        expires_in_minutes: 15,
        customer: { name: 'Maria Silva', email: 'maria@example.com', document: '529.982.247-25' },
        metadata: { order_id: 'A-1', bot: 'vendas' },
        tracking: { utm_source: 'instagram', utm_campaign: 'black-friday' },
      },
      idempotencyKey: `create-${before}`,
    });
    expect(response.status).toBe(201);
    const payment = response.body;
    expect(payment).toMatchObject({
      object: 'payment',
      mode: 'test',
      method: 'pix',
      status: 'pending',
      amount: 5050,
      amount_refunded: 0,
      currency: 'BRL',
      fee: 50, // 0.99% of 50.50 = 0.49995 → 0.50 (half up)
      net: 5000,
      provider: 'efi',
      provider_account_id: stackInfo().testProviderAccountId,
      metadata: { order_id: 'A-1', bot: 'vendas' },
      tracking: { utm_source: 'instagram', utm_campaign: 'black-friday' },
      description: 'Camiseta',
    });
    expect(payment.id).toMatch(/^pay_[0-9a-z]{26}$/);
    expect(payment.provider_payment_id).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    expect(payment.payment_url).toBe(`${stackInfo().baseUrl}/pay/${payment.id}`);
    expect(payment.next_action.type).toBe('pix_qr');
    expect(payment.next_action.qr_code_url).toBe(`${stackInfo().baseUrl}/qr/${payment.id}.png`);

    const brCode = parsePix(payment.next_action.qr_code);
    expect('error' in brCode && brCode.error).toBeFalsy();
    expect(payment.next_action.qr_code).toMatch(/6304[0-9A-F]{4}$/);

    const expiresAt = new Date(payment.expires_at).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 15 * 60_000 - 5_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 5_000);
    expect(new Date(payment.created_at).getTime()).toBeGreaterThanOrEqual(before - 1_000);

    const image = await fetch(payment.next_action.qr_code_url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  });

  it('retrieves a payment with its attempts and events', async () => {
    const created = await createPix();
    const read = await api('GET', `/v1/payments/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(created.id);
    expect(read.body.attempts).toHaveLength(1);
    expect(read.body.attempts[0]).toMatchObject({ provider: 'efi', outcome: 'succeeded', provider_account_id: stackInfo().testProviderAccountId });
    expect(read.body.attempts[0].latency_ms).toBeGreaterThanOrEqual(0);
    expect(read.body.events.map((e: { type: string }) => e.type)).toEqual(['payment.created']);
  });

  it('cancels a pending Pix: the charge is removed at the provider and the QR stops working', async () => {
    const created = await createPix();
    const canceled = await api('POST', `/v1/payments/${created.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('canceled');
    expect(canceled.body.next_action).toBeNull();
    // The provider refuses to pay a removed charge.
    const pay = await fetch(`${stackInfo().efiControlUrl}/__control/charges/${created.provider_payment_id}/pay`, { method: 'POST' });
    expect(pay.status).toBeGreaterThanOrEqual(400);
    expect((await fetch(created.next_action.qr_code_url)).status).toBe(404);
    const again = await api('POST', `/v1/payments/${created.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('payment_not_cancelable');
    const events = await api('GET', `/v1/payments/${created.id}`);
    expect(events.body.events.map((e: { type: string }) => e.type)).toEqual(['payment.created', 'payment.canceled']);
  });

  it('simulate pays the sandbox charge and the payment succeeds through the provider webhook', async () => {
    const created = await createPix({ metadata: { wallet_topup: 'user-77' } });
    const simulated = await api('POST', `/v1/payments/${created.id}/simulate`);
    expect(simulated.status).toBe(200);
    const paid = await eventually(async () => {
      const read = await api('GET', `/v1/payments/${created.id}`);
      return read.body.status === 'succeeded' ? read.body : undefined;
    }, 'payment.succeeded');
    expect(paid.end_to_end_id).toMatch(/^E[0-9A-Za-z]{31}$/);
    expect(paid.events.map((e: { type: string }) => e.type)).toEqual(['payment.created', 'payment.succeeded']);
    const stats = await emulator('GET', '/__control/stats');
    expect(stats.webhooks_sent).toBeGreaterThanOrEqual(1);

    // The event reaches the unified log with the payment's metadata in its payload.
    const event = await eventually(async () => {
      const list = await api('GET', '/v1/events?limit=50');
      return list.body.data.find((e: any) => e.type === 'payment.succeeded' && e.data.object.id === created.id);
    }, 'payment.succeeded in /v1/events');
    expect(event.object).toBe('event');
    expect(event.id).toMatch(/^evt_/);
    expect(event.data.object.metadata).toEqual({ wallet_topup: 'user-77' });
    expect(event.data.object.status).toBe('succeeded');

    // A paid payment cannot be canceled or simulated again.
    const cancel = await api('POST', `/v1/payments/${created.id}/cancel`);
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.code).toBe('payment_already_paid');
    expect(cancel.body.error.message).toMatch(/reembolso/);
    const again = await api('POST', `/v1/payments/${created.id}/simulate`);
    expect(again.status).toBe(409);
  });

  it('rejects forged provider webhooks and changes nothing', async () => {
    const created = await createPix();
    const body = JSON.stringify({ pix: [{ endToEndId: 'E00000000202611220000000000000000', txid: created.provider_payment_id, valor: '19.90', horario: new Date().toISOString() }] });
    const account = stackInfo().testProviderAccountId;
    const forged = await fetch(`${stackInfo().baseUrl}/webhooks/providers/${account}?hmac=forged-secret&ignorar=/pix`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(forged.status).toBe(401);
    const noSecret = await fetch(`${stackInfo().baseUrl}/webhooks/providers/${account}/pix`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(noSecret.status).toBe(401);
    const unknownAccount = await fetch(`${stackInfo().baseUrl}/webhooks/providers/pa_00000000000000000000000000?hmac=x`, { method: 'POST', body });
    expect(unknownAccount.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await api('GET', `/v1/payments/${created.id}`)).body.status).toBe('pending');
  });

  it('answers a clear 503 and creates nothing when every provider account is down', async () => {
    await emulator('POST', '/__control/faults', { outage: true });
    try {
      const before = await api('GET', '/v1/payments?limit=100');
      const response = await api('POST', '/v1/payments', { body: { method: 'pix', amount: 100, customer: { name: 'Ana' } }, idempotencyKey: `down-${Date.now()}` });
      expect([502, 503]).toContain(response.status);
      expect(response.body.error.code).toBe('all_providers_failed');
      expect(response.body.error.message).toMatch(/Nada foi cobrado/);
      const after = await api('GET', '/v1/payments?limit=100');
      expect(after.body.data.map((p: { id: string }) => p.id)).toEqual(before.body.data.map((p: { id: string }) => p.id));
    } finally {
      await emulator('DELETE', '/__control/faults');
    }
  });
});
