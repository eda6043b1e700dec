import { AppError } from '@orquestra/platform';
import { newId } from '@orquestra/platform';
import { paymentStateFromEvent } from './analytics.consumer';
import { daysOfRange } from './overview';
import { merchantArgument } from './rebuild.command';

function paramOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('parameter_invalid');
    return (error as AppError).param;
  }
  throw new Error('expected parameter_invalid');
}

describe('daysOfRange', () => {
  it('lists every day, both ends included, across months and a leap day', () => {
    expect(daysOfRange('2028-02-27', '2028-03-01')).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
    expect(daysOfRange('2026-11-10', '2026-11-10')).toEqual(['2026-11-10']);
  });

  it('accepts 366 days and refuses 367 with param days', () => {
    expect(daysOfRange('2027-01-01', '2028-01-01')).toHaveLength(366);
    expect(paramOf(() => daysOfRange('2027-01-01', '2028-01-02'))).toBe('days');
  });

  it('refuses malformed or impossible dates and start after end, naming the param', () => {
    expect(paramOf(() => daysOfRange('2026-13-01', '2026-12-01'))).toBe('start');
    expect(paramOf(() => daysOfRange('2026-02-30', '2026-03-01'))).toBe('start');
    expect(paramOf(() => daysOfRange('2026-11-01', '11/30/2026'))).toBe('end');
    expect(paramOf(() => daysOfRange('', ''))).toBe('start');
    expect(paramOf(() => daysOfRange('2026-11-02', '2026-11-01'))).toBe('start');
  });
});

describe('paymentStateFromEvent', () => {
  const event = (object: Record<string, unknown>) => ({ id: newId('event'), type: 'payment.created', created: 0, merchant_id: 'acct_1', mode: 'test' as const, source: null, data: { object } });

  it('reads the public payment, nulls as empty', () => {
    const state = paymentStateFromEvent(
      event({ id: 'pay_1', object: 'payment', status: 'requires_method', amount: 500, amount_refunded: 0, fee: 0, method: null, provider: null, provider_account_id: null, created_at: '2026-11-10T03:30:00.000Z', updated_at: '2026-11-10T03:30:00.000Z' }),
    );
    expect(state).toMatchObject({ id: 'pay_1', merchant_id: 'acct_1', mode: 'test', method: '', provider_account_id: '', amount: 500 });
    expect(state?.created_at.toISOString()).toBe('2026-11-10T03:30:00.000Z');
  });

  it('refuses objects that are not payments', () => {
    expect(paymentStateFromEvent(event({ id: 're_1', object: 'refund', status: 'succeeded', amount: 1 }))).toBeNull();
    expect(paymentStateFromEvent(event({ id: 'pay_1', object: 'payment', status: 'weird', amount: 1, amount_refunded: 0, created_at: 'x', updated_at: 'x' }))).toBeNull();
  });
});

describe('merchantArgument', () => {
  it('reads --merchant <id> and --merchant=<id>', () => {
    expect(merchantArgument([])).toBeUndefined();
    expect(merchantArgument(['--merchant', 'acct_1'])).toBe('acct_1');
    expect(merchantArgument(['--merchant=acct_2'])).toBe('acct_2');
    expect(() => merchantArgument(['--merchant'])).toThrow();
  });
});
