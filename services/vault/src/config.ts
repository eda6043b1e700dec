import { baseConfigShape, loadConfig } from '@orquestra/platform';
import { z } from 'zod';

export const config = loadConfig({
  ...baseConfigShape,
  SERVICE_NAME: z.string().default('vault'),
  GRPC_ADDRESS: z.string().default('0.0.0.0:50058'),
  /**
   * Keys sealing card numbers and security codes (AES-256-GCM): `<id>:<base64 of 32 bytes>`
   * entries separated by commas; the first seals, every listed one opens (docs/cards.md, rotation).
   */
  CARD_ENCRYPTION_KEYS: z.string().min(1),
  /** HMAC-SHA256 key of card fingerprints (base64 or text, at least 32 bytes): never rotated, fingerprints must stay stable. */
  FINGERPRINT_KEY: z.string().min(32),
  /** How long a saved card's security code is kept at most (spec: until first approval or 1 hour). */
  CARD_CVC_TTL_MS: z.coerce.number().int().min(1_000).default(60 * 60_000),
  /** How long a card fields token can be saved or charged (spec: 24 hours). */
  CARD_TOKEN_TTL_MS: z.coerce.number().int().min(1_000).default(24 * 60 * 60_000),
  /** The payment page's base (same value as payments' and the gateway's): its origin may always show the card fields. */
  PAY_BASE_URL: z.string().url().default('http://localhost:8080/pay'),
  /** How often the due-work scans (security code deletion, token purge) run. */
  VAULT_DUE_POLL_MS: z.coerce.number().int().min(50).default(1_000),
});

export type VaultConfig = typeof config;
