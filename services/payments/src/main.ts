import './telemetry';
import { analytics as analyticsContract, customers as customersContract, disputes as disputesContract, payments, payouts, providers, reconciliation as reconciliationContract, routing } from '@orquestra/contracts';
import { createRpcClient, ensureIndexes, runService } from '@orquestra/platform';
import { config } from './config';
import { registerCustomerModel } from './db/customer.model';
import { DueRecords } from './db/due-records';
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
import { startProviderCycleChargeConsumer } from './events/provider-cycle-charge.consumer';
import { startProviderDisputeConsumer } from './events/provider-dispute.consumer';
import { customersHandlers } from './grpc/customers.handlers';
import { disputesHandlers } from './grpc/disputes.handlers';
import { paymentsHandlers } from './grpc/payments.handlers';
import { createPaymentExpiryWorker } from './jobs/payment-expiry.worker';
import { RefundFollowUpRecorder, RefundFollowUps } from './jobs/refund-follow-ups';
import { ChargeStateApplier } from './orchestration/apply-charge-state';
import { AvailableMethods } from './orchestration/available-methods';
import { PaymentCancellation } from './orchestration/cancel-payment';
import { PageTracking } from './orchestration/page-tracking';
import { ChargeWalker } from './orchestration/charge-walker';
import { PaymentCreator } from './orchestration/create-payment';
import { PaymentSplits } from './orchestration/payment-splits';
import { CycleChargeApplier, CycleChargeUpdates } from './orchestration/cycle-charge-state';
import { CyclePayments } from './orchestration/cycle-payments';
import { DisputesService } from './orchestration/disputes.service';
import { ProviderDisputeIntake } from './orchestration/provider-dispute-intake';
import { IdempotencyGuard } from './db/idempotency.guard';
import { OrphanCharges } from './orchestration/orphan-charges';
import { AwaitingMethodPayments } from './orchestration/awaiting-method';
import { PaymentExpiry } from './orchestration/expire-payment';
import { ProviderChargeUpdates } from './orchestration/provider-charge-updates';
import { PaymentRefunds } from './orchestration/refund-payment';
import { PaymentSimulation } from './orchestration/simulate-payment';
import { PaymentSync } from './orchestration/sync-payment';
import { registerReconciliationModels } from './reconciliation/reconciliation.model';
import { ReconciliationRuns } from './reconciliation/reconciliation-runs';
import { reconciliationHandlers } from './reconciliation/reconciliation.handlers';
import { AnalyticsLedger } from './analytics/analytics-ledger';
import { registerAnalyticsModels } from './analytics/analytics.model';
import { analyticsHandlers } from './analytics/analytics.handlers';
import { startAnalyticsConsumer } from './analytics/analytics.consumer';
import { AnalyticsOverview } from './analytics/overview';
import { rebuildAnalyticsCommand } from './analytics/rebuild.command';

/** The lease of a payment creation's Idempotency-Key (renewed by its owner every third of it). */
const CREATE_KEY_LEASE_MS = 8_000;

if (process.argv[2] === 'rebuild-analytics') {
  // `node main.js rebuild-analytics [--merchant <id>]` (npm run analytics:rebuild): recomputes the
  // analytics buckets from the payments (docs/analytics.md), then exits.
  void rebuildAnalyticsCommand(config, process.argv.slice(3));
} else void runService({
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
    const reconciliationModels = registerReconciliationModels(db);
    const analyticsModels = registerAnalyticsModels(db);
    await ensureIndexes(db);

    const routingClient = createRpcClient(routing.RoutingServiceService, config.ROUTING_GRPC_ADDR, { deadlineMs: config.GRPC_DEADLINE_MS });
    const providersClient = createRpcClient(providers.ProvidersServiceService, config.PROVIDERS_GRPC_ADDR, {
      deadlineMs: config.PROVIDER_CALL_DEADLINE_MS,
    });
    const payoutsClient = createRpcClient(payouts.PayoutsServiceService, config.PAYOUTS_GRPC_ADDR, { deadlineMs: config.GRPC_DEADLINE_MS });
    onShutdown(() => {
      routingClient.close();
      providersClient.close();
      payoutsClient.close();
    });

    const links = new PaymentLinks(config.PAY_BASE_URL, config.PUBLIC_BASE_URL);
    // Customer records: one per document, merchant and mode, linked from the payments that name them.
    const customers = new CustomerStore(customerModel);
    const store = new PaymentStore(paymentModel, failedCreations, outbox, links, { customers, metrics: new PaymentMetrics(metrics.registry) });
    await outbox.watch(store.collection);
    await outbox.watch(failedCreations.collection);
    // A short lease its owner renews while it works: a create whose process died is resumed under
    // its own payment id (the same provider idempotency key finds its charge) within seconds.
    const idempotency = new IdempotencyGuard(idempotencyRecords, config.IDEMPOTENCY_TTL_HOURS * 3_600_000, CREATE_KEY_LEASE_MS, { resumeAbandoned: true });
    const purge = setInterval(() => void idempotency.purgeExpired().catch(() => undefined), 10 * 60_000);
    purge.unref();
    onShutdown(() => clearInterval(purge));

    const orphans = new OrphanCharges(new DueRecords(orphanCharges), providersClient, logger, (id, accountId) => store.isChargedAt(id, accountId));
    orphans.worker.start();
    onShutdown(() => orphans.worker.stop());
    // Creation: routing's candidates walked until one account charges (also the payment page's choice).
    const walker = new ChargeWalker({ routing: routingClient, providers: providersClient, orphans, logger, providerCallDeadlineMs: config.PROVIDER_CALL_DEADLINE_MS });
    const methods = new AvailableMethods(routingClient);
    const creator = new PaymentCreator({
      store,
      idempotency,
      routing: routingClient,
      walker,
      methods,
      splits: new PaymentSplits(payoutsClient, providersClient),
      links,
      logger,
      defaultPixExpiresMinutes: config.DEFAULT_PIX_EXPIRES_MINUTES,
      defaultMethodChoiceMinutes: config.DEFAULT_METHOD_CHOICE_MINUTES,
      boletoCancelAfterDays: config.BOLETO_CANCEL_AFTER_DAYS,
    });
    // Payments created without a method: the buyer's choice on the payment page, their cancel and expiry.
    const awaitingMethod = new AwaitingMethodPayments({
      store,
      walker,
      methods,
      links,
      logger,
      defaultPixExpiresMinutes: config.DEFAULT_PIX_EXPIRES_MINUTES,
      boletoCancelAfterDays: config.BOLETO_CANCEL_AFTER_DAYS,
    });

    // Refunds left pending are recorded for follow-up; the follow-up worker syncs their payments.
    const refundFollowUpRecords = new DueRecords(refundFollowUpModel);
    const refunds = new PaymentRefunds({
      store,
      // Its own guard: a lease far past a refund request's span (its writes and the provider call),
      // so a key is taken over only from a request that certainly ended.
      idempotency: new IdempotencyGuard(idempotencyRecords, config.IDEMPOTENCY_TTL_HOURS * 3_600_000, 180_000),
      providers: providersClient,
      logger,
      providerCallDeadlineMs: config.PROVIDER_CALL_DEADLINE_MS,
      followUps: new RefundFollowUpRecorder(refundFollowUpRecords),
    });

    // What happens to an existing payment, one object per action.
    const charges = new ChargeStateApplier(store, refunds, logger);
    const cancellation = new PaymentCancellation(store, providersClient, charges, awaitingMethod);
    const simulation = new PaymentSimulation(store, providersClient);
    // Pix Automático cycles (the subscriptions service creates them): their charges' changes.
    const cycleCharges = new CycleChargeApplier(store, charges);
    const sync = new PaymentSync(store, providersClient, charges, cycleCharges, refunds, logger);
    const cyclePayments = new CyclePayments({
      store,
      providers: providersClient,
      cycleCharges,
      logger,
      providerCallDeadlineMs: config.PROVIDER_CALL_DEADLINE_MS,
      readBack: (payment, requestId) => sync.sync(payment._id, { merchantId: payment.merchant_id, mode: payment.mode }, requestId),
    });
    const paymentExpiry = new PaymentExpiry(store, providersClient, charges, awaitingMethod, logger);

    const refundFollowUps = new RefundFollowUps(refundFollowUpRecords, (id, scope, requestId) => sync.sync(id, scope, requestId), logger);
    refundFollowUps.worker.start();
    onShutdown(() => refundFollowUps.worker.stop());
    await startProviderChargeConsumer(bus, new ProviderChargeUpdates(store, charges), logger);
    await startProviderCycleChargeConsumer(bus, new CycleChargeUpdates(store, cycleCharges), logger);

    const expiry = createPaymentExpiryWorker({ store, expiry: paymentExpiry, logger, pollIntervalMs: config.EXPIRY_POLL_INTERVAL_MS });
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
    grpc.addService(customersContract.CustomersServiceService, customersHandlers(customers), 'orquestra.payments.v1.CustomersService');
    grpc.addService(disputesContract.DisputesServiceService, disputesHandlers(disputes), 'orquestra.payments.v1.DisputesService');

    // Reconciliation runs (docs/reconciliation.md): due work in slices, resumed where it stopped.
    const reconciliationRuns = new ReconciliationRuns({
      models: reconciliationModels,
      payments: paymentModel,
      providers: providersClient,
      sync: (id, scope, requestId) => sync.sync(id, scope, requestId),
      outbox,
      logger,
    });
    await outbox.watch(reconciliationRuns.collection);
    reconciliationRuns.worker.start();
    onShutdown(() => reconciliationRuns.worker.stop());
    grpc.addService(reconciliationContract.ReconciliationServiceService, reconciliationHandlers(reconciliationRuns), 'orquestra.payments.v1.ReconciliationService');

    // Analytics (docs/analytics.md): buckets kept from the payment.* events, read by GetOverview.
    await startAnalyticsConsumer(bus, new AnalyticsLedger(analyticsModels), logger);
    grpc.addService(analyticsContract.AnalyticsServiceService, analyticsHandlers(new AnalyticsOverview(analyticsModels.buckets)), 'orquestra.payments.v1.AnalyticsService');

    grpc.addService(payments.PaymentsServiceService, paymentsHandlers({ store, creator, cancellation, simulation, sync, methods, links, refunds, awaitingMethod, cyclePayments, pageTracking: new PageTracking(store) }), 'orquestra.payments.v1.PaymentsService');
  },
});
