import { AppError } from '@orquestra/platform';
import { agreeingStatuses, differences, findingId, paymentIdOf, runPeriod, seenId, statusesAgree, type OurPayment, type TheirCharge } from './matching';

const ours: OurPayment = { status: 'succeeded', amount: 10_000, amount_refunded: 0, fee: 99 };
const theirs: TheirCharge = { provider_payment_id: 'ch_1', status: 'paid', amount: 10_000, amount_refunded: 0, fee: 99 };

describe('reconciliation matching rules', () => {
  it('a charge equal to our payment has no difference', () => {
    expect(differences(ours, theirs)).toEqual([]);
  });

  it.each([
    ['paid', 'succeeded', true],
    ['paid', 'partially_refunded', true],
    ['paid', 'refunded', true],
    ['paid', 'pending', false],
    ['pending', 'pending', true],
    ['pending', 'processing', true],
    ['pending', 'succeeded', false],
    ['canceled', 'canceled', true],
    ['canceled', 'failed', true],
    ['failed', 'canceled', true],
    ['failed', 'succeeded', false],
    ['refunded', 'refunded', false],
  ] as const)('provider %s against our %s: agrees = %s', (provider, payment, agrees) => {
    expect(statusesAgree(payment, provider)).toBe(agrees);
  });

  it('a status outside the contract never agrees', () => {
    expect(agreeingStatuses('weird')).toEqual([]);
  });

  it('reports each difference with both sides’ values as text', () => {
    expect(differences({ status: 'pending', amount: 10_000, amount_refunded: 0, fee: 99 }, { ...theirs, amount: 9_000, amount_refunded: 500, fee: 120 })).toEqual([
      { kind: 'status_difference', ours: { status: 'pending' }, theirs: { status: 'paid' } },
      { kind: 'amount_difference', ours: { amount: '10000' }, theirs: { amount: '9000' } },
      { kind: 'fee_difference', ours: { fee: '99' }, theirs: { fee: '120' } },
      { kind: 'refund_difference', ours: { amount_refunded: '0' }, theirs: { amount_refunded: '500' } },
    ]);
  });

  it('a fee the provider does not report is not compared', () => {
    expect(differences({ ...ours, fee: 150 }, { ...theirs, fee: null })).toEqual([]);
  });

  it('a refund the provider made and we do not know of is a refund difference, not a status one', () => {
    expect(differences(ours, { ...theirs, amount_refunded: 10_000 }).map((d) => d.kind)).toEqual(['refund_difference']);
  });

  it('finds our payment id in a reference: the id itself or an idempotency key starting with it', () => {
    expect(paymentIdOf('pay_01jd5x6y7z8a9b0c1d2e3f4g5h')).toBe('pay_01jd5x6y7z8a9b0c1d2e3f4g5h');
    expect(paymentIdOf('pay_01jd5x6y7z8a9b0c1d2e3f4g5h:pa_01jd5x6y7z8a9b0c1d2e3f4g5h')).toBe('pay_01jd5x6y7z8a9b0c1d2e3f4g5h');
    expect(paymentIdOf('orq_4b1c9d')).toBeNull();
    expect(paymentIdOf('pedido-123')).toBeNull();
    expect(paymentIdOf('')).toBeNull();
  });

  it('finding ids are deterministic per run, account, charge and kind', () => {
    const id = findingId('rec_1', 'pa_1', 'ch_1', 'status_difference');
    expect(id).toMatch(/^rcf_[0-9a-f]{26}$/);
    expect(findingId('rec_1', 'pa_1', 'ch_1', 'status_difference')).toBe(id);
    expect(new Set([id, findingId('rec_1', 'pa_1', 'ch_1', 'amount_difference'), findingId('rec_1', 'pa_2', 'ch_1', 'status_difference'), findingId('rec_2', 'pa_1', 'ch_1', 'status_difference')]).size).toBe(4);
    expect(seenId('rec_1', 'pa_1', 'ch_1')).toBe('rec_1:pa_1:ch_1');
  });

  describe('the period of a run', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const error = (start: string, end: string) => {
      try {
        runPeriod(start, end, now);
      } catch (thrown) {
        return thrown as AppError;
      }
      throw new Error('accepted');
    };

    it('accepts RFC 3339 instants with a zone, start before end, end not in the future', () => {
      expect(runPeriod('2026-11-01T00:00:00-03:00', '2026-11-25T12:00:00Z', now)).toEqual({ start: new Date('2026-11-01T03:00:00Z'), end: now });
    });

    it.each([
      ['', '2026-11-02T00:00:00Z', 'parameter_missing', 'start'],
      ['2026-11-01', '2026-11-02T00:00:00Z', 'parameter_invalid', 'start'],
      ['2026-11-01T00:00:00Z', 'amanhã', 'parameter_invalid', 'end'],
      ['2026-11-02T00:00:00Z', '2026-11-01T00:00:00Z', 'parameter_invalid', 'start'],
      ['2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z', 'parameter_invalid', 'start'],
      ['2026-11-01T00:00:00Z', '2026-11-26T00:00:00Z', 'parameter_invalid', 'end'],
      ['2026-08-01T00:00:00Z', '2026-11-03T00:00:00Z', 'parameter_invalid', 'end'],
    ])('start %j, end %j → %s on %s, in Portuguese', (start, end, code, param) => {
      const thrown = error(start, end);
      expect(thrown).toBeInstanceOf(AppError);
      expect(thrown).toMatchObject({ code, param });
      expect(thrown.message).toMatch(/deve|não|Informe|máximo/);
    });

    it('exactly 93 days is accepted', () => {
      expect(() => runPeriod('2026-08-24T12:00:00Z', '2026-11-25T12:00:00Z', now)).not.toThrow();
    });
  });
});
