import { DueWorker } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { PaymentDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import type { PaymentExpiry } from '../orchestration/expire-payment';

/** Cancels pending Pix payments and payments awaiting a method whose `expires_at` passed (due work, safe with many replicas). */
export function createPaymentExpiryWorker(options: {
  store: Pick<PaymentStore, 'collection'>;
  expiry: Pick<PaymentExpiry, 'expire'>;
  logger: Logger;
  pollIntervalMs: number;
}): DueWorker<PaymentDoc> {
  return new DueWorker<PaymentDoc>({
    name: 'payment-expiry',
    collection: options.store.collection,
    // Pending Pix past its validity, and payments whose buyer did not choose a method in time.
    filter: { status: { $in: ['pending', 'requires_method'] } },
    logger: options.logger,
    pollIntervalMs: options.pollIntervalMs,
    handle: (payment) => options.expiry.expire(payment),
  });
}
