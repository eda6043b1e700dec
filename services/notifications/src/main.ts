import './telemetry';
import { notifications, WEBHOOK_ENDPOINTS_CHANGED, webhooks } from '@orquestra/contracts';
import { ensureIndexes, InvalidatingCache, runService, SecretBox } from '@orquestra/platform';
import { config } from './config';
import { registerEventModel } from './db/event.model';
import { registerWebhookDeliveryModel } from './db/webhook-delivery.model';
import { WebhookDeliveryStore } from './db/webhook-delivery.store';
import { registerWebhookEndpointModel, type WebhookEndpointDoc } from './db/webhook-endpoint.model';
import { WebhookEndpointStore } from './db/webhook-endpoint.store';
import { createWebhookDeliveryWorker, type DeliveryHint } from './delivery/webhook-delivery.worker';
import { DeliveryMetrics } from './delivery/delivery-metrics';
import { WebhookSender } from './delivery/webhook-sender';
import { startEventLogConsumer } from './events/event-log.consumer';
import { fanOutEvent, type FirstAttempts } from './events/webhook-fanout';
import { notificationsHandlers } from './grpc/notifications.handlers';
import { webhooksHandlers } from './grpc/webhooks.handlers';
import { createEndpointDisableWorker } from './jobs/endpoint-disable.worker';

void runService({
  config,
  grpcAddress: config.GRPC_ADDRESS,
  setup: async ({ db, grpc, bus, logger, outbox, metrics, onShutdown }) => {
    const events = registerEventModel(db);
    const endpoints = new WebhookEndpointStore(
      registerWebhookEndpointModel(db),
      SecretBox.fromConfig(config.WEBHOOK_SECRETS_ENCRYPTION_KEYS),
      outbox,
      config.WEBHOOK_SECRET_OVERLAP_MS,
    );
    const deliveries = new WebhookDeliveryStore(registerWebhookDeliveryModel(db));
    // Every index the queries and the due work need is declared in the schemas.
    await ensureIndexes(db);
    await outbox.watch(endpoints.collection);
    // Each merchant's enabled endpoints cached for the fan-out (one store read per event less),
    // dropped on every replica by the writers' signals and trusted only while they arrive.
    if (config.ENDPOINT_CACHE_TTL_MS > 0) {
      let signals: { live: boolean } = { live: false };
      const cache = new InvalidatingCache<WebhookEndpointDoc[]>({ ttlMs: config.ENDPOINT_CACHE_TTL_MS, trusted: () => signals.live });
      endpoints.cacheEnabled(cache, (scope) => void bus.signal(WEBHOOK_ENDPOINTS_CHANGED, scope, {}));
      signals = await bus.subscribe(
        [WEBHOOK_ENDPOINTS_CHANGED],
        (event) => endpoints.endpointsChanged({ merchant_id: event.merchant_id, mode: event.mode }),
        () => cache.clear(),
      );
    }

    const sender = new WebhookSender(config.WEBHOOK_TIMEOUT_MS);
    const worker = createWebhookDeliveryWorker({
      events,
      endpoints,
      deliveries,
      sender,
      logger,
      policy: { baseMs: config.WEBHOOK_RETRY_BASE_MS, maxDelayMs: config.WEBHOOK_RETRY_MAX_DELAY_MS, windowMs: config.WEBHOOK_RETRY_WINDOW_MS },
      disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
      pollIntervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
      concurrency: config.WEBHOOK_CONCURRENCY,
      leaseMs: config.WEBHOOK_TIMEOUT_MS + 5_000,
      metrics: new DeliveryMetrics(metrics.registry),
    });
    const kick = () => worker.kick();
    // A new delivery's first attempt goes out at once, in parallel with others: the delivery is
    // stored already leased to this replica (no claim to make) and attempted; beyond the in-flight
    // bound it is stored due now for due work. The consumer never waits for a receiver.
    let inFlight = 0;
    const maxInFlight = config.WEBHOOK_CONCURRENCY * 4;
    const firstAttempts = (stored: DeliveryHint['event']): FirstAttempts => ({
      reserve: () => {
        if (inFlight >= maxInFlight) return null;
        inFlight += 1;
        return worker.leaseEnd();
      },
      release: () => void (inFlight -= 1),
      attempt: (delivery, endpoint) =>
        void worker
          .runLeased(delivery, { event: stored, endpoint })
          .catch((error: Error) => logger.warn({ delivery_id: delivery._id, err: error.message }, 'first webhook attempt failed; due work retries'))
          .finally(() => (inFlight -= 1)),
      queued: kick,
    });

    await startEventLogConsumer(bus, events, logger, async (event, stored) => {
      await fanOutEvent(event, endpoints, deliveries, firstAttempts(stored));
    });
    worker.start();
    onShutdown(() => sender.close());
    onShutdown(() => worker.stop());
    const disabler = createEndpointDisableWorker({
      endpoints,
      logger,
      disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
      pollIntervalMs: Math.max(config.WEBHOOK_POLL_INTERVAL_MS, 1_000),
    });
    disabler.start();
    onShutdown(() => disabler.stop());

    grpc.addService(
      notifications.NotificationsServiceService,
      notificationsHandlers(events),
      'orquestra.notifications.v1.NotificationsService',
    );
    grpc.addService(
      webhooks.WebhooksServiceService,
      webhooksHandlers(endpoints, deliveries, kick),
      'orquestra.notifications.v1.WebhooksService',
    );
  },
});
