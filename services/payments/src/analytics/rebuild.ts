import type { Collection } from 'mongodb';
import type { Logger } from 'pino';
import type { PaymentDoc, PaymentModel } from '../db/payment.model';
import type { AnalyticsLedger } from './analytics-ledger';
import type { BucketDoc, BucketModel, ContributionDoc, ContributionModel } from './analytics.model';
import { addCounts, bucketId, COUNT_FIELDS, compareVersions, contributionOf, versionOf, zeroCounts, type BucketKey, type Counts, type PaymentState } from './figures';

const PAGE = 500;
const MAX_BUCKET_ROUNDS = 10;

export function paymentStateOf(doc: PaymentDoc): PaymentState {
  return {
    id: doc._id,
    merchant_id: doc.merchant_id,
    mode: doc.mode,
    status: doc.status,
    amount: doc.amount,
    amount_refunded: doc.amount_refunded ?? 0,
    fee: doc.fee ?? 0,
    method: doc.method ?? '',
    provider: doc.provider ?? '',
    provider_account_id: doc.provider_account_id ?? '',
    created_at: new Date(doc.created_at),
    updated_at: new Date(doc.updated_at),
  };
}

export interface RebuildResult {
  payments: number;
  contributions_rewritten: number;
  buckets_written: number;
  /** Buckets whose $set lost to consumer writes every round: run again. */
  buckets_unsettled: number;
}

/**
 * `rebuild-analytics` (docs/analytics.md "Rebuild"): recomputes every payment's contribution from
 * the payments collection, then sets each bucket of the merchants concerned to the sum of its
 * contributions. Safe while the consumer runs:
 * - a contribution is rewritten with the payment's own version (updated_at) and only if the one
 *   stored is not newer, so events older than what was read are skipped afterwards, and newer ones
 *   move the contribution as usual;
 * - a bucket's `$set` holds only if no `$inc` reached it since its revision was read (before its
 *   contributions were summed); otherwise that bucket is summed again.
 */
export class AnalyticsRebuild {
  private readonly buckets: Collection<BucketDoc>;
  private readonly contributions: Collection<ContributionDoc>;

  constructor(
    private readonly payments: PaymentModel,
    models: { buckets: BucketModel; contributions: ContributionModel },
    private readonly ledger: AnalyticsLedger,
    private readonly logger: Logger,
  ) {
    this.buckets = models.buckets.collection as unknown as Collection<BucketDoc>;
    this.contributions = models.contributions.collection as unknown as Collection<ContributionDoc>;
  }

  async run(options: { merchantId?: string } = {}): Promise<RebuildResult> {
    const result: RebuildResult = { payments: 0, contributions_rewritten: 0, buckets_written: 0, buckets_unsettled: 0 };
    const scopes = new Set<string>();
    let after = '';
    for (;;) {
      const filter: Record<string, unknown> = after ? { _id: { $gt: after } } : {};
      if (options.merchantId) filter.merchant_id = options.merchantId;
      const page = await this.payments
        .find(filter, { _id: 1, merchant_id: 1, mode: 1, status: 1, amount: 1, amount_refunded: 1, fee: 1, method: 1, provider: 1, provider_account_id: 1, created_at: 1, updated_at: 1 })
        .sort({ _id: 1 })
        .limit(PAGE)
        .lean<PaymentDoc[]>();
      const last = page[page.length - 1];
      if (!last) break;
      for (const doc of page) {
        scopes.add(`${doc.merchant_id}|${doc.mode}`);
        if (await this.rewriteContribution(paymentStateOf(doc))) result.contributions_rewritten += 1;
      }
      result.payments += page.length;
      after = last._id;
      this.logger.info({ payments: result.payments }, 'analytics rebuild: contributions');
    }
    for (const scope of scopes) {
      const [merchantId, mode] = scope.split('|') as [string, 'test' | 'live'];
      const { written, unsettled } = await this.rebuildBuckets(merchantId, mode);
      result.buckets_written += written;
      result.buckets_unsettled += unsettled;
    }
    return result;
  }

  /** The contribution at the payment's state, unless an event already brought a newer one. */
  private async rewriteContribution(state: PaymentState): Promise<boolean> {
    const version = versionOf(state);
    const applied = contributionOf(state);
    for (let round = 0; round < 10; round += 1) {
      const current = await this.contributions.findOne({ _id: state.id });
      if (current?.pending) {
        // An operation under way: let it land first (its guards make this safe).
        await this.ledger.applyToBuckets(current.pending);
        await this.ledger.finish(state.id, current.pending);
        continue;
      }
      if (current?.version && compareVersions(current.version, version) > 0) return false;
      if (!current) {
        try {
          await this.contributions.insertOne({ _id: state.id, merchant_id: state.merchant_id, mode: state.mode, seq: 1, applied, version, pending: null });
          return true;
        } catch (error) {
          if ((error as { code?: number }).code === 11000) continue;
          throw error;
        }
      }
      const written = await this.contributions.updateOne({ _id: state.id, seq: current.seq, pending: null }, { $set: { applied, version }, $inc: { seq: 1 } });
      if (written.matchedCount === 1) return true;
    }
    throw new Error(`analytics rebuild: payment ${state.id} kept changing; run the rebuild again`);
  }

  /** Each bucket of the merchant and mode := the sum of its contributions, one conditional `$set` each. */
  private async rebuildBuckets(merchantId: string, mode: 'test' | 'live'): Promise<{ written: number; unsettled: number }> {
    let todo: Set<string> | null = null;
    let written = 0;
    for (let round = 0; round < MAX_BUCKET_ROUNDS; round += 1) {
      // Revisions first, sums second: a $inc landing after the read makes the $set miss, never lost.
      const revs = new Map<string, number>();
      for (const bucket of await this.buckets.find({ merchant_id: merchantId, mode }, { projection: { _id: 1, rev: 1 } }).toArray()) revs.set(bucket._id, bucket.rev ?? 0);
      const sums = new Map<string, { key: BucketKey; provider: string; counts: Counts }>();
      for await (const contribution of this.contributions.find({ merchant_id: merchantId, mode })) {
        let applied = contribution.applied;
        if (contribution.pending) {
          await this.ledger.applyToBuckets(contribution.pending);
          await this.ledger.finish(contribution._id, contribution.pending);
          applied = contribution.pending.to;
        }
        if (!applied) continue;
        const id = bucketId(applied.bucket);
        const sum = sums.get(id) ?? { key: applied.bucket, provider: '', counts: zeroCounts() };
        if (applied.provider) sum.provider = applied.provider;
        addCounts(sum.counts, applied.counts);
        sums.set(id, sum);
      }
      const next = new Set<string>();
      for (const id of new Set([...revs.keys(), ...sums.keys()])) {
        if (todo && !todo.has(id)) continue;
        const sum = sums.get(id);
        if (!revs.has(id) && sum) {
          await this.ledger.ensureBucket(sum.key, sum.provider);
          next.add(id); // created now: set it in the next round, against its revision
          continue;
        }
        const counts = sum?.counts ?? zeroCounts();
        const set: Record<string, unknown> = {};
        for (const field of COUNT_FIELDS) set[field] = counts[field];
        if (sum?.provider) set.provider = sum.provider;
        const done = await this.buckets.updateOne({ _id: id, rev: revs.get(id) ?? 0 }, { $set: set, $inc: { rev: 1 } });
        if (done.matchedCount === 1) written += 1;
        else next.add(id);
      }
      if (next.size === 0) return { written, unsettled: 0 };
      todo = next;
    }
    this.logger.warn({ merchant_id: merchantId, mode, buckets: todo?.size ?? 0 }, 'analytics rebuild: buckets kept changing; run it again');
    return { written, unsettled: todo?.size ?? 0 };
  }
}
