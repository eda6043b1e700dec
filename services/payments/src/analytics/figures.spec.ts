import { bucketId, compareVersions, contributionOf, deltaBetween, saoPauloDay, toFigures, versionOf, zeroCounts, type PaymentState } from './figures';

const payment = (over: Partial<PaymentState> = {}): PaymentState => ({
  id: 'pay_1',
  merchant_id: 'acct_1',
  mode: 'test',
  status: 'pending',
  amount: 10_000,
  amount_refunded: 0,
  fee: 0,
  method: 'pix',
  provider: 'efi',
  provider_account_id: 'pa_efi',
  created_at: new Date('2026-11-10T15:00:00Z'),
  updated_at: new Date('2026-11-10T15:00:00Z'),
  ...over,
});

describe('saoPauloDay', () => {
  it('puts 00:30 local (03:30 UTC) on the local day and 23:59 local (02:59 UTC next day) on the previous one', () => {
    expect(saoPauloDay(new Date('2026-11-10T03:30:00Z'))).toBe('2026-11-10');
    expect(saoPauloDay(new Date('2026-11-10T02:59:59.999Z'))).toBe('2026-11-09');
    expect(saoPauloDay(new Date('2026-11-10T03:00:00Z'))).toBe('2026-11-10');
    expect(saoPauloDay(new Date('2027-01-01T02:00:00Z'))).toBe('2026-12-31');
  });
});

describe('contributionOf', () => {
  it('counts a pending Pix as created and pending, with no money', () => {
    const c = contributionOf(payment());
    expect(c.bucket).toEqual({ merchant_id: 'acct_1', mode: 'test', day: '2026-11-10', provider_account_id: 'pa_efi', method: 'pix' });
    expect(c.provider).toBe('efi');
    expect(c.counts).toEqual({ ...zeroCounts(), created: 1, pending: 1 });
  });

  it('counts a paid payment as approved with its gross and fee', () => {
    expect(contributionOf(payment({ status: 'succeeded', fee: 99 })).counts).toEqual({ ...zeroCounts(), created: 1, approved: 1, gross: 10_000, fees: 99 });
  });

  it('keeps a refunded payment approved (it was paid) and adds what was refunded', () => {
    expect(contributionOf(payment({ status: 'partially_refunded', amount_refunded: 2_500, fee: 99 })).counts).toEqual({ ...zeroCounts(), created: 1, approved: 1, gross: 10_000, fees: 99, refunded: 2_500 });
    expect(contributionOf(payment({ status: 'refunded', amount_refunded: 10_000, fee: 99 })).counts).toMatchObject({ approved: 1, gross: 10_000, refunded: 10_000 });
  });

  it('counts failed as refused and canceled (expired included) as canceled, without money or fees', () => {
    expect(contributionOf(payment({ status: 'failed', fee: 50 })).counts).toEqual({ ...zeroCounts(), created: 1, refused: 1 });
    expect(contributionOf(payment({ status: 'canceled' })).counts).toEqual({ ...zeroCounts(), created: 1, canceled: 1 });
  });

  it('puts a payment without method or account in the "none" method of the empty account', () => {
    const c = contributionOf(payment({ status: 'requires_method', method: '', provider: '', provider_account_id: '' }));
    expect(c.bucket).toMatchObject({ provider_account_id: '', method: 'none' });
    expect(c.provider).toBe('');
    expect(c.counts).toEqual({ ...zeroCounts(), created: 1, pending: 1 });
  });

  it('uses the São Paulo day of creation', () => {
    expect(contributionOf(payment({ created_at: new Date('2026-11-10T02:30:00Z') })).bucket.day).toBe('2026-11-09');
  });
});

describe('deltaBetween', () => {
  it('adds the whole contribution when there was none', () => {
    const to = contributionOf(payment());
    expect(deltaBetween(null, to)).toEqual([{ bucket: to.bucket, provider: 'efi', inc: to.counts }]);
  });

  it('moves a payment within its bucket by the difference only', () => {
    const from = contributionOf(payment());
    const to = contributionOf(payment({ status: 'succeeded', fee: 99 }));
    expect(deltaBetween(from, to)).toEqual([{ bucket: from.bucket, provider: 'efi', inc: { ...zeroCounts(), pending: -1, approved: 1, gross: 10_000, fees: 99 } }]);
  });

  it('subtracts from the old bucket and adds to the new one when the method or account changes', () => {
    const from = contributionOf(payment({ status: 'requires_method', method: '', provider: '', provider_account_id: '' }));
    const to = contributionOf(payment({ status: 'pending', method: 'boleto', provider: 'asaas', provider_account_id: 'pa_asaas' }));
    const deltas = deltaBetween(from, to);
    expect(deltas).toHaveLength(2);
    expect(deltas[0]).toEqual({ bucket: from.bucket, provider: '', inc: { ...zeroCounts(), created: -1, pending: -1 } });
    expect(deltas[1]).toEqual({ bucket: to.bucket, provider: 'asaas', inc: { ...zeroCounts(), created: 1, pending: 1 } });
    expect(bucketId(deltas[0]!.bucket)).not.toBe(bucketId(deltas[1]!.bucket));
  });

  it('is empty when nothing the buckets count changed', () => {
    expect(deltaBetween(contributionOf(payment()), contributionOf(payment({ updated_at: new Date('2026-11-10T16:00:00Z') })))).toEqual([]);
  });

  it('records a refund as the refunded amount only', () => {
    const from = contributionOf(payment({ status: 'succeeded', fee: 99 }));
    const to = contributionOf(payment({ status: 'partially_refunded', fee: 99, amount_refunded: 1_000 }));
    expect(deltaBetween(from, to)[0]?.inc).toEqual({ ...zeroCounts(), refunded: 1_000 });
  });
});

describe('versions', () => {
  it('orders by updated_at, then by how far the state went on the same millisecond', () => {
    const at = new Date('2026-11-10T15:00:00Z');
    const pending = versionOf(payment({ updated_at: at }));
    const paid = versionOf(payment({ updated_at: at, status: 'succeeded' }));
    const refunded = versionOf(payment({ updated_at: at, status: 'partially_refunded', amount_refunded: 10 }));
    const later = versionOf(payment({ updated_at: new Date(at.getTime() + 1) }));
    expect(compareVersions(pending, paid)).toBeLessThan(0);
    expect(compareVersions(paid, refunded)).toBeLessThan(0);
    expect(compareVersions(refunded, later)).toBeLessThan(0);
    expect(compareVersions(paid, versionOf(payment({ updated_at: at, status: 'succeeded' })))).toBe(0);
  });
});

describe('toFigures', () => {
  it('derives net and the approval rate, leaving canceled out of it', () => {
    const f = toFigures({ ...zeroCounts(), gross: 30_000, refunded: 5_000, fees: 300, created: 6, approved: 3, refused: 1, canceled: 2 });
    expect(f.net).toBe(24_700);
    expect(f.approval_rate).toBe(0.75);
  });

  it('has no approval rate when nothing was approved or refused', () => {
    expect(toFigures({ ...zeroCounts(), created: 2, canceled: 1, pending: 1 })).not.toHaveProperty('approval_rate');
  });
});
