import { DueWorker } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { PayoutDoc } from '../db/payout.model';
import type { PayoutStore } from '../db/payout.store';
import type { PayoutsService } from '../use-cases/payouts.service';

/**
 * Due work (ARCHITECTURE.md "Scheduled work"): payouts still open whose next look at the provider
 * is due — uncertain ones with backoff, processing ones without a webhook yet, and those whose
 * creating request died before the provider answered. Each look only reads (GetTransfer): nothing
 * is ever sent from here. The DueWorker's claim keeps two replicas off one payout at a time.
 */
export function payoutChecks(store: PayoutStore, service: PayoutsService, logger: Logger): DueWorker<PayoutDoc> {
  return new DueWorker<PayoutDoc>({
    name: 'payout-checks',
    collection: store.collection,
    filter: { status: { $in: ['pending', 'processing'] } },
    logger,
    handle: async (claimed) => {
      await service.check(claimed);
    },
  });
}
