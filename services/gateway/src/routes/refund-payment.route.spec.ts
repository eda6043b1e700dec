import { status } from '@grpc/grpc-js';
import type { payments } from '@orquestra/contracts';
import { MESSAGES_PT_BR, RpcError } from '@orquestra/platform';
import { requestHash } from '../idempotency/request-hash';
import { toPaymentDetailJson } from '../mappers/payment.mapper';
import { PaymentDetailSchema, RefundResultSchema } from '../schemas/payment.response.schema';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY, protoPayment, protoRefund } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const BOT = { authorization: `Bearer ${RESTRICTED_KEY}` };
const PATH = '/v1/payments/pay_01jabc/refund';

describe('POST /v1/payments/{id}/refund', () => {
  let app: RunningApp;
  let clients: FakeClients;
  let refundPayment: jest.Mock<Promise<payments.RefundPaymentResponse>, [payments.RefundPaymentRequest, unknown]>;

  beforeEach(async () => {
    clients = fakeClients();
    refundPayment = jest.fn(async (_request: payments.RefundPaymentRequest, _options: unknown) => ({
      refund: protoRefund(),
      payment: protoPayment({ status: 'succeeded' }),
      replayed: false,
    }));
    clients.payments.refundPayment = refundPayment;
    app = await startApp({ clients });
  });
  afterEach(async () => {
    await app.close();
  });

  it('answers 201 {refund, payment} in the spec shapes and passes what the payments service needs', async () => {
    const answer = await app.request('POST', PATH, { headers: { ...FULL, 'idempotency-key': 'refund-1' }, body: { amount: 500, reason: 'Produto devolvido' } });
    expect(answer.status).toBe(201);
    expect(RefundResultSchema.safeParse(answer.json).success).toBe(true);
    expect(answer.json.refund).toEqual({
      id: 're_01jref',
      object: 'refund',
      payment_id: 'pay_01jabc',
      amount: 500,
      status: 'pending',
      reason: null,
      source: 'service',
      provider_refund_id: 're01jref',
      failure_code: null,
      failure_reason: null,
      created_at: '2026-10-01T12:10:00.000Z',
      updated_at: '2026-10-01T12:10:00.000Z',
    });
    expect(answer.json.payment).toMatchObject({ id: 'pay_01jabc', object: 'payment', status: 'succeeded' });
    expect(answer.headers.get('idempotent-replayed')).toBeNull();
    expect(refundPayment.mock.calls[0]?.[0]).toMatchObject({
      caller: { merchant_id: 'acct_1', key_id: 'key_full', restricted: false },
      payment_id: 'pay_01jabc',
      idempotency_key: 'refund-1',
      amount: 500,
      reason: 'Produto devolvido',
      request_hash: requestHash({ payment_id: 'pay_01jabc', amount: 500, reason: 'Produto devolvido' }),
    });
  });

  it('sends no amount when it is omitted (refund everything left), with or without a body', async () => {
    expect((await app.request('POST', PATH, { headers: FULL, body: {} })).status).toBe(201);
    expect((await app.request('POST', PATH, { headers: FULL })).status).toBe(201);
    for (const [request] of refundPayment.mock.calls) expect(request.amount).toBeUndefined();
    // The same key on another payment hashes differently (one key cannot refund two payments).
    expect(requestHash({ payment_id: 'pay_a' })).not.toBe(requestHash({ payment_id: 'pay_b' }));
  });

  it('marks a replay with Idempotent-Replayed: true', async () => {
    refundPayment.mockResolvedValueOnce({ refund: protoRefund(), payment: protoPayment(), replayed: true });
    const answer = await app.request('POST', PATH, { headers: { ...FULL, 'idempotency-key': 'refund-1' }, body: { amount: 500 } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('idempotent-replayed')).toBe('true');
  });

  it.each([
    [{ amount: 0 }, 'amount_too_small', 'amount'],
    [{ amount: -5 }, 'amount_too_small', 'amount'],
    [{ amount: 10.5 }, 'parameter_invalid', 'amount'],
    [{ amount: '500' }, 'parameter_invalid', 'amount'],
    [{ reason: 'x'.repeat(501) }, 'parameter_invalid', 'reason'],
    [{ amount: 100, currency: 'BRL' }, 'parameter_invalid', 'currency'],
  ])('refuses %j with 400 %s on %s, without calling the payments service', async (body, code, param) => {
    const answer = await app.request('POST', PATH, { headers: FULL, body });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ type: 'invalid_request_error', code, param });
    expect(refundPayment).not.toHaveBeenCalled();
  });

  it('refuses a restricted key with 403 restricted_key before reading the body', async () => {
    const answer = await app.request('POST', PATH, { headers: BOT, body: '{not json' });
    expect(answer.status).toBe(403);
    expect(answer.json).toEqual({ error: { type: 'permission_error', message: MESSAGES_PT_BR.restricted_key, code: 'restricted_key', param: null } });
    expect(refundPayment).not.toHaveBeenCalled();
  });

  it.each([
    ['refund_amount_exceeds_remaining', status.INVALID_ARGUMENT, 400, 'amount'],
    ['payment_not_refundable', status.FAILED_PRECONDITION, 409, undefined],
    ['idempotency_conflict', status.ALREADY_EXISTS, 409, 'Idempotency-Key'],
    ['refund_not_supported', status.FAILED_PRECONDITION, 422, undefined],
    ['not_found', status.NOT_FOUND, 404, 'id'],
  ] as const)('passes on %s as HTTP %s with its message and param', async (code, grpcStatus, httpStatus, param) => {
    refundPayment.mockRejectedValueOnce(new RpcError(code, grpcStatus, { message: 'mensagem do serviço', ...(param ? { param } : {}) }));
    const answer = await app.request('POST', PATH, { headers: FULL, body: { amount: 100 } });
    expect(answer.status).toBe(httpStatus);
    expect(answer.json.error).toMatchObject({ code, message: 'mensagem do serviço', param: param ?? null });
  });

  it('GET /v1/payments/{id} returns the payment’s refunds', async () => {
    const payment = protoPayment({
      status: 'partially_refunded',
      amount_refunded: 500,
      refunds: [protoRefund({ status: 'succeeded', reason: 'Troca' }), protoRefund({ id: 're_01jdash', source: 'provider', provider_refund_id: 'painel1', amount: 100 })],
    });
    clients.payments.getPayment = async () => ({ payment });
    const answer = await app.request('GET', '/v1/payments/pay_01jabc', { headers: FULL });
    expect(answer.status).toBe(200);
    expect(PaymentDetailSchema.safeParse(answer.json).success).toBe(true);
    expect(answer.json.refunds).toEqual(toPaymentDetailJson(payment).refunds);
    expect(answer.json.refunds.map((r: { id: string; status: string; source: string }) => [r.id, r.status, r.source])).toEqual([
      ['re_01jref', 'succeeded', 'service'],
      ['re_01jdash', 'pending', 'provider'],
    ]);
  });
});
