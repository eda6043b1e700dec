import { baseConfigShape, loadConfig } from '@orquestra/platform';
import { z } from 'zod';

export const config = loadConfig({
  ...baseConfigShape,
  SERVICE_NAME: z.string().default('providers'),
  GRPC_ADDRESS: z.string().default('0.0.0.0:50054'),
  /** AES-256-GCM keys for credentials at rest: "<id>:<base64 32 bytes>[,<older>…]"; first seals. */
  CREDENTIALS_ENCRYPTION_KEYS: z.string().min(1),
  /** Public base URL providers post webhooks to (the gateway). */
  PUBLIC_WEBHOOK_BASE_URL: z.string().url(),
  EFI_PIX_BASE_URL_TEST: z.string().url().default('https://pix-h.api.efipay.com.br'),
  EFI_PIX_BASE_URL_LIVE: z.string().url().default('https://pix.api.efipay.com.br'),
  /** Control API of a local sandbox emulator (mark paid); absent against a real sandbox. */
  EFI_SANDBOX_CONTROL_URL: z.string().url().optional(),
  /**
   * Extra CA (PEM file) trusted for provider hosts besides the system CAs: the local emulators' CA
   * in development and tests. Never set in production.
   */
  PROVIDER_EXTRA_CA_FILE: z.string().optional(),
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().default(8_000),
  BREAKER_ERROR_THRESHOLD_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
  BREAKER_VOLUME_THRESHOLD: z.coerce.number().int().min(1).default(5),
  BREAKER_RESET_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
});

export type ProvidersConfig = typeof config;
