import { z, type ZodRawShape } from 'zod';

/** Settings every service has; services extend this shape with their own. */
export const baseConfigShape = {
  SERVICE_NAME: z.string().min(1),
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Log lines: `auto` is readable (pino-pretty) in a terminal and JSON otherwise; `json` or `pretty` forces one. */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  MONGO_URL: z.string().url().default('mongodb://127.0.0.1:27017'),
  AMQP_URL: z.string().url().default('amqp://guest:guest@127.0.0.1:5672'),
  /** Prefix for database names, so that test runs never touch development data. */
  DB_PREFIX: z.string().regex(/^[a-z0-9_]*$/).default('orq_'),
  EVENTS_EXCHANGE: z.string().default('orquestra.events'),
  /**
   * Throwaway stacks only (end-to-end tests, benchmarks): the broker deletes a consumer's queues
   * once unused this long (`x-expires`), so stacks that are never torn down leave nothing behind on
   * a shared broker. 0 (the default, and production's): never. docs/rabbitmq.md.
   */
  EVENT_QUEUES_EXPIRE_MS: z.coerce.number().int().min(0).default(0),
  GRPC_DEADLINE_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * A gRPC server closes each client connection after about this long (GOAWAY), so clients resolve
   * their target again and spread over replicas started since (docs/deployment.md); 0 never does.
   */
  GRPC_MAX_CONNECTION_AGE_MS: z.coerce.number().int().min(0).default(300_000),
  /** Calls running on a connection that reached its age get this long to finish. */
  GRPC_MAX_CONNECTION_AGE_GRACE_MS: z.coerce.number().int().min(0).default(30_000),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * After SIGTERM, how long health reports NOT_SERVING while calls are still served, so that load
   * balancers and clients stop sending new calls before the server stops accepting them.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).default(0),
  /** Port of the plain-HTTP `/metrics` endpoint (Prometheus); 0 turns it off. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(9464),
};

/**
 * Parses the environment once against a zod shape and returns a frozen object. A bad or missing
 * setting stops the process at start with every problem listed, never later at first use.
 * This is the only place in the codebase that reads `process.env`.
 */
export function loadConfig<S extends ZodRawShape>(
  shape: S,
  env: Record<string, string | undefined> = process.env,
): Readonly<z.infer<z.ZodObject<S>>> {
  const result = z.object(shape).safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${problems}`);
  }
  return Object.freeze(result.data);
}

/** Reads one optional env value for code that runs before config (telemetry bootstrap). */
export function envSnapshot(): Readonly<Record<string, string | undefined>> {
  return Object.freeze({ ...process.env });
}
