import { baseConfigShape, loadConfig } from '@orquestra/platform';
import { z } from 'zod';

export const config = loadConfig({
  ...baseConfigShape,
  SERVICE_NAME: z.string().default('subscriptions'),
  GRPC_ADDRESS: z.string().default('0.0.0.0:50056'),
  PROVIDERS_GRPC_ADDR: z.string().default('127.0.0.1:50054'),
  /** How long a repeat of an Idempotency-Key waits for the first request's subscription before answering idempotency_in_progress. */
  IDEMPOTENCY_WAIT_MS: z.coerce.number().int().min(0).default(10_000),
  /** Seconds the approval QR stays payable (the immediate charge that approves the recurrence). */
  APPROVAL_EXPIRES_IN_SECONDS: z.coerce.number().int().min(60).default(24 * 60 * 60),
});

export type SubscriptionsConfig = typeof config;
