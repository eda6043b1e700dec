import './telemetry';
import { PROVIDER_ACCOUNTS_CHANGED, providers, vault, type ProviderAccountsChanged } from '@orquestra/contracts';
import { createRpcClient, ensureIndexes, runService, SecretBox } from '@orquestra/platform';
import { VaultCards } from './domain/vault-cards';
import { createAdapterFactory } from './adapters/adapter-factory';
import './adapters';
import { ProviderMetrics } from './breakers/provider-metrics';
import { BreakerRegistry } from './breakers/breaker-registry';
import { shareBreakers } from './breakers/shared-breakers';
import { registerBreakerStateModel } from './db/breaker-state.model';
import { config } from './config';
import { registerProviderAccountModel } from './db/provider-account.model';
import { registerWebhookReceiptModel } from './db/webhook-receipt.model';
import { ProviderAccountService } from './domain/provider-account.service';
import { WebhookIntakeService } from './domain/webhook-intake.service';
import { providersHandlers } from './grpc/providers.handlers';
import { DisputePollWorker } from './jobs/dispute-poll.worker';
import { registerDisputePollModel } from './db/dispute-poll.model';
import { registerSubaccountSecretModel } from './db/subaccount-secret.model';
import { SubaccountSecrets } from './domain/subaccount-secrets';
import { emulatorControls } from './sandbox/emulator-control';

void runService({
  config,
  grpcAddress: config.GRPC_ADDRESS,
  setup: async ({ db, grpc, bus, outbox, logger, metrics, onShutdown }) => {
    const accountModel = registerProviderAccountModel(db);
    const receipts = registerWebhookReceiptModel(db);
    const pollModel = registerDisputePollModel(db);
    const subaccountSecretModel = registerSubaccountSecretModel(db);
    const breakerStates = registerBreakerStateModel(db);
    await ensureIndexes(db);
    await outbox.watch(receipts.collection);
    const breakers = new BreakerRegistry(
      {
        errorThresholdPercentage: config.BREAKER_ERROR_THRESHOLD_PERCENT,
        volumeThreshold: config.BREAKER_VOLUME_THRESHOLD,
        resetTimeout: config.BREAKER_RESET_TIMEOUT_MS,
        rollingWindowMs: config.BREAKER_ROLLING_WINDOW_MS,
        consecutiveFailures: config.BREAKER_CONSECUTIVE_FAILURES,
      },
      logger,
    );
    onShutdown(() => breakers.shutdown());
    const providerMetrics = new ProviderMetrics(metrics.registry, breakers, logger);
    breakers.onCallEnd = (provider, accountId, result, seconds) => providerMetrics.observe(provider, accountId, result, seconds);
    const secretBox = SecretBox.fromConfig(config.CREDENTIALS_ENCRYPTION_KEYS);
    const accounts = new ProviderAccountService(
      accountModel,
      secretBox,
      breakers,
      createAdapterFactory(config, (exchange) => providerMetrics.observeExchange(exchange)),
      config.PUBLIC_WEBHOOK_BASE_URL,
      logger,
      // Control URLs are configured for the local emulators only (development and tests).
      emulatorControls(config.PROVIDER_ENDPOINTS, config.PROVIDER_TIMEOUT_MS),
    );
    // Routing caches each merchant's accounts with their breaker states: tell every replica of it.
    // The signal is confirmed by the broker before the change is answered (it never throws).
    const accountsChanged = (scope: { merchant_id: string; mode: 'test' | 'live' }, change: ProviderAccountsChanged) =>
      bus.signal(PROVIDER_ACCOUNTS_CHANGED, scope, change);
    accounts.onChange = (account, reason) => accountsChanged({ merchant_id: account.merchant_id, mode: account.mode }, { account_id: account._id, reason });
    // Every replica opens and closes the same breakers: its own transitions are stored and
    // broadcast, the others' applied (breakers/shared-breakers.ts). Any change, its own or applied,
    // tells routing, which then reads the accounts again from whichever replica it reaches.
    const sharedBreakers = await shareBreakers({
      bus,
      model: breakerStates,
      breakers,
      logger,
      resetTimeoutMs: config.BREAKER_RESET_TIMEOUT_MS,
      syncMs: config.BREAKER_SYNC_MS,
      onChange: (accountId) => void accountsChanged({ merchant_id: '', mode: 'test' }, { account_id: accountId, reason: 'breaker' }),
    });
    onShutdown(() => sharedBreakers.stop());
    const subaccountSecrets = new SubaccountSecrets(subaccountSecretModel, secretBox);
    const webhooks = new WebhookIntakeService(accounts, receipts, outbox, logger, subaccountSecrets);
    // Disputes of providers that list them (Efí infrações): polled per account as due work.
    await outbox.watch(pollModel.collection);
    const disputePolls = new DisputePollWorker(pollModel, accountModel, accounts, outbox, logger, {
      intervalMs: config.DISPUTE_POLL_INTERVAL_MS,
      lookbackDays: config.DISPUTE_POLL_LOOKBACK_DAYS,
    });
    disputePolls.start();
    onShutdown(() => disputePolls.stop());
    const vaultClient = createRpcClient(vault.VaultServiceService, config.VAULT_GRPC_ADDR, { deadlineMs: config.GRPC_DEADLINE_MS });
    onShutdown(() => vaultClient.close());
    const vaultCards = new VaultCards(vaultClient, logger);
    grpc.addService(
      providers.ProvidersServiceService,
      providersHandlers({ accounts, breakers, webhooks, subaccountSecrets, vaultCards }),
      'orquestra.providers.v1.ProvidersService',
    );
  },
});
