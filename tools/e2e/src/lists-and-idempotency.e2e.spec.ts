import { randomUUID } from 'node:crypto';
import { api, createPix, emulator, pixPayment } from './support/api';

describe('listing payments', () => {
  it('lists newest first with limit, starting_after and has_more, without gaps or repeats', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await createPix({ amount: 100 + i })).id);
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 10; page++) {
      const response = await api('GET', `/v1/payments?limit=2${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      expect(response.body.object).toBe('list');
      expect(response.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...response.body.data.map((p: { id: string }) => p.id));
      if (!response.body.has_more) break;
      cursor = response.body.data[response.body.data.length - 1].id;
    }
    expect(new Set(seen).size).toBe(seen.length);
    // Newest first: the five just created appear in reverse creation order.
    const ours = seen.filter((id) => created.includes(id));
    expect(ours).toEqual([...created].reverse());
    const times = seen.map((id) => id);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by status, method and provider', async () => {
    const pending = await createPix();
    const toCancel = await createPix();
    await api('POST', `/v1/payments/${toCancel.id}/cancel`);
    const canceled = await api('GET', '/v1/payments?status=canceled&limit=100');
    expect(canceled.body.data.every((p: { status: string }) => p.status === 'canceled')).toBe(true);
    expect(canceled.body.data.map((p: { id: string }) => p.id)).toContain(toCancel.id);
    expect(canceled.body.data.map((p: { id: string }) => p.id)).not.toContain(pending.id);
    const pix = await api('GET', '/v1/payments?method=pix&provider=efi&limit=100');
    expect(pix.body.data.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining([pending.id, toCancel.id]));
    const stripe = await api('GET', '/v1/payments?provider=stripe&limit=100');
    expect(stripe.body.data.every((p: { provider: string }) => p.provider === 'stripe')).toBe(true);
    expect(stripe.body.data.map((p: { id: string }) => p.id)).not.toContain(pending.id);
    // Efí takes no card (its card token is minted only by its browser script): no card payment can be at Efí.
    const none = await api('GET', '/v1/payments?provider=efi&method=card');
    expect(none.body.data).toEqual([]);
    expect(none.body.has_more).toBe(false);
    const bad = await api('GET', '/v1/payments?status=paid');
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('status');
  });
});

describe('Idempotency-Key on POST /v1/payments', () => {
  it('turns 50 concurrent identical requests into exactly one payment and one provider charge', async () => {
    const key = randomUUID();
    const body = pixPayment({ amount: 4242 });
    const before = (await emulator('GET', '/__control/stats')).charges_created as number;
    const responses = await Promise.all(Array.from({ length: 50 }, () => api('POST', '/v1/payments', { body, idempotencyKey: key })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 201)).toBe(true);
    const ids = new Set(responses.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    const after = (await emulator('GET', '/__control/stats')).charges_created as number;
    expect(after - before).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(49);

    const later = await api('POST', '/v1/payments', { body, idempotencyKey: key });
    expect(later.status).toBe(201);
    expect(later.body.id).toBe([...ids][0]);
  });

  it('refuses the same key with a different body with 409 in Portuguese', async () => {
    const key = randomUUID();
    const first = await api('POST', '/v1/payments', { body: pixPayment({ amount: 1000 }), idempotencyKey: key });
    expect(first.status).toBe(201);
    const second = await api('POST', '/v1/payments', { body: pixPayment({ amount: 2000 }), idempotencyKey: key });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('idempotency_conflict');
    expect(second.body.error.message).toMatch(/Idempotency-Key/);
  });

  it('creates distinct payments without a key', async () => {
    const body = pixPayment();
    const a = await api('POST', '/v1/payments', { body });
    const b = await api('POST', '/v1/payments', { body });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body.id).not.toBe(b.body.id);
  });
});
