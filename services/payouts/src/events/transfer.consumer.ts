import { PROVIDER_TRANSFER_UPDATED, providerTransferUpdatedSchema } from '@orquestra/contracts';
import type { EventBus } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { PayoutStore } from '../db/payout.store';
import type { PayoutsService } from '../use-cases/payouts.service';

/**
 * The provider's reports of transfers (webhooks read back by providers): the payout follows. A
 * report about a transfer whose payout has not recorded its id yet (the create's answer is still on
 * its way) finds it by our payout id when the provider echoes it, else is redelivered (bounded).
 */
export async function startTransferConsumer(bus: EventBus, store: PayoutStore, service: PayoutsService, logger: Logger): Promise<void> {
  await bus.consume({ queue: 'payouts.provider-transfers', patterns: [PROVIDER_TRANSFER_UPDATED], maxAttempts: 15, retryDelayMs: 2_000 }, async (event, delivery) => {
    const parsed = providerTransferUpdatedSchema.safeParse(event.data?.object);
    if (!parsed.success) return void logger.error({ event_id: event.id }, 'malformed provider transfer event dropped');
    const report = parsed.data;
    const byId = report.payout_id ? await store.findById(report.payout_id) : null;
    const payout = byId?.provider_account_id === report.account_id ? byId : await store.findByTransfer(report.account_id, report.provider_transfer_id);
    if (!payout) throw new Error(`no payout yet for transfer ${report.provider_transfer_id} (attempt ${delivery.attempt})`);
    // A withdrawal's report is only a hint: its transfer is read back from the subaccount (GetTransfer
    // with the subaccount source), which also says whether the provider took the whole balance.
    if (payout.subaccount_id) return void (await service.check(payout));
    await service.applyTransfer(payout._id, {
      provider_transfer_id: report.provider_transfer_id,
      payout_id: payout._id,
      status: report.status,
      provider_status: report.provider_status,
      amount: report.amount,
      whole_balance: false,
      ...(report.fee !== undefined ? { fee: report.fee } : {}),
      ...(report.failure_code ? { failure_code: report.failure_code } : {}),
      ...(report.failure_reason ? { failure_reason: report.failure_reason } : {}),
      ...(report.paid_at ? { paid_at: report.paid_at } : {}),
    });
  });
}
