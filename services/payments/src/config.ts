import { baseConfigShape, loadConfig } from '@orquestra/platform';
import { z } from 'zod';

export const config = loadConfig({
  ...baseConfigShape,
  SERVICE_NAME: z.string().default('payments'),
  GRPC_ADDRESS: z.string().default('0.0.0.0:50052'),
  ROUTING_GRPC_ADDR: z.string().default('127.0.0.1:50053'),
  PROVIDERS_GRPC_ADDR: z.string().default('127.0.0.1:50054'),
  /** The payouts service: the subaccounts a payment's splits name (ResolveSplits). */
  PAYOUTS_GRPC_ADDR: z.string().default('127.0.0.1:50057'),
  /** Public base of the REST edge, for qr_code_url (`<base>/qr/<payment id>.png`). */
  PUBLIC_BASE_URL: z.string().url().default('http://localhost:8080'),
  /** Base of the payment page (`pay.<domain>`): payment_url is `<base>/<payment id>`. */
  PAY_BASE_URL: z.string().url().default('http://localhost:8080/pay'),
  /** Pix validity when expires_in_minutes is omitted. */
  DEFAULT_PIX_EXPIRES_MINUTES: z.coerce.number().int().positive().default(60),
  /** Time the buyer has to choose on the payment page when `method` and expires_in_minutes are omitted. */
  DEFAULT_METHOD_CHOICE_MINUTES: z.coerce.number().int().positive().default(60),
  /** Days after an unpaid boleto's due date before it is canceled at the provider (late bank compensation). */
  BOLETO_CANCEL_AFTER_DAYS: z.coerce.number().int().min(0).default(7),
  /** How long an Idempotency-Key is remembered. */
  IDEMPOTENCY_TTL_HOURS: z.coerce.number().int().positive().default(24),
  /** Deadline of one provider call made through the providers service. */
  PROVIDER_CALL_DEADLINE_MS: z.coerce.number().int().positive().default(12_000),
  EXPIRY_POLL_INTERVAL_MS: z.coerce.number().int().positive().default(1_000),
});

export type PaymentsConfig = typeof config;
