import './telemetry';
import { payments, providers, routing } from '@orquestra/contracts';
import { createRpcClient, ensureIndexes, runService } from '@orquestra/platform';
import type { Collection, Document } from 'mongodb';
import { config } from './config';
import { registerIdempotencyRecordModel } from './db/idempotency-record.model';
import { registerPaymentModel } from './db/payment.model';
import { PaymentStore } from './db/payment.store';
import { PaymentLinks } from './domain/payment-links';
import { startProviderChargeConsumer } from './events/provider-charge.consumer';
import { paymentsHandlers } from './grpc/payments.handlers';
import { createPaymentExpiryWorker } from './jobs/payment-expiry.worker';
import { PaymentCreator } from './orchestration/create-payment';
import { IdempotencyGuard } from './orchestration/idempotency.guard';
import { OrphanCharges } from './orchestration/orphan-charges';
import { PaymentActions } from './orchestration/payment-actions';
import { PaymentRefunds } from './orchestration/refund-payment';

void runService({
  config,
  grpcAddress: config.GRPC_ADDRESS,
  setup: async ({ db, grpc, bus, outbox, locks, logger, onShutdown }) => {
    const paymentModel = registerPaymentModel(db);
    const idempotencyRecords = registerIdempotencyRecordModel(db);
    await ensureIndexes(db);

    const routingClient = createRpcClient(routing.RoutingServiceService, config.ROUTING_GRPC_ADDR, { deadlineMs: config.GRPC_DEADLINE_MS });
    const providersClient = createRpcClient(providers.ProvidersServiceService, config.PROVIDERS_GRPC_ADDR, {
      deadlineMs: config.PROVIDER_CALL_DEADLINE_MS,
    });
    onShutdown(() => {
      routingClient.close();
      providersClient.close();
    });

    const links = new PaymentLinks(config.PAY_BASE_URL, config.PUBLIC_BASE_URL);
    const failedCreations = db.collection('failed_creations') as unknown as Collection<Document>;
    const store = new PaymentStore(paymentModel, failedCreations, locks, outbox, links);
    await outbox.watch(store.collection);
    await outbox.watch(failedCreations);
    const idempotency = new IdempotencyGuard(idempotencyRecords, locks, config.IDEMPOTENCY_TTL_HOURS * 3_600_000, 60_000);
    const purge = setInterval(() => void idempotency.purgeExpired().catch(() => undefined), 10 * 60_000);
    purge.unref();
    onShutdown(() => clearInterval(purge));

    const orphans = new OrphanCharges(db.collection('orphan_charges') as unknown as Collection<Document>, locks, providersClient, logger);
    orphans.worker.start();
    onShutdown(() => orphans.worker.stop());
    const creator = new PaymentCreator({
      orphans,
      store,
      idempotency,
      routing: routingClient,
      providers: providersClient,
      links,
      logger,
      defaultPixExpiresMinutes: config.DEFAULT_PIX_EXPIRES_MINUTES,
      providerCallDeadlineMs: config.PROVIDER_CALL_DEADLINE_MS,
    });
    const refunds = new PaymentRefunds({
      store,
      // Its own guard: a refund request may wait for the payment's other refunds before its provider call.
      idempotency: new IdempotencyGuard(idempotencyRecords, locks, config.IDEMPOTENCY_TTL_HOURS * 3_600_000, 180_000),
      locks,
      providers: providersClient,
      logger,
      providerCallDeadlineMs: config.PROVIDER_CALL_DEADLINE_MS,
    });
    const actions = new PaymentActions(store, providersClient, logger, refunds);
    await startProviderChargeConsumer(bus, actions, logger);

    const expiry = createPaymentExpiryWorker({ collection: store.collection, locks, actions, logger, pollIntervalMs: config.EXPIRY_POLL_INTERVAL_MS });
    expiry.start();
    onShutdown(() => expiry.stop());

    grpc.addService(payments.PaymentsServiceService, paymentsHandlers({ store, creator, actions, links, refunds }), 'orquestra.payments.v1.PaymentsService');
  },
});
