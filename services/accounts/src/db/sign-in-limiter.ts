import { isDuplicateKeyError } from '@orquestra/platform';
import type { Model } from 'mongoose';
import { retryAfterSeconds, signInCounters, type SignInLimits } from '../domain/sign-in-limit';
import type { SignInCounterDoc } from './owner.models';

/**
 * The sign-in rate limit, shared by every replica through the store: each attempt is ONE guarded
 * `$inc` per counter (`count < max` in the filter, upserted). A counter at its ceiling matches
 * nothing, the upsert then collides with the existing `_id`, and that duplicate-key answer is the
 * refusal: no read-then-write, so two replicas can never both let the eleventh attempt through.
 */
export class SignInLimiter {
  constructor(
    private readonly counters: Model<SignInCounterDoc>,
    private readonly limits: SignInLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Charges one attempt; answers the seconds to wait when a counter is full (nothing charged after it). */
  async charge(email: string, ip: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
    const now = this.now();
    for (const counter of signInCounters(email, ip, now, this.limits)) {
      try {
        await this.counters.updateOne(
          { _id: counter.id, count: { $lt: counter.max } },
          { $inc: { count: 1 }, $setOnInsert: { expires_at: new Date(counter.resetsAt) } },
          { upsert: true },
        );
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        return { allowed: false, retryAfterSeconds: retryAfterSeconds(counter.resetsAt, now) };
      }
    }
    return { allowed: true };
  }
}
