import { AppError, isDuplicateKeyError, isErrorCode, newId } from '@orquestra/platform';
import type { CallerScope } from './subscription.store';
import type { IdempotencyRecordDoc, IdempotencyRecordModel } from './idempotency-record.model';
import type { SubscriptionDoc } from './subscription.model';

const POLL_MS = 50;

/**
 * The Idempotency-Keys of subscription creation (idempotency-record.model.ts): the first request
 * inserts the key with the subscription id and account every repeat then uses; no lease, no lock.
 */
export class SubscriptionKeys {
  constructor(
    private readonly records: IdempotencyRecordModel,
    private readonly subscriptions: { findById(id: string): Promise<SubscriptionDoc | null> },
    private readonly waitMs: number,
    private readonly takeoverMs: number,
    private readonly now: () => Date,
  ) {}

  /** Inserts the key (unique on merchant, mode, key) or reads the one that won; the same key with another body is refused. */
  async claim(scope: CallerScope, key: string, requestHash: string, chooseAccount: () => Promise<string>): Promise<{ record: IdempotencyRecordDoc; owner: boolean }> {
    const recordId = `${scope.merchantId}:${scope.mode}:${key}`;
    for (;;) {
      const existing = await this.records.findById(recordId).lean<IdempotencyRecordDoc>().exec();
      if (existing) {
        if (existing.request_hash !== requestHash) throw new AppError('idempotency_conflict', { param: 'Idempotency-Key' });
        return { record: existing, owner: false };
      }
      const record: IdempotencyRecordDoc = {
        _id: recordId,
        merchant_id: scope.merchantId,
        mode: scope.mode,
        key,
        request_hash: requestHash,
        subscription_id: newId('subscription'),
        provider_account_id: await chooseAccount(),
        created_at: this.now(),
      };
      try {
        await this.records.create(record);
        return { record, owner: true };
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
  }

  /**
   * A repeat of a key another request holds: that request's subscription once it exists; its
   * failure when it failed while this one waited (a concurrent repeat shares the outcome); a
   * failure older than this request is retried by whichever repeat clears it first (one
   * conditional write), the others wait for that retry. After the wait: `waited` (see takeOver).
   */
  async awaitOwner(record: IdempotencyRecordDoc, arrived: Date): Promise<{ kind: 'done'; subscription: SubscriptionDoc } | { kind: 'retry' | 'waited' }> {
    const until = Date.now() + this.waitMs;
    for (;;) {
      const subscription = await this.subscriptions.findById(record.subscription_id);
      if (subscription) return { kind: 'done', subscription };
      const current = await this.records.findById(record._id).lean<IdempotencyRecordDoc>().exec();
      const failure = current?.failure;
      if (failure && failure.at.getTime() >= arrived.getTime()) {
        throw new AppError(isErrorCode(failure.code) ? failure.code : 'internal', { message: failure.message, ...(failure.param ? { param: failure.param } : {}) });
      }
      if (failure) {
        const taken = await this.records.updateOne({ _id: record._id, 'failure.at': failure.at }, { $set: { failure: null } }).exec();
        if (taken.matchedCount === 1) return { kind: 'retry' };
      }
      if (Date.now() >= until) return { kind: 'waited' };
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /**
   * Takes the key over from a request that claimed it more than `takeoverMs` ago and never
   * finished (its process died): one conditional write on the claim time, so one repeat wins.
   */
  async takeOver(record: IdempotencyRecordDoc): Promise<boolean> {
    const current = await this.records.findById(record._id).lean<IdempotencyRecordDoc>().exec();
    if (!current || this.now().getTime() - current.created_at.getTime() < this.takeoverMs) return false;
    const taken = await this.records.updateOne({ _id: record._id, created_at: current.created_at }, { $set: { created_at: this.now() } }).exec();
    return taken.matchedCount === 1;
  }

  /** Records the creation's failure (nothing was made) for the repeats. */
  async fail(record: IdempotencyRecordDoc, error: AppError): Promise<void> {
    await this.records.updateOne({ _id: record._id }, { $set: { failure: { code: error.code, message: error.message, param: error.param ?? '', at: this.now() } } }).exec();
  }
}
