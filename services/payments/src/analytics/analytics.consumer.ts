import { PAYMENT_STATUSES } from '@orquestra/contracts';
import type { EventBus, EventEnvelope } from '@orquestra/platform';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { AnalyticsLedger } from './analytics-ledger';
import type { PaymentState } from './figures';

const money = z.union([z.number(), z.string()]).transform((value) => Number(value)).pipe(z.number().int());
const optionalText = z.string().nullish().transform((value) => value ?? '');

/** The fields of the public payment (data.object of payment.* events) the buckets need. */
const paymentObjectSchema = z.object({
  id: z.string().min(1),
  object: z.literal('payment'),
  status: z.enum(PAYMENT_STATUSES),
  amount: money,
  amount_refunded: money,
  fee: money.nullish().transform((value) => value ?? 0),
  method: optionalText,
  provider: optionalText,
  provider_account_id: optionalText,
  created_at: z.string().datetime({ offset: true }),
  updated_at: z.string().datetime({ offset: true }),
});

/** The payment state an event reports, or null when it is not a payment event the buckets read. */
export function paymentStateFromEvent(event: EventEnvelope): PaymentState | null {
  const parsed = paymentObjectSchema.safeParse(event.data?.object);
  if (!parsed.success || (event.mode !== 'test' && event.mode !== 'live') || !event.merchant_id) return null;
  const object = parsed.data;
  return {
    id: object.id,
    merchant_id: event.merchant_id,
    mode: event.mode,
    status: object.status,
    amount: object.amount,
    amount_refunded: object.amount_refunded,
    fee: object.fee,
    method: object.method,
    provider: object.provider,
    provider_account_id: object.provider_account_id,
    created_at: new Date(object.created_at),
    updated_at: new Date(object.updated_at),
  };
}

export const ANALYTICS_QUEUE = 'payments.analytics';

/**
 * Keeps the overview's buckets from every payment.* event (docs/analytics.md). Delivery is at least
 * once and in any order: the ledger applies a state only if it is newer than the one the payment
 * already contributes, so a duplicate or an older event changes nothing. A failing write throws and
 * the bus redelivers, which also resumes an operation a crash left half done.
 */
export async function startAnalyticsConsumer(bus: EventBus, ledger: AnalyticsLedger, logger: Logger): Promise<void> {
  await bus.consume({ queue: ANALYTICS_QUEUE, patterns: ['payment.*'], maxAttempts: 10, retryDelayMs: 2_000 }, async (event) => {
    const state = paymentStateFromEvent(event);
    if (!state) {
      logger.error({ event_id: event.id, type: event.type }, 'analytics: event without a readable payment dropped');
      return;
    }
    await ledger.record(state, { likelyFirst: event.type === 'payment.created' });
  });
}
