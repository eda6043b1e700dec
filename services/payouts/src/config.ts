import { baseConfigShape, loadConfig } from '@orquestra/platform';
import { z } from 'zod';

export const config = loadConfig({
  ...baseConfigShape,
  SERVICE_NAME: z.string().default('payouts'),
  GRPC_ADDRESS: z.string().default('0.0.0.0:50057'),
  PROVIDERS_GRPC_ADDR: z.string().default('127.0.0.1:50054'),
  ACCOUNTS_GRPC_ADDR: z.string().default('127.0.0.1:50051'),
  /** First look at the provider after an unconfirmed transfer; doubles per look up to the max. */
  PAYOUT_RECHECK_BASE_MS: z.coerce.number().int().min(100).default(5_000),
  PAYOUT_RECHECK_MAX_MS: z.coerce.number().int().min(100).default(10 * 60_000),
  /** A processing payout without a webhook is read again this often. */
  PAYOUT_PROCESSING_POLL_MS: z.coerce.number().int().min(100).default(5 * 60_000),
  /** A transfer still unknown to the provider this long after creation was never made (longer than any provider call). */
  PAYOUT_NOT_MADE_AFTER_MS: z.coerce.number().int().min(1_000).default(10 * 60_000),
  /** How long a balance read from a provider is shown again without asking. */
  BALANCE_CACHE_TTL_MS: z.coerce.number().int().min(0).default(10_000),
});

export type PayoutsConfig = typeof config;
