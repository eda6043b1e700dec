import { AppError } from '@orquestra/platform';
import type { PaymentStore } from '../db/payment.store';
import { pageTrackingOf } from '../domain/page-tracking';

/**
 * RecordPageTracking: the UTMs and click ids of the payment page's address fill the payment's
 * tracking keys that are still absent. Values sent at creation were stored first and are never
 * replaced; of two page visits bringing the same key, the first write wins.
 *
 * No event and no `updated_at` change: a page view is not a change of the payment the merchant
 * acts on, and the payment.* events that follow carry the merged tracking (the store's version
 * moves, so a transition computed from an older read is computed again).
 */
export class PageTracking {
  constructor(private readonly store: Pick<PaymentStore, 'fillMissingTracking'>) {}

  async record(paymentId: string, tracking: Record<string, string>): Promise<Record<string, string>> {
    if (!paymentId) throw new AppError('parameter_missing', { param: 'id' });
    const checked = pageTrackingOf(tracking);
    const stored = await this.store.fillMissingTracking(paymentId, checked);
    if (!stored) throw new AppError('not_found', { param: 'id' });
    return stored;
  }
}
