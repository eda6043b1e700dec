import type { BucketDoc, BucketModel, ContributionDoc, ContributionModel, PendingOpDoc } from './analytics.model';
import { bucketId, compareVersions, contributionOf, COUNT_FIELDS, deltaBetween, versionOf, zeroCounts, type BucketDelta, type Contribution, type PaymentState } from './figures';

/**
 * How many operation ids a bucket remembers. An operation is resumed (after a crash between its
 * steps) by the redelivery of its event, seconds later; it is applied twice only if more than this
 * many other operations reached the same bucket in between (docs/analytics.md "Limits").
 */
export const OP_WINDOW = 500;

/** Rounds of compare-and-set a single event may take against concurrent writers of its payment. */
const MAX_ROUNDS = 20;

export type RecordOutcome = 'applied' | 'unchanged' | 'stale';

export type PrepareResult = { kind: 'stale' } | { kind: 'unchanged' } | { kind: 'conflict' } | { kind: 'op'; op: PendingOpDoc } | { kind: 'resume'; op: PendingOpDoc };

function sameContribution(a: Contribution | null, b: Contribution | null): boolean {
  if (!a || !b) return a === b;
  return bucketId(a.bucket) === bucketId(b.bucket) && a.provider === b.provider && COUNT_FIELDS.every((field) => a.counts[field] === b.counts[field]);
}

function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: number }).code === 11000;
}

/**
 * Keeps the buckets equal to the sum of the payments' contributions, from events that may come
 * twice, late or out of order, with single-document conditional writes only:
 *
 * 1. prepare: the payment's contribution document gets the operation (from → to, the state's
 *    version) as `pending`, conditional on the `seq` read and on no other operation pending;
 *    a state not newer than the applied version is stale and skipped.
 * 2. applyToBuckets: each touched bucket gets its `$inc`, guarded by the operation id: the filter
 *    `ops: {$ne: opId}` and the `$push` of the id are the same write, so it lands at most once.
 * 3. finish: the contribution becomes `to` at the new version, and `pending` is cleared.
 *
 * A crash after 1 or 2 leaves `pending` set: the next event of that payment (the redelivery of the
 * same one included) resumes it before anything else, and the guards skip what already landed.
 */
export class AnalyticsLedger {
  private readonly buckets: BucketModel;
  private readonly contributions: ContributionModel;

  /**
   * Every write names each field it sets (the schemas declare them all) and one command each; the
   * bucket upsert adds no schema default (setDefaultsOnInsert: false): its `$setOnInsert` is whole.
   */
  constructor(models: { buckets: BucketModel; contributions: ContributionModel }) {
    this.buckets = models.buckets;
    this.contributions = models.contributions;
  }

  /**
   * Applies one observed state of a payment (from an event or a read). `likelyFirst` (a
   * payment.created event) tries the contribution's insert before reading it: one store command
   * less for a new payment, one more (the refused insert) in the rare case it was not the first.
   */
  async record(state: PaymentState, options: { likelyFirst?: boolean } = {}): Promise<RecordOutcome> {
    if (options.likelyFirst) {
      const op = await this.insertFirst(state);
      if (op) {
        await this.applyToBuckets(op);
        await this.finish(state.id, op);
        return 'applied';
      }
    }
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const prepared = await this.prepare(state);
      if (prepared.kind === 'stale' || prepared.kind === 'unchanged') return prepared.kind;
      if (prepared.kind === 'conflict') continue;
      await this.applyToBuckets(prepared.op);
      await this.finish(state.id, prepared.op);
      if (prepared.kind === 'op') return 'applied';
      // A resumed operation was another state's: now evaluate this one.
    }
    throw new Error(`analytics: payment ${state.id} kept changing under ${MAX_ROUNDS} rounds; will retry`);
  }

  /**
   * Step 1. Writes the operation that brings the contribution to `state`, or says why not:
   * `resume` hands back an operation left pending (it must run first), `conflict` means another
   * writer got there between the read and the write (read again).
   */
  async prepare(state: PaymentState): Promise<PrepareResult> {
    const current = await this.contributions.findOne({ _id: state.id }).lean<ContributionDoc>().exec();
    if (current?.pending) return { kind: 'resume', op: current.pending };
    const version = versionOf(state);
    if (current?.version && compareVersions(version, current.version) <= 0) return { kind: 'stale' };
    const to = contributionOf(state);
    const from = current?.applied ?? null;
    if (!current) {
      const op = await this.insertFirst(state);
      return op ? { kind: 'op', op } : { kind: 'conflict' };
    }
    if (sameContribution(from, to)) {
      // Newer but adds the same (say, metadata changed): only the version moves.
      const moved = await this.contributions.updateOne({ _id: state.id, seq: current.seq, pending: null }, { $set: { version }, $inc: { seq: 1 } });
      return moved.matchedCount === 1 ? { kind: 'unchanged' } : { kind: 'conflict' };
    }
    const op: PendingOpDoc = { op_id: `${state.id}:${current.seq + 1}`, from, to, version };
    const written = await this.contributions.updateOne({ _id: state.id, seq: current.seq, pending: null }, { $set: { pending: op }, $inc: { seq: 1 } });
    return written.matchedCount === 1 ? { kind: 'op', op } : { kind: 'conflict' };
  }

  /** Step 1 for a payment without a contribution yet: its document inserted with the first operation pending; null when one exists already. */
  private async insertFirst(state: PaymentState): Promise<PendingOpDoc | null> {
    const op: PendingOpDoc = { op_id: `${state.id}:1`, from: null, to: contributionOf(state), version: versionOf(state) };
    try {
      await this.contributions.create({ _id: state.id, merchant_id: state.merchant_id, mode: state.mode, seq: 1, applied: null, version: null, pending: op });
      return op;
    } catch (error) {
      if (isDuplicateKey(error)) return null;
      throw error;
    }
  }

  /** Step 2. Each bucket's share of the operation, at most once per bucket. */
  async applyToBuckets(op: PendingOpDoc): Promise<void> {
    for (const delta of deltaBetween(op.from, op.to)) await this.applyDelta(delta, op.op_id);
  }

  /** Step 3. The contribution now reflects the state; the operation is done. */
  async finish(paymentId: string, op: PendingOpDoc): Promise<void> {
    await this.contributions.updateOne({ _id: paymentId, 'pending.op_id': op.op_id }, { $set: { applied: op.to, version: op.version, pending: null }, $inc: { seq: 1 } });
  }

  private async applyDelta(delta: BucketDelta, opId: string): Promise<void> {
    const id = bucketId(delta.bucket);
    const inc: Record<string, number> = { rev: 1 };
    for (const field of COUNT_FIELDS) if (delta.inc[field] !== 0) inc[field] = delta.inc[field];
    const guarded = () =>
      this.buckets.updateOne(
        { _id: id, ops: { $ne: opId } },
        { $inc: inc, $push: { ops: { $each: [opId], $slice: -OP_WINDOW } }, ...(delta.provider ? { $set: { provider: delta.provider } } : {}) },
      );
    if ((await guarded()).matchedCount === 1) return;
    // No match: the bucket does not exist yet, or this operation already landed here (its id is in
    // the window). Create it if absent (a no-op otherwise) and try once more: once the bucket
    // exists, a miss can only mean the operation is already applied.
    await this.ensureBucket(delta.bucket, delta.provider);
    await guarded();
  }

  /** Creates the bucket with zeros if absent (a separate write: a guarded upsert would race into duplicate keys). */
  async ensureBucket(key: BucketDelta['bucket'], provider: string): Promise<string> {
    const id = bucketId(key);
    try {
      await this.buckets.updateOne(
        { _id: id },
        { $setOnInsert: { ...key, provider, ...zeroCounts(), rev: 0, ops: [] } as Partial<BucketDoc> },
        { upsert: true, setDefaultsOnInsert: false },
      );
    } catch (error) {
      // Two first writers at once: the other one created it.
      if (!isDuplicateKey(error)) throw error;
    }
    return id;
  }
}
