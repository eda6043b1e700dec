import { baseConfigShape, loadConfig } from '@orquestra/platform';
import { z } from 'zod';

/** The default retry schedule of a send the tool did not take (spec §4): 1, 5, 30 min, 2, 6, 12, 24 h. */
export const DEFAULT_DELIVERY_RETRY_SCHEDULE_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000];

const schedule = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'a comma-separated list of milliseconds')
  .transform((text) => text.split(',').map(Number));

export const config = loadConfig({
  ...baseConfigShape,
  SERVICE_NAME: z.string().default('tracking'),
  GRPC_ADDRESS: z.string().default('0.0.0.0:50059'),
  /**
   * Keys sealing the integrations' credentials (AES-256-GCM): `<id>:<base64 of 32 bytes>` entries
   * separated by commas; the first seals, every listed one opens.
   */
  INTEGRATION_CREDENTIALS_KEYS: z.string().min(1),
  /** The attribution tool's API (Utmify: https://api.utmify.com.br). */
  UTMIFY_BASE_URL: z.string().url().default('https://api.utmify.com.br'),
  /** Meta's Graph API (https://graph.facebook.com) and the version the Conversions API is called at. */
  META_GRAPH_BASE_URL: z.string().url().default('https://graph.facebook.com'),
  META_GRAPH_VERSION: z.string().regex(/^v\d+\.\d+$/).default('v25.0'),
  /** TikTok's Business API (https://business-api.tiktok.com). */
  TIKTOK_BASE_URL: z.string().url().default('https://business-api.tiktok.com'),
  /** How long one send may take before it counts as the tool being down (retried). */
  TOOL_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Waits between the attempts of a send the tool did not take; the test stack shortens them. */
  DELIVERY_RETRY_SCHEDULE_MS: schedule.default(DEFAULT_DELIVERY_RETRY_SCHEDULE_MS.join(',')),
  /** How often the due-work scan of deliveries runs (work this replica scheduled runs on time regardless). */
  DELIVERY_POLL_MS: z.coerce.number().int().min(50).default(1_000),
  /** The longest each merchant's enabled integrations are cached should a change signal be lost (docs/decisions.md "Caches"); 0: off. */
  INTEGRATION_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
});

export type TrackingConfig = typeof config;
