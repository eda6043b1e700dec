import { baseConfigShape, loadConfig } from '@orquestra/platform';
import { z } from 'zod';

const { NODE_ENV, LOG_LEVEL, LOG_FORMAT, GRPC_DEADLINE_MS, SHUTDOWN_GRACE_MS, METRICS_PORT, AMQP_URL, EVENTS_EXCHANGE } = baseConfigShape;

/**
 * The gateway's settings. It owns no database, so it takes only the parts of the base shape it
 * uses, plus the addresses of the services it translates to. Its broker connection only receives
 * cache signals (a revoked API key, dropped at once on every replica).
 */
export const gatewayConfigShape = {
  SERVICE_NAME: z.string().min(1).default('gateway'),
  NODE_ENV,
  LOG_LEVEL,
  LOG_FORMAT,
  SHUTDOWN_GRACE_MS,
  AMQP_URL,
  EVENTS_EXCHANGE,
  HTTP_PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  /** Prometheus `/metrics` on its own port, never on the public one; 0 turns it off. */
  METRICS_PORT,
  ACCOUNTS_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50051'),
  PAYMENTS_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50052'),
  ROUTING_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50053'),
  PROVIDERS_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50054'),
  NOTIFICATIONS_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50055'),
  SUBSCRIPTIONS_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50056'),
  PAYOUTS_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50057'),
  VAULT_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50058'),
  TRACKING_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50059'),
  /** Deadline of ordinary downstream calls. */
  GRPC_DEADLINE_MS,
  /** CreatePayment walks provider accounts (each call up to its own timeout), so it gets longer. */
  CREATE_PAYMENT_DEADLINE_MS: z.coerce.number().int().positive().default(30_000),
  /**
   * How long a positive API-key answer is reused. A revocation drops it at once (signal); this bounds
   * a signal lost in a crash, and nothing is cached while the signals are not arriving.
   */
  KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  KEY_CACHE_MAX_ENTRIES: z.coerce.number().int().positive().default(10_000),
  /**
   * Express `trust proxy`: which hops may set X-Forwarded-For (and so the buyer IP default).
   * Default trusts only private-network hops (the cluster ingress), never the open internet.
   */
  TRUST_PROXY: z
    .string()
    .default('loopback, linklocal, uniquelocal')
    .transform((value): boolean | number | string =>
      value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value,
    ),
  /**
   * Keys signing the OAuth server's cookies (interaction and session), comma-separated, the first
   * signing; the same list on every replica. Unset: one random key per process (one replica only).
   */
  OAUTH_COOKIE_KEYS: z.string().default('').transform((value) => value.split(',').map((key) => key.trim()).filter(Boolean)),
  /** The OAuth server's signing keys as JWKS JSON (RSA); unset: one made at start (nothing we issue is signed). */
  OAUTH_JWKS: z.string().optional(),
  /** Public base address, used as the OpenAPI server URL. */
  PUBLIC_BASE_URL: z.string().url().default('http://localhost:8080'),
  /**
   * Base of the buyer's payment page, the same value the payments service builds payment_url from:
   * the page is served at its path (`/pay` here; `/` when it is a host of its own, pay.<domain>).
   */
  PAY_BASE_URL: z.string().url().default('http://localhost:8080/pay'),
  /** The request log (GET /v1/request-logs): calls made with keys, sent to accounts in batches; false turns it off. */
  REQUEST_LOG_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  /** Entries waiting for accounts at most (the newest are dropped past it), per batch, and how often a batch goes. */
  REQUEST_LOG_MAX_QUEUE: z.coerce.number().int().positive().default(10_000),
  REQUEST_LOG_BATCH_SIZE: z.coerce.number().int().positive().max(1000).default(500),
  REQUEST_LOG_FLUSH_MS: z.coerce.number().int().positive().default(1_000),
};

export type GatewayConfig = Readonly<z.infer<z.ZodObject<typeof gatewayConfigShape>>>;

/** Parses the environment once; a bad setting stops the process at start with every problem listed. */
export function loadGatewayConfig(env?: Record<string, string | undefined>): GatewayConfig {
  return env ? loadConfig(gatewayConfigShape, env) : loadConfig(gatewayConfigShape);
}
