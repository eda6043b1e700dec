import { baseConfigShape, loadConfig } from '@orquestra/platform';
import { z } from 'zod';

export const config = loadConfig({
  ...baseConfigShape,
  SERVICE_NAME: z.string().default('notifications'),
  GRPC_ADDRESS: z.string().default('0.0.0.0:50055'),
  /** AES-256-GCM keys sealing webhook signing secrets: "<id>:<base64 32 bytes>[,<older>…]"; first seals. */
  WEBHOOK_SECRETS_ENCRYPTION_KEYS: z.string().min(1),
  /** One delivery attempt may take this long (connect, headers and body). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** First retry delay; each later one doubles (±20 % jitter) up to WEBHOOK_RETRY_MAX_DELAY_MS. */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().positive().default(30_000),
  WEBHOOK_RETRY_MAX_DELAY_MS: z.coerce.number().int().positive().default(6 * 3_600_000),
  /** A delivery is retried until this long after its first attempt (3 days), then marked failed. */
  WEBHOOK_RETRY_WINDOW_MS: z.coerce.number().int().positive().default(3 * 86_400_000),
  /** An endpoint whose every delivery failed for this long (5 days) is disabled. */
  WEBHOOK_DISABLE_AFTER_MS: z.coerce.number().int().positive().default(5 * 86_400_000),
  /** After a rotation the previous secret keeps signing for this long (24 h). */
  WEBHOOK_SECRET_OVERLAP_MS: z.coerce.number().int().positive().default(86_400_000),
  /** How often the delivery worker looks for due deliveries. */
  WEBHOOK_POLL_INTERVAL_MS: z.coerce.number().int().positive().default(500),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  /**
   * The longest a merchant's enabled endpoints are served from the fan-out's cache without reading
   * them again, should a change signal be lost (docs/decisions.md "Caches"); 0 turns the cache off.
   */
  ENDPOINT_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
});

export type NotificationsConfig = typeof config;
