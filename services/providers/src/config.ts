import { baseConfigShape, loadConfig } from '@orquestra/platform';
import { z } from 'zod';

export const config = loadConfig({
  ...baseConfigShape,
  SERVICE_NAME: z.string().default('providers'),
  GRPC_ADDRESS: z.string().default('0.0.0.0:50054'),
  /** The card vault: the card of a charge made with a saved card or a card fields token (RevealCard). */
  VAULT_GRPC_ADDR: z.string().default('127.0.0.1:50058'),
  /** AES-256-GCM keys for credentials at rest: "<id>:<base64 32 bytes>[,<older>…]"; first seals. */
  CREDENTIALS_ENCRYPTION_KEYS: z.string().min(1),
  /** Public base URL providers post webhooks to (the gateway). */
  PUBLIC_WEBHOOK_BASE_URL: z.string().url(),
  /**
   * Overrides of provider base URLs, JSON: {"<provider>": {"test": url, "live": url, "control": url}}.
   * Development and tests point them at tools/emulators; "control" is an emulator's control API
   * (used by simulate). Without an override, the catalog's real sandbox/production URLs are used.
   */
  PROVIDER_ENDPOINTS: z
    .string()
    .default('{}')
    .transform((text, ctx) => {
      const schema = z.record(z.object({ test: z.string().url().optional(), live: z.string().url().optional(), control: z.string().url().optional() }));
      try {
        return schema.parse(JSON.parse(text));
      } catch (error) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `PROVIDER_ENDPOINTS must be JSON {provider: {test, live, control}}: ${(error as Error).message}` });
        return z.NEVER;
      }
    }),
  /** Provider-specific settings, JSON: {"woovi": {"webhook_public_key": "<PEM>"}}. */
  PROVIDER_SETTINGS: z
    .string()
    .default('{}')
    .transform((text, ctx) => {
      try {
        return z.record(z.record(z.string())).parse(JSON.parse(text));
      } catch (error) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `PROVIDER_SETTINGS must be JSON {provider: {key: value}}: ${(error as Error).message}` });
        return z.NEVER;
      }
    }),
  /**
   * Extra CA (PEM file) trusted for provider hosts besides the system CAs: the local emulators' CA
   * in development and tests. Never set in production.
   */
  PROVIDER_EXTRA_CA_FILE: z.string().optional(),
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().default(8_000),
  BREAKER_ERROR_THRESHOLD_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
  BREAKER_VOLUME_THRESHOLD: z.coerce.number().int().min(1).default(5),
  BREAKER_RESET_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** The window over which a breaker counts failures (10 buckets). */
  BREAKER_ROLLING_WINDOW_MS: z.coerce.number().int().min(1_000).default(10_000),
  /** Consecutive provider failures that open a breaker at once (0: only the percentage counts). */
  BREAKER_CONSECUTIVE_FAILURES: z.coerce.number().int().min(0).default(5),
  /**
   * How often each replica reads the breaker transitions the others stored (breaker_states), for
   * one whose signal was lost; signals apply them at once.
   */
  BREAKER_SYNC_MS: z.coerce.number().int().min(200).default(2_000),
  /** Time between two polls of one account's disputes (Efí infrações): 5 minutes; seconds in tests. */
  DISPUTE_POLL_INTERVAL_MS: z.coerce.number().int().min(200).default(300_000),
  /** How far back a dispute poll looks (by opening date): MED answers and decisions fit in 30 days. */
  DISPUTE_POLL_LOOKBACK_DAYS: z.coerce.number().int().min(1).max(90).default(30),
});

export type ProvidersConfig = typeof config;
