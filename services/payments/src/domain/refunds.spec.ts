import { canTransition } from './payment-status';
import { checkRefundRequest, findReported, planReports, remainingRefundable, type RefundRecord, type RefundablePayment } from './refunds';

const at = new Date('2026-10-01T12:00:00Z');

function refund(overrides: Partial<RefundRecord>): RefundRecord {
  return {
    id: 're_01jaaaaaaaaaaaaaaaaaaaaaaa',
    amount: 100,
    status: 'pending',
    reason: '',
    source: 'service',
    provider_refund_id: '',
    failure_code: '',
    failure_reason: '',
    announced: true,
    created_at: at,
    updated_at: at,
    ...overrides,
  };
}

function paid(refunds: RefundRecord[] = [], overrides: Partial<RefundablePayment> = {}): RefundablePayment {
  const amountRefunded = refunds.filter((r) => r.status === 'succeeded').reduce((s, r) => s + r.amount, 0);
  return { status: 'succeeded', amount: 1000, amount_refunded: amountRefunded, refunds, ...overrides };
}

let seq = 0;
const newId = () => `re_new${++seq}`;

describe('refund amounts', () => {
  it('counts succeeded and pending refunds against what is left; failed ones free their amount', () => {
    const refunds = [refund({ id: 're_a', amount: 300, status: 'succeeded' }), refund({ id: 're_b', amount: 200 }), refund({ id: 're_c', amount: 400, status: 'failed' })];
    expect(remainingRefundable(paid(refunds))).toBe(500);
  });

  it('refunds everything left when amount is omitted', () => {
    expect(checkRefundRequest(paid([refund({ amount: 250, status: 'succeeded' })], { status: 'partially_refunded' }), undefined)).toEqual({ ok: true, amount: 750 });
  });

  it('refuses more than is left, naming what is left', () => {
    expect(checkRefundRequest(paid([refund({ amount: 900 })]), 101)).toEqual({ ok: false, reason: 'exceeds_remaining', remaining: 100 });
    expect(checkRefundRequest(paid([refund({ amount: 1000 })]), undefined)).toEqual({ ok: false, reason: 'exceeds_remaining', remaining: 0 });
  });

  it('refuses amounts below 1 cent and fractional amounts', () => {
    expect(checkRefundRequest(paid(), 0)).toMatchObject({ ok: false, reason: 'too_small' });
    expect(checkRefundRequest(paid(), 1.5)).toMatchObject({ ok: false, reason: 'too_small' });
  });

  it.each(['pending', 'canceled', 'failed', 'refunded', 'requires_method', 'processing'] as const)('refuses to refund a %s payment', (status) => {
    expect(checkRefundRequest(paid([], { status }), 100)).toMatchObject({ ok: false, reason: 'not_refundable' });
  });
});

describe('provider reports', () => {
  it('matches our refund by the key we sent, in the provider alphabet (underscore stripped)', () => {
    const ours = refund({ id: 're_01jxyz' });
    expect(findReported([ours], { refund_key: 're01jxyz', provider_refund_id: 're01jxyz' })).toBe(ours);
    expect(findReported([ours], { provider_refund_id: 'painel123' })).toBeUndefined();
  });

  it('a succeeded partial refund moves amount_refunded and the payment to partially_refunded', () => {
    const plan = planReports(paid([refund({ id: 're_a', amount: 300 })]), [{ provider_refund_id: 're_a', refund_key: 're_a', amount: 300, status: 'succeeded' }], at, newId);
    expect(plan).toMatchObject({ amount_refunded: 300, status: 'partially_refunded' });
    expect(plan?.events.map((e) => e.type)).toEqual(['refund.succeeded', 'payment.partially_refunded']);
    expect(plan?.refunds[0]).toMatchObject({ status: 'succeeded', provider_refund_id: 're_a' });
  });

  it('the refund that completes the amount makes the payment refunded', () => {
    const before = paid([refund({ id: 're_a', amount: 300, status: 'succeeded' }), refund({ id: 're_b', amount: 700 })], { status: 'partially_refunded' });
    const plan = planReports(before, [{ provider_refund_id: 'reb', refund_key: 'reb', amount: 700, status: 'succeeded' }], at, newId);
    expect(plan).toMatchObject({ amount_refunded: 1000, status: 'refunded' });
    expect(plan?.events.map((e) => e.type)).toEqual(['refund.succeeded', 'payment.refunded']);
    expect(canTransition('partially_refunded', 'refunded')).toBe(true);
  });

  it('a failed refund frees its amount and leaves the payment as it was', () => {
    const plan = planReports(paid([refund({ id: 're_a', amount: 300 })]), [{ provider_refund_id: 'rea', refund_key: 'rea', amount: 300, status: 'failed', failure_reason: 'recusada' }], at, newId);
    expect(plan).toMatchObject({ amount_refunded: 0, status: 'succeeded' });
    expect(plan?.events.map((e) => e.type)).toEqual(['refund.failed']);
    expect(plan?.refunds[0]).toMatchObject({ status: 'failed', failure_reason: 'recusada' });
    expect(remainingRefundable({ amount: 1000, refunds: plan!.refunds })).toBe(1000);
  });

  it('announces a reservation when the provider accepts it (refund.created), with its outcome', () => {
    const plan = planReports(paid([refund({ id: 're_a', amount: 1000, announced: false })]), [{ provider_refund_id: 'rea', refund_key: 're_a', amount: 1000, status: 'succeeded' }], at, newId);
    expect(plan?.events.map((e) => e.type)).toEqual(['refund.created', 'refund.succeeded', 'payment.refunded']);
  });

  it('adds a refund made in the provider dashboard with source provider', () => {
    const plan = planReports(paid(), [{ provider_refund_id: 'painel9', refund_key: 'painel9', amount: 250, status: 'succeeded', reason: 'painel' }], at, newId);
    expect(plan?.refunds).toEqual([expect.objectContaining({ source: 'provider', provider_refund_id: 'painel9', amount: 250, status: 'succeeded', reason: 'painel' })]);
    expect(plan?.events.map((e) => e.type)).toEqual(['refund.created', 'refund.succeeded', 'payment.partially_refunded']);
  });

  it('defers a refund reported without a key while one of ours awaits the provider id (never counted twice)', () => {
    const waiting = paid([refund({ id: 're_a', amount: 300, announced: false })]);
    const keyless = { provider_refund_id: '1984215760', amount: 300, status: 'pending' as const };
    expect(planReports(waiting, [keyless], at, newId)).toBeNull();
    // Once our refund carries the provider's id, the same report finds it instead of adding one.
    const named = paid([refund({ id: 're_a', amount: 300, provider_refund_id: '1984215760' })]);
    const plan = planReports(named, [{ ...keyless, status: 'succeeded' }], at, newId);
    expect(plan?.refunds).toEqual([expect.objectContaining({ id: 're_a', source: 'service', status: 'succeeded' })]);
    // A keyless dashboard refund with no request of ours in flight is added as before.
    expect(planReports(paid(), [{ ...keyless, provider_refund_id: 'asaas_rf_1' }], at, newId)?.refunds).toEqual([expect.objectContaining({ source: 'provider' })]);
  });

  it('is a no-op for a replayed report, and never reopens a final refund', () => {
    const done = paid([refund({ id: 're_a', amount: 300, status: 'succeeded', provider_refund_id: 'rea' })], { status: 'partially_refunded' });
    expect(planReports(done, [{ provider_refund_id: 'rea', refund_key: 'rea', amount: 300, status: 'succeeded' }], at, newId)).toBeNull();
    expect(planReports(done, [{ provider_refund_id: 'rea', refund_key: 'rea', amount: 300, status: 'failed' }], at, newId)).toBeNull();
    expect(planReports(done, [{ provider_refund_id: 'rea', refund_key: 'rea', amount: 300, status: 'pending' }], at, newId)).toBeNull();
  });
});

describe('provider reports never return more than was paid', () => {
  it('ignores a provider-made refund that would pass the amount (the same money reported twice)', () => {
    const payment = {
      amount: 1000,
      amount_refunded: 1000,
      status: 'refunded' as const,
      refunds: [{ id: 're_d', amount: 1000, status: 'succeeded' as const, reason: '', source: 'provider' as const, provider_refund_id: 'dispute:dp_1', failure_code: '', failure_reason: '', created_at: new Date(), updated_at: new Date() }],
    };
    const plan = planReports(payment as never, [{ provider_refund_id: 'D1234', amount: 1000, status: 'succeeded' }], new Date(), () => 're_new');
    expect(plan).toBeNull();
  });

  it('records a dispute return even while one of our refunds awaits its provider id (it has a key of its own)', () => {
    const payment = {
      amount: 1000,
      amount_refunded: 0,
      status: 'succeeded' as const,
      refunds: [{ id: 're_ours', amount: 200, status: 'pending' as const, reason: '', source: 'service' as const, provider_refund_id: '', failure_code: '', failure_reason: '', created_at: new Date(), updated_at: new Date() }],
    };
    const plan = planReports(payment as never, [{ provider_refund_id: 'dispute:dp_1', refund_key: 'dispute:dp_1', amount: 800, status: 'succeeded' }], new Date(), () => 're_new');
    expect(plan?.refunds.map((r) => [r.id, r.amount, r.status])).toEqual([
      ['re_ours', 200, 'pending'],
      ['re_new', 800, 'succeeded'],
    ]);
  });
});
