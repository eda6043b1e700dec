import { baseConfigShape, loadConfig } from '@orquestra/platform';
import { z } from 'zod';

export const accountsConfigShape = {
  ...baseConfigShape,
  SERVICE_NAME: z.string().default('accounts'),
  GRPC_ADDRESS: z.string().default('0.0.0.0:50051'),
  /**
   * AES-256-GCM keys sealing the owners' TOTP secrets at rest: "<id>:<base64 32 bytes>[,<older>…]";
   * the first seals, every one opens (SecretBox).
   */
  OWNER_SECRETS_KEYS: z.string().min(1),
  /** An owner session's fixed lifetime from sign-in (docs/dashboard.md "Owner accounts and sessions"). */
  SESSION_TTL_HOURS: z.coerce.number().int().positive().max(24 * 30).default(12),
  /** The sign-in rate limit's window; each e-mail and each IP has its own counter per window. */
  SIGN_IN_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
  SIGN_IN_MAX_PER_EMAIL: z.coerce.number().int().positive().default(10),
  SIGN_IN_MAX_PER_IP: z.coerce.number().int().positive().default(100),
};

export const config = loadConfig(accountsConfigShape);

export type AccountsConfig = typeof config;
