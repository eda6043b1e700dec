import './telemetry';
import { providers, subscriptions } from '@orquestra/contracts';
import { createRpcClient, ensureIndexes, runService } from '@orquestra/platform';
import { config } from './config';
import { registerIdempotencyRecordModel } from './db/idempotency-record.model';
import { registerSubscriptionModel } from './db/subscription.model';
import { SubscriptionStore } from './db/subscription.store';
import { subscriptionsHandlers } from './grpc/subscriptions.handlers';
import { SubscriptionsService } from './use-cases/subscriptions.service';

void runService({
  config,
  grpcAddress: config.GRPC_ADDRESS,
  setup: async ({ db, grpc, outbox, onShutdown }) => {
    const subscriptionModel = registerSubscriptionModel(db);
    const idempotency = registerIdempotencyRecordModel(db);
    await ensureIndexes(db);
    await outbox.watch(subscriptionModel.collection);
    const providersClient = createRpcClient(providers.ProvidersServiceService, config.PROVIDERS_GRPC_ADDR, { deadlineMs: config.GRPC_DEADLINE_MS });
    onShutdown(() => providersClient.close());
    const service = new SubscriptionsService(new SubscriptionStore(subscriptionModel, outbox), idempotency, providersClient, {
      approvalExpiresInSeconds: config.APPROVAL_EXPIRES_IN_SECONDS,
      idempotencyWaitMs: config.IDEMPOTENCY_WAIT_MS,
    });
    grpc.addService(subscriptions.SubscriptionsServiceService, subscriptionsHandlers(service), 'orquestra.subscriptions.v1.SubscriptionsService');
  },
});
