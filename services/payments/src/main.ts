import './telemetry';
import { customers as customersContract, disputes as disputesContract, payments, providers, routing } from '@orquestra/contracts';
import { createRpcClient, DueWorker, ensureIndexes, runService } from '@orquestra/platform';
import type { Collection, Document } from 'mongodb';
import { config } from './config';
import { registerIdempotencyRecordModel } from './db/idempotency-record.model';
import { registerPaymentModel } from './db/payment.model';
import { CustomerStore } from './db/customer.store';
import { DisputeStore } from './db/dispute.store';
import { PaymentStore } from './db/payment.store';
import { PaymentLinks } from './domain/payment-links';
import { PaymentMetrics } from './metrics/payment-metrics';
import { startProviderChargeConsumer } from './events/provider-charge.consumer';
import { startProviderDisputeConsumer } from './events/provider-dispute.consumer';
import { customersHandlers } from './grpc/customers.handlers';
import { disputesHandlers } from './grpc/disputes.handlers';
import { paymentsHandlers } from './grpc/payments.handlers';
import { createPaymentExpiryWorker } from './jobs/payment-expiry.worker';
import { RefundFollowUps } from './jobs/refund-follow-ups';
import { PaymentCreator } from './orchestration/create-payment';
import { DisputesService } from './orchestration/disputes.service';
import { ProviderDisputeIntake } from './orchestration/provider-dispute-intake';
import { IdempotencyGuard } from './orchestration/idempotency.guard';
import { OrphanCharges } from './orchestration/orphan-charges';
import { AwaitingMethodPayments } from './orchestration/awaiting-method';
import { PaymentActions } from './orchestration/payment-actions';
import { PaymentRefunds } from './orchestration/refund-payment';

void runService({
  config,
  grpcAddress: config.GRPC_ADDRESS,
  setup: async ({ db, grpc, bus, outbox, locks, logger, metrics, onShutdown }) => {
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
    // Customer records: one per document, merchant and mode, linked from the payments that name them.
    const customerCollection = db.collection('customers') as unknown as Collection<Document>;
    await CustomerStore.ensureIndexes(customerCollection);
    store.customers = new CustomerStore(customerCollection);
    store.metrics = new PaymentMetrics(metrics.registry);
    await outbox.watch(failedCreations);
    const idempotency = new IdempotencyGuard(idempotencyRecords, locks, config.IDEMPOTENCY_TTL_HOURS * 3_600_000, 60_000);
    const purge = setInterval(() => void idempotency.purgeExpired().catch(() => undefined), 10 * 60_000);
    purge.unref();
    onShutdown(() => clearInterval(purge));

    const orphans = new OrphanCharges(db.collection('orphan_charges') as unknown as Collection<Document>, locks, providersClient, logger, async (id, accountId) =>
      Boolean(await store.model.exists({ _id: id, provider_account_id: accountId })),
    );
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
      defaultMethodChoiceMinutes: config.DEFAULT_METHOD_CHOICE_MINUTES,
      boletoCancelAfterDays: config.BOLETO_CANCEL_AFTER_DAYS,
    });
    // Payments created without a method: the buyer's choice on the payment page, their cancel and expiry.
    const awaitingMethod = new AwaitingMethodPayments({ store, creator, locks, logger, defaultPixExpiresMinutes: config.DEFAULT_PIX_EXPIRES_MINUTES });
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
    actions.awaitingMethod = awaitingMethod;
    // Refunds left pending are re-checked at the provider until final, when no webhook settles them.
    const refundFollowUps = new RefundFollowUps(db.collection('refund_follow_ups') as unknown as Collection<Document>, locks, actions, logger);
    await DueWorker.ensureIndex(db.collection('refund_follow_ups') as unknown as Collection<Document>);
    refunds.followUps = refundFollowUps;
    refundFollowUps.worker.start();
    onShutdown(() => refundFollowUps.worker.stop());
    await startProviderChargeConsumer(bus, actions, logger);

    const expiry = createPaymentExpiryWorker({ collection: store.collection, locks, actions, logger, pollIntervalMs: config.EXPIRY_POLL_INTERVAL_MS });
    expiry.start();
    onShutdown(() => expiry.stop());

    // Disputes (MED, chargebacks): their own collection, outbox and due work (deadlines, sandbox decisions).
    const disputeCollection = db.collection('disputes') as unknown as Collection<Document>;
    await DisputeStore.ensureIndexes(disputeCollection);
    await outbox.watch(disputeCollection);
    const disputes = new DisputesService(new DisputeStore(disputeCollection, locks, outbox), store, providersClient, locks, logger);
    disputes.worker.start();
    // Disputes opened at providers (Woovi MED webhooks, Efí infrações polled by providers).
    const disputeIntake = new ProviderDisputeIntake(disputes.store, store, (dispute) => disputes.returnToPayer(dispute), logger);
    await startProviderDisputeConsumer(bus, disputeIntake, logger);
    onShutdown(() => disputes.worker.stop());
    grpc.addService(customersContract.CustomersServiceService, customersHandlers(store.customers), 'orquestra.payments.v1.CustomersService');
    grpc.addService(disputesContract.DisputesServiceService, disputesHandlers(disputes), 'orquestra.payments.v1.DisputesService');

    grpc.addService(payments.PaymentsServiceService, paymentsHandlers({ store, creator, actions, links, refunds, awaitingMethod }), 'orquestra.payments.v1.PaymentsService');
  },
});
