import { randomUUID } from 'node:crypto';
import { AppError, isDuplicateKeyError, isErrorCode } from '@orquestra/platform';
import type { IdempotencyRecordDoc, IdempotencyRecordModel } from './idempotency-record.model';

/**
 * `owner`: this request creates the payment, under `paymentId` — the id it brought, or the earlier
 * id again (`resumed`) once a create under this key ended uncertain (provider_timeout) or its owner
 * died holding it (with `resumeAbandoned`): the charge of that attempt may exist, and only the same
 * payment id (hence the same provider idempotency key) finds it instead of charging a second time;
 * a resumed owner also finds the payment itself if the dead owner stored it.
 */
export type ClaimResult =
  | {
      kind: 'owner';
      paymentId: string;
      resumed: boolean;
      /** A resumed owner's: the account its earlier owner was asking (IdempotencyRecordDoc.trying), or ''. */
      earlierAccount: string;
      /** This owner's token (IdempotencyRecordDoc.owner): every later write of the owner names it. */
      owner: string;
    }
  | { kind: 'replay'; paymentId: string };

export interface IdempotencyGuardOptions {
  /**
   * An owner that died holding the key (its lease ended with the record still in progress) is
   * resumed under its own id instead of replaced by a new one. Payment creation sets it (its
   * owners renew their lease while they work, see `holdLease`); refunds keep a lease longer than
   * any refund request and a new id.
   */
  resumeAbandoned?: boolean;
}

const POLL_MS = 50;

/**
 * Makes POST /payments with the same Idempotency-Key return the same payment: the first request
 * claims the key (an insert on a unique `_id`) and creates the payment; concurrent and later ones
 * wait for and return that payment. Same key with a different body is a conflict. Keys are kept for
 * `ttlMs`; an owner that crashed is replaced when its lease ends. Only the owner writes the record
 * (complete / fail); a takeover is one conditional write on the record as it was read.
 */
export class IdempotencyGuard {
  constructor(
    private readonly records: IdempotencyRecordModel,
    private readonly ttlMs: number,
    private readonly leaseMs: number,
    private readonly options: IdempotencyGuardOptions = {},
  ) {}

  static recordId(merchantId: string, mode: string, key: string): string {
    return `${merchantId}:${mode}:${key}`;
  }

  /** `trying`: the account this owner asks first, when known before the claim (IdempotencyRecordDoc.trying). */
  async claim(recordId: string, requestHash: string, paymentId: string, waitUntil: number, trying = ''): Promise<ClaimResult> {
    let waitedOnOwner = false;
    for (;;) {
      const now = new Date();
      const owner = randomUUID();
      try {
        await this.records.create({
          _id: recordId,
          request_hash: requestHash,
          payment_id: paymentId,
          state: 'in_progress',
          error_code: '',
          error_message: '',
          error_param: '',
          created_at: now,
          lease_until: new Date(now.getTime() + this.leaseMs),
          owner,
          ...(trying ? { trying } : {}),
        });
        return { kind: 'owner', paymentId, resumed: false, earlierAccount: '', owner };
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
      const existing = await this.records.findById(recordId).lean<IdempotencyRecordDoc>();
      if (!existing) continue; // removed by the cleanup between our insert and read: try again
      const expired = existing.created_at.getTime() + this.ttlMs < now.getTime();
      if (!expired && existing.request_hash !== requestHash) throw new AppError('idempotency_conflict', { param: 'Idempotency-Key' });
      if (!expired && existing.state === 'done') return { kind: 'replay', paymentId: existing.payment_id };
      // A request that waited on a concurrent owner shares that owner's outcome, failure included;
      // only a request arriving after the failure tries again.
      if (!expired && existing.state === 'failed' && waitedOnOwner) throw errorFromRecord(existing);
      const abandoned = existing.state === 'in_progress' && existing.lease_until.getTime() < now.getTime();
      if (expired || existing.state === 'failed' || abandoned) {
        // Take over by one conditional write on the record exactly as read (its state, owner and
        // lease): of several takers only one matches it, the others look again.
        const resumed = !expired && (existing.uncertain === true || (abandoned && this.options.resumeAbandoned === true));
        const ownerId = resumed ? existing.payment_id : paymentId;
        const taken = await this.records.updateOne(
          { _id: recordId, state: existing.state, payment_id: existing.payment_id, lease_until: existing.lease_until },
          {
            $set: {
              request_hash: requestHash,
              payment_id: ownerId,
              state: 'in_progress',
              error_code: '',
              error_message: '',
              error_param: '',
              created_at: expired ? now : existing.created_at,
              lease_until: new Date(now.getTime() + this.leaseMs),
              owner,
              // A resumed owner keeps the earlier owner's account (its charge may be there); a new owner names its own.
              ...(resumed ? {} : { trying }),
            },
          },
        );
        if (taken.matchedCount === 1) return { kind: 'owner', paymentId: ownerId, resumed, earlierAccount: resumed ? (existing.trying ?? '') : '', owner };
        continue;
      }
      if (Date.now() > waitUntil) throw new AppError('idempotency_in_progress', { param: 'Idempotency-Key' });
      waitedOnOwner = true;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /**
   * Keeps the owner's lease alive while it works (renewed every third of the lease), so the lease
   * can be short: a key whose owner died is taken over soon after, never while its owner lives.
   * Call the answer to stop.
   */
  holdLease(recordId: string, owner: string): () => void {
    const timer = setInterval(() => {
      void this.records
        .updateOne({ _id: recordId, owner, state: 'in_progress' }, { $set: { lease_until: new Date(Date.now() + this.leaseMs) } })
        .catch(() => undefined);
    }, Math.max(10, Math.floor(this.leaseMs / 3)));
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * Written before the owner asks another account than the one its record names (a failover, or a
   * first account routed after the claim): if the owner dies during that call, its successor asks
   * this account first. Fails when the store does, and then the account must not be asked.
   */
  async noteTry(recordId: string, owner: string, accountId: string): Promise<void> {
    const noted = await this.records.updateOne({ _id: recordId, owner, state: 'in_progress' }, { $set: { trying: accountId } });
    // Taken over: this owner was presumed dead (no lease renewal reached the store); its successor walks now.
    if (noted.matchedCount !== 1) throw new AppError('idempotency_in_progress', { param: 'Idempotency-Key' });
  }

  /** Only while this owner holds the key: a successor that took it over writes its own outcome. */
  async complete(recordId: string, owner: string): Promise<void> {
    await this.records.updateOne({ _id: recordId, owner, state: 'in_progress' }, { $set: { state: 'done' } });
  }

  /**
   * The owner's create failed. `uncertain` (always for provider_timeout): a charge of this payment
   * id may exist at a provider (it answered, but the payment could not be stored), so the next
   * request with the key resumes this id and finds that charge instead of making a second.
   */
  async fail(recordId: string, owner: string, error: AppError, uncertain = false): Promise<void> {
    await this.records.updateOne(
      { _id: recordId, owner, state: 'in_progress' },
      { $set: { state: 'failed', error_code: error.code, error_message: error.message, error_param: error.param ?? '', ...(uncertain || error.code === 'provider_timeout' ? { uncertain: true } : {}) } },
    );
  }

  /** Forgets keys older than the retention period. */
  async purgeExpired(): Promise<number> {
    const result = await this.records.deleteMany({ created_at: { $lt: new Date(Date.now() - this.ttlMs) } });
    return result.deletedCount;
  }
}

export function errorFromRecord(record: Pick<IdempotencyRecordDoc, 'error_code' | 'error_message' | 'error_param'>): AppError {
  const code = isErrorCode(record.error_code) ? record.error_code : 'internal';
  return new AppError(code, { message: record.error_message || undefined, param: record.error_param || undefined });
}
