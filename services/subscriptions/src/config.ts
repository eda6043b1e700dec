import { baseConfigShape, loadConfig } from '@orquestra/platform';
import { z } from 'zod';

export const config = loadConfig({
  ...baseConfigShape,
  SERVICE_NAME: z.string().default('subscriptions'),
  GRPC_ADDRESS: z.string().default('0.0.0.0:50056'),
  PROVIDERS_GRPC_ADDR: z.string().default('127.0.0.1:50054'),
  PAYMENTS_GRPC_ADDR: z.string().default('127.0.0.1:50052'),
  /** How long a repeat of an Idempotency-Key waits for the first request's subscription before answering idempotency_in_progress. */
  IDEMPOTENCY_WAIT_MS: z.coerce.number().int().min(0).default(10_000),
  /** Seconds the approval QR stays payable (the immediate charge that approves the recurrence). */
  APPROVAL_EXPIRES_IN_SECONDS: z.coerce.number().int().min(60).default(24 * 60 * 60),
  /** Between two scheduler passes (cycles whose send window opened, subscriptions past end_date). */
  CYCLE_SCHEDULE_INTERVAL_MS: z.coerce.number().int().min(50).default(60_000),
  /** How long one replica holds a cycle it is sending before another may send it (same payment id). */
  CYCLE_SEND_LEASE_MS: z.coerce.number().int().min(1_000).default(60_000),
  /**
   * End-to-end tests only (never set in Helm): a JSON file `{"offset_ms": n}` whose offset moves
   * this service's clock forward, so cycles weeks apart run in seconds (src/clock/service-clock.ts).
   */
  TEST_CLOCK_FILE: z.string().optional(),
});

export type SubscriptionsConfig = typeof config;
