import { DueWorker } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { DueRecords } from '../db/due-records';
import type { PaymentDoc } from '../db/payment.model';
import type { CallerScope } from '../db/payment-filters';
import type { RefundFollowUpDoc } from '../db/refund-follow-up.model';

/** Waits between checks: quick at first, then sparser, for about three days in all. */
export const FOLLOW_UP_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, 3_600_000, 6 * 3_600_000, 12 * 3_600_000, 24 * 3_600_000, 24 * 3_600_000];

/** Re-reads a payment at its provider and answers it as it is after (PaymentSync.sync). */
export type SyncPayment = (paymentId: string, scope: CallerScope, requestId: string) => Promise<PaymentDoc>;

/**
 * Where a refund left pending is recorded for follow-up (refund-payment.ts). Separate from the
 * worker, which syncs payments: refunds record, the worker syncs, and sync resumes refunds, with
 * no object needing another before it exists.
 */
export class RefundFollowUpRecorder {
  constructor(private readonly records: DueRecords<RefundFollowUpDoc>) {}

  async record(refundId: string, payment: { _id: string; merchant_id: string; mode: 'test' | 'live' }): Promise<void> {
    await this.records.insertOnce({
      _id: refundId,
      payment_id: payment._id,
      merchant_id: payment.merchant_id,
      mode: payment.mode,
      due_at: new Date(Date.now() + (FOLLOW_UP_DELAYS_MS[0] ?? 30_000)),
      tries: 0,
      created_at: new Date(),
    });
  }
}

/**
 * Settles pending refunds when no webhook does: due work that syncs the payment (re-reading the
 * charge and its refunds at the provider, and re-sending a refund whose answer was lost, with the
 * same key) until the refund is final. Safe with several replicas (DueWorker claims).
 */
export class RefundFollowUps {
  readonly worker: DueWorker<RefundFollowUpDoc>;

  constructor(
    private readonly records: DueRecords<RefundFollowUpDoc>,
    private readonly sync: SyncPayment,
    private readonly logger: Logger,
  ) {
    this.worker = new DueWorker<RefundFollowUpDoc>({
      name: 'refund-follow-ups',
      collection: records.collection,
      logger,
      pollIntervalMs: 5_000,
      handle: (followUp) => this.check(followUp),
    });
  }

  private async check(followUp: RefundFollowUpDoc): Promise<void> {
    let settled = false;
    try {
      const payment = await this.sync(followUp.payment_id, { merchantId: followUp.merchant_id, mode: followUp.mode }, `refund-follow-up-${followUp._id}`);
      const refund = (payment.refunds ?? []).find((r) => r.id === followUp._id);
      settled = !refund || refund.status !== 'pending';
    } catch (error) {
      this.logger.warn({ refund_id: followUp._id, err: (error as Error).message }, 'refund follow-up could not sync the payment');
    }
    if (settled) {
      await this.records.remove(followUp._id);
      return;
    }
    const delay = FOLLOW_UP_DELAYS_MS[followUp.tries + 1];
    if (delay === undefined) {
      // Three days without an answer: a person must look (the refund stays pending, visible).
      this.logger.error({ refund_id: followUp._id, payment_id: followUp.payment_id }, 'refund still pending after three days of checks');
      await this.records.park(followUp);
      return;
    }
    await this.records.retryAt(followUp, new Date(Date.now() + delay));
  }
}
