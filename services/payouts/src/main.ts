import './telemetry';
import { accounts, payouts, providers } from '@orquestra/contracts';
import { createRpcClient, ensureIndexes, runService } from '@orquestra/platform';
import { config } from './config';
import { DailyLimit } from './db/daily-limit';
import { registerPayoutDayModel, registerPayoutModel } from './db/payout.model';
import { registerSubaccountModel } from './db/subaccount.model';
import { PayoutStore } from './db/payout.store';
import { startSubaccountConsumer } from './events/subaccount.consumer';
import { startTransferConsumer } from './events/transfer.consumer';
import { payoutsHandlers } from './grpc/payouts.handlers';
import { payoutChecks } from './jobs/payout-checks';
import { PayoutsService } from './use-cases/payouts.service';
import { SubaccountsService } from './use-cases/subaccounts.service';
import { WithdrawalsService } from './use-cases/withdrawals.service';

void runService({
  config,
  grpcAddress: config.GRPC_ADDRESS,
  setup: async ({ db, grpc, bus, outbox, logger, onShutdown }) => {
    const payoutModel = registerPayoutModel(db);
    const dayModel = registerPayoutDayModel(db);
    const subaccountModel = registerSubaccountModel(db);
    await ensureIndexes(db);
    await outbox.watch(payoutModel.collection);
    await outbox.watch(subaccountModel.collection);
    const providersClient = createRpcClient(providers.ProvidersServiceService, config.PROVIDERS_GRPC_ADDR, { deadlineMs: config.GRPC_DEADLINE_MS });
    const accountsClient = createRpcClient(accounts.AccountsServiceService, config.ACCOUNTS_GRPC_ADDR, { deadlineMs: config.GRPC_DEADLINE_MS });
    onShutdown(() => providersClient.close());
    onShutdown(() => accountsClient.close());
    const store = new PayoutStore(payoutModel, outbox);
    const subaccounts = new SubaccountsService(subaccountModel, outbox, providersClient);
    const service = new PayoutsService(store, new DailyLimit(dayModel), providersClient, accountsClient, logger, {
      recheckBaseMs: config.PAYOUT_RECHECK_BASE_MS,
      recheckMaxMs: config.PAYOUT_RECHECK_MAX_MS,
      processingPollMs: config.PAYOUT_PROCESSING_POLL_MS,
      notMadeAfterMs: config.PAYOUT_NOT_MADE_AFTER_MS,
      balanceTtlMs: config.BALANCE_CACHE_TTL_MS,
      withdrawalSource: (doc) => subaccounts.withdrawalSourceOf(doc),
    });
    const withdrawals = new WithdrawalsService(service, store, subaccounts, accountsClient, { recheckBaseMs: config.PAYOUT_RECHECK_BASE_MS });
    grpc.addService(payouts.PayoutsServiceService, payoutsHandlers(service, subaccounts, withdrawals), 'orquestra.payouts.v1.PayoutsService');
    await startTransferConsumer(bus, store, service, logger);
    await startSubaccountConsumer(bus, subaccounts, logger);
    const checks = payoutChecks(store, service, logger);
    checks.start();
    onShutdown(() => checks.stop());
  },
});
