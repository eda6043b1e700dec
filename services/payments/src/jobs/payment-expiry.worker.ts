import { DueWorker, type LockManager } from '@orquestra/platform';
import type { Collection, Document } from 'mongodb';
import type { Logger } from 'pino';
import type { PaymentDoc } from '../db/payment.model';
import type { PaymentActions } from '../orchestration/payment-actions';

/** Cancels pending Pix payments and payments awaiting a method whose `expires_at` passed (due work, safe with many replicas). */
export function createPaymentExpiryWorker(options: {
  collection: Collection<Document>;
  locks: LockManager;
  actions: PaymentActions;
  logger: Logger;
  pollIntervalMs: number;
}): DueWorker<PaymentDoc> {
  return new DueWorker<PaymentDoc>({
    name: 'payment-expiry',
    collection: options.collection,
    locks: options.locks,
    // Pending Pix past its validity, and payments whose buyer did not choose a method in time.
    filter: { status: { $in: ['pending', 'requires_method'] } },
    logger: options.logger,
    pollIntervalMs: options.pollIntervalMs,
    handle: (payment) => options.actions.expire(payment),
  });
}
