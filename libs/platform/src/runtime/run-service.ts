import { trace } from '@opentelemetry/api';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { EventBus } from '../bus';
import { GrpcServer } from '../grpc';
import { createLogger } from '../logging';
import { connectDatabase } from '../mongo';
import { OutboxRelay } from '../outbox';
import { ServiceMetrics, startMetricsServer } from '../metrics';

export interface ServiceBaseConfig {
  SERVICE_NAME: string;
  LOG_LEVEL: string;
  LOG_FORMAT?: 'auto' | 'json' | 'pretty';
  MONGO_URL: string;
  AMQP_URL: string;
  DB_PREFIX: string;
  EVENTS_EXCHANGE: string;
  /** x-expires of the consumers' queues, throwaway stacks only (0 or absent: never). */
  EVENT_QUEUES_EXPIRE_MS?: number;
  SHUTDOWN_GRACE_MS: number;
  SHUTDOWN_DRAIN_MS?: number;
  METRICS_PORT: number;
  GRPC_MAX_CONNECTION_AGE_MS?: number;
  GRPC_MAX_CONNECTION_AGE_GRACE_MS?: number;
}

export interface ServiceContext<C extends ServiceBaseConfig> {
  config: C;
  logger: Logger;
  db: Connection;
  bus: EventBus;
  outbox: OutboxRelay;
  grpc: GrpcServer;
  /** The process's Prometheus registry, served at `/metrics` on METRICS_PORT. */
  metrics: ServiceMetrics;
  /** Registers cleanup run on shutdown, in reverse order of registration. */
  onShutdown(cleanup: () => Promise<void> | void): void;
}

/**
 * Boots a service: the gRPC server with `grpc.health.v1` first (listening, NOT_SERVING), then
 * logger, its own database, the event bus, the outbox relay. Health says NOT_SERVING until the
 * database and broker are connected and `setup` has registered the handlers, and again as soon as
 * SIGTERM arrives: for `SHUTDOWN_DRAIN_MS` calls are still served while callers move away, then
 * running calls get `SHUTDOWN_GRACE_MS` to finish before the process exits.
 */
export async function runService<C extends ServiceBaseConfig>(options: {
  config: C;
  grpcAddress: string;
  setup: (context: ServiceContext<C>) => Promise<void>;
}): Promise<ServiceContext<C>> {
  const { config } = options;
  const logger = createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const cleanups: Array<() => Promise<void> | void> = [];
  const grpc = new GrpcServer(logger, {
    maxConnectionAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS,
    maxConnectionAgeGraceMs: config.GRPC_MAX_CONNECTION_AGE_GRACE_MS,
  });
  const metrics = new ServiceMetrics(config.SERVICE_NAME);
  grpc.onCallEnd = (method, code, seconds) => metrics.rpcDuration.observe({ method, code }, seconds);
  try {
    // Listening from the start, NOT_SERVING: probes and the launcher see "starting", not "gone".
    const port = await grpc.listen(options.grpcAddress);
    cleanups.push(() => grpc.shutdown(0));
    logger.info({ port }, 'gRPC listening (NOT_SERVING until connected)');
    const db = await connectDatabase({
      url: config.MONGO_URL,
      dbName: `${config.DB_PREFIX}${config.SERVICE_NAME}`,
      logger,
      onCommand: (command, collection) => metrics.storeCommands.inc({ command, collection }),
    });
    cleanups.push(() => db.close());
    const bus = new EventBus({
      url: config.AMQP_URL,
      exchange: config.EVENTS_EXCHANGE,
      logger,
      ...(config.EVENT_QUEUES_EXPIRE_MS ? { queueExpiresMs: config.EVENT_QUEUES_EXPIRE_MS } : {}),
    });
    bus.onMessage = (direction) => metrics.busMessages.inc({ direction });
    await bus.start();
    cleanups.push(() => bus.close());
    const outbox = new OutboxRelay({ bus, logger });
    cleanups.push(() => outbox.stop());
    metrics.watchOutbox(outbox);
    metrics.watchDueWork();
    const context: ServiceContext<C> = {
      config,
      logger,
      db,
      bus,
      outbox,
      grpc,
      metrics,
      onShutdown: (cleanup) => cleanups.push(cleanup),
    };
    await options.setup(context);
    outbox.start();
    if (config.METRICS_PORT > 0) {
      const server = await startMetricsServer({ port: config.METRICS_PORT, metrics, logger });
      cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    }
    grpc.setServing(true);
    logger.info({ port }, 'service ready');

    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down');
      grpc.setServing(false);
      if (config.SHUTDOWN_DRAIN_MS) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DRAIN_MS));
      await grpc.shutdown(config.SHUTDOWN_GRACE_MS);
      // The gRPC server is already stopped: skip the startup cleanup that would stop it again.
      cleanups.shift();
      for (const cleanup of cleanups.reverse()) {
        await Promise.resolve(cleanup()).catch((error: Error) => logger.warn({ err: error.message }, 'cleanup failed'));
      }
      // Spans still buffered for export leave before the process does.
      const provider = trace.getTracerProvider() as { getDelegate?: () => { forceFlush?: () => Promise<void> } };
      await provider.getDelegate?.().forceFlush?.().catch(() => undefined);
      logger.info('stopped');
      process.exit(0);
    };
    process.once('SIGTERM', () => void stop('SIGTERM'));
    process.once('SIGINT', () => void stop('SIGINT'));
    return context;
  } catch (error) {
    logger.fatal({ err: error }, 'service failed to start');
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
    process.exit(1);
  }
}
