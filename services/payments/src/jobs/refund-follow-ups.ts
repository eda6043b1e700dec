import { DueWorker, isDuplicateKeyError } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { RefundFollowUpDoc, RefundFollowUpModel } from '../db/refund-follow-up.model';
import type { PaymentActions } from '../orchestration/payment-actions';

/** Waits between checks: quick at first, then sparser, for about three days in all. */
export const FOLLOW_UP_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, 3_600_000, 6 * 3_600_000, 12 * 3_600_000, 24 * 3_600_000, 24 * 3_600_000];

/**
 * Settles pending refunds when no webhook does: due work that syncs the payment (re-reading the
 * charge and its refunds at the provider, and re-sending a refund whose answer was lost, with the
 * same key) until the refund is final. Safe with several replicas (DueWorker claims).
 */
export class RefundFollowUps {
  readonly worker: DueWorker<RefundFollowUpDoc>;

  constructor(
    private readonly model: RefundFollowUpModel,
    private readonly actions: PaymentActions,
    private readonly logger: Logger,
  ) {
    this.worker = new DueWorker<RefundFollowUpDoc>({
      name: 'refund-follow-ups',
      collection: model.collection,
      logger,
      pollIntervalMs: 5_000,
      handle: (followUp) => this.check(followUp),
    });
  }

  async record(refundId: string, payment: { _id: string; merchant_id: string; mode: 'test' | 'live' }): Promise<void> {
    try {
      await this.model.create({
        _id: refundId,
        payment_id: payment._id,
        merchant_id: payment.merchant_id,
        mode: payment.mode,
        due_at: new Date(Date.now() + (FOLLOW_UP_DELAYS_MS[0] ?? 30_000)),
        tries: 0,
        created_at: new Date(),
      });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  private async check(followUp: RefundFollowUpDoc): Promise<void> {
    let settled = false;
    try {
      const payment = await this.actions.sync(followUp.payment_id, { merchantId: followUp.merchant_id, mode: followUp.mode }, `refund-follow-up-${followUp._id}`);
      const refund = (payment.refunds ?? []).find((r) => r.id === followUp._id);
      settled = !refund || refund.status !== 'pending';
    } catch (error) {
      this.logger.warn({ refund_id: followUp._id, err: (error as Error).message }, 'refund follow-up could not sync the payment');
    }
    if (settled) {
      await this.model.deleteOne({ _id: followUp._id });
      return;
    }
    const delay = FOLLOW_UP_DELAYS_MS[followUp.tries + 1];
    if (delay === undefined) {
      // Three days without an answer: a person must look (the refund stays pending, visible).
      this.logger.error({ refund_id: followUp._id, payment_id: followUp.payment_id }, 'refund still pending after three days of checks');
      await this.model.updateOne({ _id: followUp._id, due_at: followUp.due_at }, { $set: { due_at: null } });
      return;
    }
    // Only while this pass's claim stands (its due_at): a pass that took over after the lease counts its own try.
    await this.model.updateOne({ _id: followUp._id, due_at: followUp.due_at }, { $set: { due_at: new Date(Date.now() + delay), tries: followUp.tries + 1 } });
  }
}
