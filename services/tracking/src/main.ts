import './telemetry';
import { tracking } from '@orquestra/contracts';
import { ensureIndexes, runService, SecretBox } from '@orquestra/platform';
import { Counter } from 'prom-client';
import { config } from './config';
import { trackingHandlers } from './grpc/tracking.handlers';
import { createAdTools } from './tools/registry';
import { createTrackingModule } from './use-cases/tracking.module';

void runService({
  config,
  grpcAddress: config.GRPC_ADDRESS,
  setup: async ({ db, grpc, bus, outbox, logger, metrics, onShutdown }) => {
    // Refuses to start with malformed keys, before anything is served.
    const box = SecretBox.fromConfig(config.INTEGRATION_CREDENTIALS_KEYS);
    const tools = createAdTools({
      utmifyBaseUrl: config.UTMIFY_BASE_URL,
      metaGraphBaseUrl: config.META_GRAPH_BASE_URL,
      metaGraphVersion: config.META_GRAPH_VERSION,
      tiktokBaseUrl: config.TIKTOK_BASE_URL,
    });
    const deliveriesCounter = new Counter({
      name: 'orquestra_tracking_deliveries_total',
      help: 'Delivery attempts and decisions, by tool kind and outcome (delivered, retry, tool_refused, retries_exhausted, not-sent reasons, superseded).',
      labelNames: ['kind', 'outcome'],
      registers: [metrics.registry],
    });
    const module = createTrackingModule({
      db,
      outbox,
      logger,
      box,
      tools,
      toolTimeoutMs: config.TOOL_TIMEOUT_MS,
      retryScheduleMs: config.DELIVERY_RETRY_SCHEDULE_MS,
      pollIntervalMs: config.DELIVERY_POLL_MS,
      onOutcome: (kind, outcome) => deliveriesCounter.inc({ kind, outcome }),
      integrationCacheTtlMs: config.INTEGRATION_CACHE_TTL_MS,
    });
    await ensureIndexes(db);
    grpc.addService(tracking.TrackingServiceService, trackingHandlers(module.visits, module.integrations, module.deliveries), 'orquestra.tracking.v1.TrackingService');
    await module.start(bus);
    onShutdown(() => module.worker.stop());
  },
});
