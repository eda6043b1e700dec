import { isDuplicateKeyError } from '@orquestra/platform';
import type { PayoutDayModel } from './payout.model';

/**
 * The daily payout limit, counted atomically: a reservation is one `$inc` guarded by
 * `reserved ≤ limit − amount` in its filter, so of racing payouts only those that fit are counted
 * (proved under concurrency by the integration test). A payout that fails gives its amount back.
 */
export class DailyLimit {
  constructor(private readonly days: PayoutDayModel) {}

  static dayId(merchantId: string, mode: string, day: string): string {
    return `${merchantId}:${mode}:${day}`;
  }

  /** True when `amount` fit and is now counted against the day. */
  async reserve(dayId: string, amount: number, limit: number): Promise<boolean> {
    if (amount > limit) return false;
    try {
      await this.days.create({ _id: dayId, reserved: 0, created_at: new Date() });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const result = await this.days.updateOne({ _id: dayId, reserved: { $lte: limit - amount } }, { $inc: { reserved: amount } }).exec();
    return result.modifiedCount === 1;
  }

  async release(dayId: string, amount: number): Promise<void> {
    await this.days.updateOne({ _id: dayId }, { $inc: { reserved: -amount } }).exec();
  }

  async reservedOn(dayId: string): Promise<number> {
    return (await this.days.findById(dayId).lean().exec())?.reserved ?? 0;
  }
}
