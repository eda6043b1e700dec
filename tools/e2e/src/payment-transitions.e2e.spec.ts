import { randomUUID } from 'node:crypto';
import { api, createPix, eventually, type ApiResponse } from './support/api';
import { stackInfo } from './support/stack-info';

type Json = Record<string, any>;

/**
 * The payment state machine through the REST API, state by state: every action a merchant can ask
 * for (cancel, refund, simulate) is tried in every state reachable in test mode. Legal ones move
 * the payment as docs/payment-states.md draws; illegal ones answer a clear Portuguese error naming
 * the reason and leave the payment exactly as it was. (failed, reached by a card decline, is tried
 * in boleto-and-card.e2e.spec.ts; the full 8×8 table in payment-status.spec.ts.)
 */
type Action = 'cancel' | 'refund' | 'refund_over' | 'simulate';

const act = (id: string, action: Action, amount: number): Promise<ApiResponse> => {
  switch (action) {
    case 'cancel':
      return api('POST', `/v1/payments/${id}/cancel`);
    case 'simulate':
      return api('POST', `/v1/payments/${id}/simulate`);
    case 'refund':
      return api('POST', `/v1/payments/${id}/refund`, { body: { amount: 100 }, idempotencyKey: randomUUID() });
    case 'refund_over':
      return api('POST', `/v1/payments/${id}/refund`, { body: { amount: amount + 1 }, idempotencyKey: randomUUID() });
  }
};

/** What can be compared before and after an action: everything an illegal one must not touch. */
const snapshot = (payment: Json) => ({
  status: payment.status,
  amount_refunded: payment.amount_refunded,
  refunds: payment.refunds,
  events: payment.events?.map((e: Json) => e.id),
  next_action: payment.next_action,
});

async function read(id: string): Promise<Json> {
  const answer = await api('GET', `/v1/payments/${id}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Builds a payment in `state` through the API, as a merchant would reach it. */
async function paymentIn(state: string): Promise<Json> {
  if (state === 'requires_method') {
    const answer = await api('POST', '/v1/payments', { body: { amount: 1990, customer: { name: 'Ana Lima' } }, idempotencyKey: randomUUID() });
    expect(answer.status).toBe(201);
    return answer.body;
  }
  const payment = await createPix({ amount: 1990 });
  if (state === 'pending') return payment;
  if (state === 'canceled') {
    expect((await api('POST', `/v1/payments/${payment.id}/cancel`)).status).toBe(200);
    return read(payment.id);
  }
  expect((await act(payment.id, 'simulate', 0)).body.status).toBe('succeeded');
  if (state === 'succeeded') return read(payment.id);
  const refund = await api('POST', `/v1/payments/${payment.id}/refund`, {
    body: state === 'partially_refunded' ? { amount: 990 } : {},
    idempotencyKey: randomUUID(),
  });
  expect(refund.status).toBe(201);
  // The refund is pending until the provider confirms it (Efí's devolução settles a moment later).
  return eventually(async () => {
    const current = await read(payment.id);
    return current.status === state ? current : undefined;
  }, `payment ${payment.id} ${state}`);
}

// state → action → the HTTP answer: a status the payment moves to, or the refusal.
const TABLE: Record<string, Record<Action, { to: string } | { status: number; code: string }>> = {
  requires_method: {
    cancel: { to: 'canceled' },
    refund: { status: 409, code: 'payment_not_refundable' },
    refund_over: { status: 409, code: 'payment_not_refundable' },
    simulate: { status: 409, code: 'payment_not_simulatable' },
  },
  pending: {
    cancel: { to: 'canceled' },
    refund: { status: 409, code: 'payment_not_refundable' },
    refund_over: { status: 409, code: 'payment_not_refundable' },
    simulate: { to: 'succeeded' },
  },
  succeeded: {
    cancel: { status: 409, code: 'payment_already_paid' },
    refund: { to: 'partially_refunded' },
    refund_over: { status: 400, code: 'refund_amount_exceeds_remaining' },
    simulate: { status: 409, code: 'payment_not_simulatable' },
  },
  partially_refunded: {
    cancel: { status: 409, code: 'payment_already_paid' },
    refund: { to: 'partially_refunded' },
    refund_over: { status: 400, code: 'refund_amount_exceeds_remaining' },
    simulate: { status: 409, code: 'payment_not_simulatable' },
  },
  refunded: {
    cancel: { status: 409, code: 'payment_already_paid' },
    refund: { status: 409, code: 'payment_not_refundable' },
    refund_over: { status: 409, code: 'payment_not_refundable' },
    simulate: { status: 409, code: 'payment_not_simulatable' },
  },
  canceled: {
    cancel: { status: 409, code: 'payment_not_cancelable' },
    refund: { status: 409, code: 'payment_not_refundable' },
    refund_over: { status: 409, code: 'payment_not_refundable' },
    simulate: { status: 409, code: 'payment_not_simulatable' },
  },
};

const cases = Object.entries(TABLE).flatMap(([state, actions]) => Object.entries(actions).map(([action, expected]) => [state, action as Action, expected] as const));

describe('payment transitions through the REST API, state by state', () => {
  it.each(cases)('%s + %s', async (state, action, expected) => {
    const created = await paymentIn(state);
    const before = await read(created.id);
    const payment = before;
    expect(payment.status).toBe(state);
    const answer = await act(payment.id, action, payment.amount);
    if ('to' in expected) {
      expect(answer.status).toBeLessThan(300);
      // Refunds settle when the provider confirms them: wait for the move (or the test times out).
      const after = await eventually(async () => {
        const current = await read(payment.id);
        const moved = current.status === expected.to && (action !== 'refund' || current.amount_refunded === before.amount_refunded + 100);
        return moved ? current : undefined;
      }, `${state} + ${action} → ${expected.to}`);
      expect(after.status).toBe(expected.to);
      return;
    }
    expect(answer.status).toBe(expected.status);
    expect(answer.body.error).toMatchObject({ type: expect.any(String), code: expected.code });
    // Portuguese, saying what is wrong (never a stack trace or an English internal message).
    expect(answer.body.error.message).toMatch(/[a-záéíóúãõç]/i);
    expect(answer.body.error.message).not.toMatch(/Error:|at .*\.ts|illegal payment transition/);
    expect(snapshot(await read(payment.id))).toEqual(snapshot(before));
  });

  it('refuses to simulate a live payment and leaves it pending', async () => {
    const created = await createPix({}, stackInfo().liveKey);
    const live = (await api('GET', `/v1/payments/${created.id}`, { key: stackInfo().liveKey })).body;
    const answer = await api('POST', `/v1/payments/${live.id}/simulate`, { key: stackInfo().liveKey });
    expect([answer.status, answer.body.error?.code]).toEqual([403, 'live_mode_forbidden']);
    const after = await api('GET', `/v1/payments/${live.id}`, { key: stackInfo().liveKey });
    expect(snapshot(after.body)).toEqual(snapshot(live));
  });
});
