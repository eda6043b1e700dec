import './telemetry';
import { customers as customersContract, disputes as disputesContract, payments, providers, routing } from '@orquestra/contracts';
import { createRpcClient, ensureIndexes, runService } from '@orquestra/platform';
import { config } from './config';
import { registerCustomerModel } from './db/customer.model';
import { CustomerStore } from './db/customer.store';
import { registerDisputeModel } from './db/dispute.model';
import { DisputeStore } from './db/dispute.store';
import { registerFailedCreationModel } from './db/failed-creation.model';
import { registerIdempotencyRecordModel } from './db/idempotency-record.model';
import { registerOrphanChargeModel } from './db/orphan-charge.model';
import { registerPaymentModel } from './db/payment.model';
import { registerRefundFollowUpModel } from './db/refund-follow-up.model';
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
  setup: async ({ db, grpc, bus, outbox, logger, metrics, onShutdown }) => {
    // Every collection of the service, with the indexes its queries need (created here, at start).
    const paymentModel = registerPaymentModel(db);
    const failedCreations = registerFailedCreationModel(db);
    const customerModel = registerCustomerModel(db);
    const idempotencyRecords = registerIdempotencyRecordModel(db);
    const orphanCharges = registerOrphanChargeModel(db);
    const refundFollowUpModel = registerRefundFollowUpModel(db);
    const disputeModel = registerDisputeModel(db);
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
    const store = new PaymentStore(paymentModel, failedCreations, outbox, links);
    await outbox.watch(store.collection);
    // Customer records: one per document, merchant and mode, linked from the payments that name them.
    store.customers = new CustomerStore(customerModel);
    store.metrics = new PaymentMetrics(metrics.registry);
    await outbox.watch(failedCreations.collection);
    const idempotency = new IdempotencyGuard(idempotencyRecords, config.IDEMPOTENCY_TTL_HOURS * 3_600_000, 60_000);
    const purge = setInterval(() => void idempotency.purgeExpired().catch(() => undefined), 10 * 60_000);
    purge.unref();
    onShutdown(() => clearInterval(purge));

    const orphans = new OrphanCharges(orphanCharges, providersClient, logger, async (id, accountId) =>
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
    const awaitingMethod = new AwaitingMethodPayments({ store, creator, logger, defaultPixExpiresMinutes: config.DEFAULT_PIX_EXPIRES_MINUTES });
    const refunds = new PaymentRefunds({
      store,
      // Its own guard: a lease far past a refund request's span (its writes and the provider call),
      // so a key is taken over only from a request that certainly ended.
      idempotency: new IdempotencyGuard(idempotencyRecords, config.IDEMPOTENCY_TTL_HOURS * 3_600_000, 180_000),
      providers: providersClient,
      logger,
      providerCallDeadlineMs: config.PROVIDER_CALL_DEADLINE_MS,
    });
    const actions = new PaymentActions(store, providersClient, logger, refunds);
    actions.awaitingMethod = awaitingMethod;
    // Refunds left pending are re-checked at the provider until final, when no webhook settles them.
    const refundFollowUps = new RefundFollowUps(refundFollowUpModel, actions, logger);
    refunds.followUps = refundFollowUps;
    refundFollowUps.worker.start();
    onShutdown(() => refundFollowUps.worker.stop());
    await startProviderChargeConsumer(bus, actions, logger);

    const expiry = createPaymentExpiryWorker({ model: paymentModel, actions, logger, pollIntervalMs: config.EXPIRY_POLL_INTERVAL_MS });
    expiry.start();
    onShutdown(() => expiry.stop());

    // Disputes (MED, chargebacks): their own collection, outbox and due work (deadlines, sandbox decisions).
    const disputeStore = new DisputeStore(disputeModel, outbox);
    await outbox.watch(disputeStore.collection);
    const disputes = new DisputesService(disputeStore, store, providersClient, logger);
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
