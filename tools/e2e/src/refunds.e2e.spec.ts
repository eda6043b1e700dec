import { randomUUID } from 'node:crypto';
import { api, createPix, emulator, eventually } from './support/api';
import { stackInfo } from './support/stack-info';

type Json = Record<string, any>;

async function paidPix(amount: number, key?: string): Promise<Json> {
  const created = await createPix({ amount }, key);
  const simulated = await api('POST', `/v1/payments/${created.id}/simulate`);
  expect(simulated.status).toBe(200);
  return eventually(async () => {
    const read = await api('GET', `/v1/payments/${created.id}`);
    return read.body.status === 'succeeded' ? read.body : undefined;
  }, `payment ${created.id} succeeded`);
}

function refund(paymentId: string, body: Json = {}, options: { key?: string | null; idempotencyKey?: string } = {}) {
  return api('POST', `/v1/payments/${paymentId}/refund`, { body, idempotencyKey: options.idempotencyKey ?? randomUUID(), ...(options.key !== undefined ? { key: options.key } : {}) });
}

async function paymentWhen(paymentId: string, what: string, ok: (payment: Json) => boolean): Promise<Json> {
  return eventually(async () => {
    const read = await api('GET', `/v1/payments/${paymentId}`);
    return ok(read.body) ? read.body : undefined;
  }, what);
}

/** The devoluções the emulator holds for a charge. */
async function devolucoes(txid: string): Promise<Json[]> {
  const list = await emulator('GET', `/__control/charges?client_id=${encodeURIComponent(stackInfo().emulatorClientId)}`);
  return (list.charges as Json[]).find((c) => c.txid === txid)?.devolucoes ?? [];
}

describe('refunds through the REST API', () => {
  it('refunds the whole payment when amount is omitted: pending, then refunded through the provider webhook', async () => {
    const payment = await paidPix(1990);
    const answer = await refund(payment.id, { reason: 'Cliente desistiu' });
    expect(answer.status).toBe(201);
    const { refund: created, payment: after } = answer.body;
    expect(created).toMatchObject({ object: 'refund', payment_id: payment.id, amount: 1990, reason: 'Cliente desistiu', source: 'service' });
    expect(created.id).toMatch(/^re_[0-9a-z]{26}$/);
    expect(created.provider_refund_id).toBe(created.id.replace('_', ''));
    expect(['pending', 'succeeded']).toContain(created.status);
    expect(after).toMatchObject({ id: payment.id, object: 'payment' });

    const refunded = await paymentWhen(payment.id, 'payment refunded', (p) => p.status === 'refunded');
    expect(refunded.amount_refunded).toBe(1990);
    expect(refunded.refunds).toEqual([expect.objectContaining({ id: created.id, status: 'succeeded', amount: 1990, source: 'service' })]);
    expect(await devolucoes(payment.provider_payment_id)).toEqual([{ id: created.provider_refund_id, valor: '19.90', status: 'DEVOLVIDO' }]);

    // Nothing is left: another refund is refused and changes nothing.
    const again = await refund(payment.id, {});
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('payment_not_refundable');
  });

  it('accumulates partial refunds: partially_refunded, then refunded, with amount_refunded', async () => {
    const payment = await paidPix(1000);
    const first = await refund(payment.id, { amount: 300 });
    expect(first.status).toBe(201);
    const partial = await paymentWhen(payment.id, 'partially_refunded', (p) => p.status === 'partially_refunded');
    expect(partial.amount_refunded).toBe(300);

    const second = await refund(payment.id, { amount: 700 });
    expect(second.status).toBe(201);
    const full = await paymentWhen(payment.id, 'refunded', (p) => p.status === 'refunded');
    expect(full.amount_refunded).toBe(1000);
    expect(full.refunds.map((r: Json) => [r.amount, r.status])).toEqual([
      [300, 'succeeded'],
      [700, 'succeeded'],
    ]);
    const types = full.events.map((e: Json) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['refund.created', 'refund.succeeded', 'payment.partially_refunded', 'payment.refunded']),
    );
  });

  it('refuses more than is left with 400 param amount naming what is left, and changes nothing', async () => {
    const payment = await paidPix(1000);
    const over = await refund(payment.id, { amount: 1001 });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'refund_amount_exceeds_remaining', param: 'amount', type: 'invalid_request_error' });
    expect(over.body.error.message).toContain('R$ 10,00');
    expect(over.body.error.message).toContain('1000 centavos');
    const zero = await refund(payment.id, { amount: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.error).toMatchObject({ code: 'amount_too_small', param: 'amount' });

    const read = await api('GET', `/v1/payments/${payment.id}`);
    expect(read.body).toMatchObject({ status: 'succeeded', amount_refunded: 0, refunds: [] });
    expect(await devolucoes(payment.provider_payment_id)).toEqual([]);
  });

  it('refuses to refund a pending payment, in Portuguese, and changes nothing', async () => {
    const payment = await createPix({ amount: 1000 });
    const answer = await refund(payment.id, { amount: 100 });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('payment_not_refundable');
    expect(answer.body.error.message).toMatch(/não pode ser reembolsado/);
    const read = await api('GET', `/v1/payments/${payment.id}`);
    expect(read.body).toMatchObject({ status: 'pending', amount_refunded: 0, refunds: [] });
    expect(read.body.events.map((e: Json) => e.type)).toEqual(['payment.created']);
  });

  it('answers a retry with the same Idempotency-Key with the same refund, never a second one', async () => {
    const payment = await paidPix(1000);
    const key = `refund-${randomUUID()}`;
    const first = await refund(payment.id, { amount: 400 }, { idempotencyKey: key });
    const second = await refund(payment.id, { amount: 400 }, { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.refund.id).toBe(first.body.refund.id);
    const conflict = await refund(payment.id, { amount: 500 }, { idempotencyKey: key });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('idempotency_conflict');

    const settled = await paymentWhen(payment.id, 'partially_refunded', (p) => p.status === 'partially_refunded');
    expect(settled.refunds).toHaveLength(1);
    expect(settled.amount_refunded).toBe(400);
    expect(await devolucoes(payment.provider_payment_id)).toHaveLength(1);
  });

  it('20 parallel refunds of a tenth each: exactly the amount is refunded, the rest refused', async () => {
    const payment = await paidPix(1000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(payment.id, { amount: 100 })));
    const accepted = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(10);
    // Refused because nothing is left: reserved by pending refunds (400 naming amount), or, once
    // they all settled, because the payment is already fully refunded (409).
    for (const answer of refused) {
      expect([
        { status: 400, code: 'refund_amount_exceeds_remaining', param: 'amount' },
        { status: 409, code: 'payment_not_refundable', param: null },
      ]).toContainEqual({ status: answer.status, code: answer.body.error.code, param: answer.body.error.param });
    }
    expect(new Set(accepted.map((a) => a.body.refund.id)).size).toBe(10);

    const full = await paymentWhen(payment.id, 'refunded after 10 refunds', (p) => p.status === 'refunded');
    expect(full.amount_refunded).toBe(1000);
    expect(full.refunds.filter((r: Json) => r.status === 'succeeded')).toHaveLength(10);
    expect(full.refunds).toHaveLength(10);
    const atEmulator = await devolucoes(payment.provider_payment_id);
    expect(atEmulator).toHaveLength(10);
    expect(atEmulator.every((d) => d.valor === '1.00' && d.status === 'DEVOLVIDO')).toBe(true);
  });

  it('refuses restricted keys with 403 restricted_key', async () => {
    const payment = await paidPix(1000);
    const answer = await refund(payment.id, { amount: 100 }, { key: stackInfo().restrictedTestKey });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('restricted_key');
    expect((await api('GET', `/v1/payments/${payment.id}`)).body.refunds).toEqual([]);
  });

  it('a devolução the provider does not complete fails the refund and frees its amount', async () => {
    const client = stackInfo().emulatorClientId;
    const payment = await paidPix(1000);
    await emulator('POST', '/__control/devolucoes/behaviour', { client_id: client, outcome: 'NAO_REALIZADO', settle_after_ms: 100 });
    try {
      const answer = await refund(payment.id, { amount: 600 });
      expect(answer.status).toBe(201);
      const failed = await paymentWhen(payment.id, 'refund failed', (p) => p.refunds[0]?.status === 'failed');
      expect(failed).toMatchObject({ status: 'succeeded', amount_refunded: 0 });
      expect(failed.refunds[0].failure_code).toBeTruthy();
    } finally {
      await emulator('POST', '/__control/devolucoes/behaviour', { client_id: client, outcome: 'DEVOLVIDO', settle_after_ms: 300 });
    }
    // The failed refund's amount can be refunded again.
    expect((await refund(payment.id, { amount: 1000 })).status).toBe(201);
    await paymentWhen(payment.id, 'refunded', (p) => p.status === 'refunded');
  });

  it('picks up a refund made in the provider dashboard with source provider (webhook, and sync)', async () => {
    const payment = await paidPix(1000);
    const made = await emulator('POST', `/__control/pix/${payment.end_to_end_id}/devolucao`, { valor: '2.50', descricao: 'feito no painel' });
    expect(made.id).toMatch(/^painel/);
    const seen = await paymentWhen(payment.id, 'dashboard refund', (p) => p.refunds[0]?.status === 'succeeded');
    expect(seen).toMatchObject({ status: 'partially_refunded', amount_refunded: 250 });
    expect(seen.refunds[0]).toMatchObject({ source: 'provider', provider_refund_id: made.id, amount: 250, reason: 'feito no painel' });
    expect(seen.refunds[0].id).toMatch(/^re_/);
    // A sync sees the same devolução and adds nothing.
    const synced = await api('POST', `/v1/payments/${payment.id}/sync`);
    expect(synced.status).toBe(200);
    expect((await api('GET', `/v1/payments/${payment.id}`)).body.refunds).toHaveLength(1);
    // What is left accounts for it.
    const over = await refund(payment.id, { amount: 751 });
    expect(over.body.error).toMatchObject({ code: 'refund_amount_exceeds_remaining', param: 'amount' });
  });

  it('lists refund events and the payment events in GET /v1/events', async () => {
    const payment = await paidPix(800);
    const answer = await refund(payment.id, { amount: 300 });
    const refundId = answer.body.refund.id;
    await refund(payment.id, {});
    await paymentWhen(payment.id, 'refunded', (p) => p.status === 'refunded');
    const events = await eventually(async () => {
      const list = await api('GET', '/v1/events?limit=100');
      const mine = (list.body.data as Json[]).filter((e) => e.data.object.id === payment.id || e.data.object.payment_id === payment.id);
      const types = mine.map((e) => e.type);
      return ['refund.created', 'refund.succeeded', 'payment.partially_refunded', 'payment.refunded'].every((t) => types.includes(t)) ? mine : undefined;
    }, 'refund events in /v1/events');
    const created = events.find((e) => e.type === 'refund.created' && e.data.object.id === refundId);
    expect(created?.data.object).toMatchObject({ object: 'refund', payment_id: payment.id, amount: 300, source: 'service' });
    const refunded = events.find((e) => e.type === 'payment.refunded');
    expect(refunded?.data.object).toMatchObject({ id: payment.id, status: 'refunded', amount_refunded: 800 });
  });
});
