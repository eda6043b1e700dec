import './telemetry';
import { customers, payments, providers, subscriptions } from '@orquestra/contracts';
import { createRpcClient, ensureIndexes, runService } from '@orquestra/platform';
import { clockFrom } from './clock/service-clock';
import { config } from './config';
import { registerCycleModel } from './db/cycle.model';
import { CycleStore } from './db/cycle.store';
import { registerIdempotencyRecordModel } from './db/idempotency-record.model';
import { registerSubscriptionModel } from './db/subscription.model';
import { SubscriptionStore } from './db/subscription.store';
import { startSubscriptionConsumers } from './events/subscription-consumers';
import { subscriptionsHandlers } from './grpc/subscriptions.handlers';
import { CycleScheduler, cycleSender } from './jobs/cycle-jobs';
import { ScheduleMetrics } from './jobs/schedule-metrics';
import { CyclesService } from './use-cases/cycles.service';
import { SubscriptionsService } from './use-cases/subscriptions.service';

void runService({
  config,
  grpcAddress: config.GRPC_ADDRESS,
  setup: async ({ db, grpc, bus, outbox, logger, metrics, onShutdown }) => {
    const subscriptionModel = registerSubscriptionModel(db);
    const cycleModel = registerCycleModel(db);
    const idempotency = registerIdempotencyRecordModel(db);
    await ensureIndexes(db);
    await outbox.watch(subscriptionModel.collection);
    await outbox.watch(cycleModel.collection);
    const providersClient = createRpcClient(providers.ProvidersServiceService, config.PROVIDERS_GRPC_ADDR, { deadlineMs: config.GRPC_DEADLINE_MS });
    const paymentsClient = createRpcClient(payments.PaymentsServiceService, config.PAYMENTS_GRPC_ADDR, { deadlineMs: config.GRPC_DEADLINE_MS });
    onShutdown(() => providersClient.close());
    onShutdown(() => paymentsClient.close());
    // Payments serves its customer records on the same address.
    const customersClient = createRpcClient(customers.CustomersServiceService, config.PAYMENTS_GRPC_ADDR, { deadlineMs: config.GRPC_DEADLINE_MS });
    onShutdown(() => customersClient.close());
    const clock = clockFrom(config.TEST_CLOCK_FILE);
    const subscriptionStore = new SubscriptionStore(subscriptionModel, outbox);
    const cycleStore = new CycleStore(cycleModel, outbox);

    let kickSender: () => void = () => undefined;
    const cycles = new CyclesService(subscriptionStore, cycleStore, paymentsClient, providersClient, logger, {
      clock,
      sendLeaseMs: config.CYCLE_SEND_LEASE_MS,
      kickSender: () => kickSender(),
    });
    const service = new SubscriptionsService(
      subscriptionStore,
      idempotency,
      providersClient,
      customersClient,
      { approvalExpiresInSeconds: config.APPROVAL_EXPIRES_IN_SECONDS, idempotencyWaitMs: config.IDEMPOTENCY_WAIT_MS, now: clock },
      { onActivated: (sub) => cycles.adoptApprovalPayment(sub), onCanceled: (sub) => cycles.afterCancel(sub) },
    );
    grpc.addService(subscriptions.SubscriptionsServiceService, subscriptionsHandlers(service, cycles), 'orquestra.subscriptions.v1.SubscriptionsService');

    await startSubscriptionConsumers(bus, service, cycles, logger);
    const sender = cycleSender(cycleStore, cycles, logger, config.CYCLE_SEND_LEASE_MS);
    kickSender = () => sender.kick();
    sender.start();
    onShutdown(() => sender.stop());
    const scheduler = new CycleScheduler(cycles, config.CYCLE_SCHEDULE_INTERVAL_MS, logger, new ScheduleMetrics(metrics.registry));
    scheduler.start();
    onShutdown(() => scheduler.stop());
  },
});
