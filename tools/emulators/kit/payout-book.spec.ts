import { InsufficientBalanceError, PayoutBook, type BookTransfer } from './payout-book';
import { decodeState, encodeState } from './state-file';

const now = () => new Date('2026-11-24T12:00:00Z');

function book() {
  const settled: Array<BookTransfer<{ to: string }>> = [];
  return { book: new PayoutBook<{ to: string }>(now, (t) => settled.push({ ...t })), settled };
}

describe('PayoutBook', () => {
  it('makes one transfer per (account, key), debiting amount and fee once; another account has its own', () => {
    const { book: b } = book();
    b.setBehaviour(undefined, { outcome: 'hang', settleAfterMs: 0 });
    b.credit('a', 10_000);
    const first = b.create('a', 'k1', 't1', 4_000, 100, { to: 'x' });
    const again = b.create('a', 'k1', 't2', 4_000, 100, { to: 'x' });
    expect(first.created).toBe(true);
    expect(again).toEqual({ transfer: first.transfer, created: false });
    expect(b.balance('a')).toEqual({ available: 5_900, pending: 0 });
    expect(() => b.create('b', 'k1', 't3', 1, 0, { to: 'y' })).toThrow(InsufficientBalanceError);
    expect(b.list('b')).toEqual([]);
  });

  it('refuses what the balance does not cover, making nothing', () => {
    const { book: b } = book();
    b.credit('a', 999);
    expect(() => b.create('a', 'k', 't', 1_000, 0, { to: 'x' })).toThrow(InsufficientBalanceError);
    expect(b.findByKey('a', 'k')).toBeUndefined();
    expect(b.balance('a').available).toBe(999);
  });

  it('settles once: a failed transfer gives amount and fee back; a settled one stays', () => {
    const { book: b, settled } = book();
    b.setBehaviour('a', { outcome: 'hang', settleAfterMs: 0 });
    b.credit('a', 5_000);
    b.create('a', 'k', 't', 5_000, 0, { to: 'x' });
    expect(b.settle('t', 'failed', 'conta encerrada')).toBe(true);
    expect(b.settle('t', 'paid')).toBe(false);
    expect(settled.map((t) => [t.status, t.failureReason])).toEqual([['failed', 'conta encerrada']]);
    expect(b.balance('a').available).toBe(5_000);
  });

  it('settles on its own after the behaviour’s delay', async () => {
    const { book: b, settled } = book();
    b.setBehaviour(undefined, { outcome: 'paid', settleAfterMs: 10 });
    b.credit('a', 100);
    b.create('a', 'k', 't', 100, 0, { to: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled.map((t) => t.status)).toEqual(['paid']);
    b.close();
  });

  it('withholds the answers of the next creates, as many as asked', () => {
    const { book: b } = book();
    b.withholdAnswers('a', { delayMs: 0, remaining: 2 });
    expect(b.takeWithheld('a')).toEqual({ delayMs: 0, remaining: 2 });
    expect(b.takeWithheld('a')).toEqual({ delayMs: 0, remaining: 1 });
    expect(b.takeWithheld('a')).toBeUndefined();
  });

  it('survives the state file, scheduling again what was to settle on its own', async () => {
    const { book: b } = book();
    b.setBehaviour(undefined, { outcome: 'paid', settleAfterMs: 20 });
    b.credit('a', 300);
    b.create('a', 'k', 't', 300, 0, { to: 'x' });
    const file = encodeState(b.snapshot());
    b.close();
    const { book: restored, settled } = book();
    restored.restore(decodeState(file) as ReturnType<typeof b.snapshot>);
    expect(restored.findByKey('a', 'k')?.status).toBe('processing');
    expect(restored.balance('a').available).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(settled.map((t) => t.id)).toEqual(['t']);
    restored.close();
  });
});
