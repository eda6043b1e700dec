import './telemetry';
import { createServer } from 'node:http';
import { Counter } from 'prom-client';
import { createLogger, EventBus, ServiceMetrics, startMetricsServer } from '@orquestra/platform';
import { startBusInBackground, subscribeKeyRevocations } from './auth/key-revocations';
import { loadGatewayConfig } from './config';
import { createDownstreamClients } from './grpc/downstream.clients';
import { GrpcReadinessProbe } from './health/readiness.probe';
import { createApp } from './http/app';
import { answerMalformedRequests } from './http/client-error.handler';
import { createOAuthClients } from './oauth/oauth.clients';
import { createOAuthEdge } from './oauth/oauth.server';
import { RequestLogRecorder } from './request-logs/request-log.recorder';

// Bootstrap only: config, logger, clients, HTTP server, graceful shutdown.
const config = loadGatewayConfig();
const logger = createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL, format: config.LOG_FORMAT });

const clients = createDownstreamClients(
  {
    accounts: config.ACCOUNTS_GRPC_ADDR,
    payments: config.PAYMENTS_GRPC_ADDR,
    providers: config.PROVIDERS_GRPC_ADDR,
    routing: config.ROUTING_GRPC_ADDR,
    notifications: config.NOTIFICATIONS_GRPC_ADDR,
    subscriptions: config.SUBSCRIPTIONS_GRPC_ADDR,
    payouts: config.PAYOUTS_GRPC_ADDR,
    vault: config.VAULT_GRPC_ADDR,
    tracking: config.TRACKING_GRPC_ADDR,
  },
  config.GRPC_DEADLINE_MS,
);
const readiness = new GrpcReadinessProbe([
  { name: 'accounts', address: config.ACCOUNTS_GRPC_ADDR },
  { name: 'payments', address: config.PAYMENTS_GRPC_ADDR },
]);

const metrics = new ServiceMetrics(config.SERVICE_NAME);
if (config.METRICS_PORT > 0) {
  startMetricsServer({ port: config.METRICS_PORT, metrics, logger }).catch((error: Error) => {
    logger.fatal({ err: error }, 'metrics server failed to listen');
    process.exit(1);
  });
}

// OAuth apps (docs/oauth.md): oidc-provider at /oauth, its models kept by accounts.
const oauthClients = createOAuthClients(config.ACCOUNTS_GRPC_ADDR, config.GRPC_DEADLINE_MS);
const oauth = createOAuthEdge({
  publicBaseUrl: config.PUBLIC_BASE_URL,
  clients: oauthClients,
  logger,
  cookieKeys: config.OAUTH_COOKIE_KEYS,
  jwksJson: config.OAUTH_JWKS,
  trustProxy: config.TRUST_PROXY !== false,
});

// Cache signals only (a revoked API key dropped at once): the gateway publishes and consumes no events.
const bus = new EventBus({ url: config.AMQP_URL, exchange: config.EVENTS_EXCHANGE, logger });
bus.onMessage = (direction) => metrics.busMessages.inc({ direction });
const keyRevocations = subscribeKeyRevocations(bus, logger);
startBusInBackground(bus, logger);

// The request log (GET /v1/request-logs): batches to accounts, off the request path (request-log.recorder.ts).
const requestLogDropped = new Counter({
  name: 'orquestra_request_log_dropped_total',
  help: 'Request-log entries not recorded: the queue was full, or accounts refused or missed a batch.',
  labelNames: ['reason'],
  registers: [metrics.registry],
});
const requestLog = config.REQUEST_LOG_ENABLED
  ? new RequestLogRecorder({
      send: (entries) => clients.accounts.recordRequestLogs({ entries }),
      logger,
      maxQueue: config.REQUEST_LOG_MAX_QUEUE,
      batchSize: config.REQUEST_LOG_BATCH_SIZE,
      flushIntervalMs: config.REQUEST_LOG_FLUSH_MS,
      onDropped: (count, reason) => requestLogDropped.inc({ reason }, count),
    })
  : undefined;
requestLog?.start();

const app = createApp({
  requestLog,
  keyRevocations,
  oauth,
  // The dashboard's OAuth apps and authorizations, behind /dashboard/api's session and CSRF.
  dashboardRoutes: [oauth.dashboardRouter],
  metrics,
  clients,
  logger,
  readiness,
  settings: {
    createPaymentDeadlineMs: config.CREATE_PAYMENT_DEADLINE_MS,
    keyCacheTtlMs: config.KEY_CACHE_TTL_MS,
    keyCacheMaxEntries: config.KEY_CACHE_MAX_ENTRIES,
    trustProxy: config.TRUST_PROXY,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    payBaseUrl: config.PAY_BASE_URL,
  },
});

const server = createServer(app);
answerMalformedRequests(server);
server.on('error', (error) => {
  logger.fatal({ err: error }, 'gateway failed to listen');
  process.exit(1);
});
server.listen(config.HTTP_PORT, () => {
  logger.info({ port: config.HTTP_PORT }, 'gateway listening');
});
// Longer than a typical load balancer's idle timeout (60 s), so the balancer closes first.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

let stopping = false;
function shutdown(signal: string): void {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
  readiness.markShuttingDown();
  const force = setTimeout(() => {
    logger.warn('grace period over: closing remaining connections');
    server.closeAllConnections();
  }, config.SHUTDOWN_GRACE_MS);
  force.unref();
  server.close(async () => {
    clearTimeout(force);
    // What the last requests logged goes out before the clients close.
    await requestLog?.stop().catch(() => undefined);
    clients.close();
    void bus.close();
    oauthClients.close();
    readiness.close();
    logger.info('stopped');
    process.exit(0);
  });
  // Idle keep-alive sockets would otherwise hold close() open until they time out.
  server.closeIdleConnections();
}
process.once('SIGTERM', () => shutdown('SIGTERM'));
process.once('SIGINT', () => shutdown('SIGINT'));
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
