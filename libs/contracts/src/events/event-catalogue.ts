import { z } from 'zod';
import { PUBLIC_EVENT_TYPES, type PublicEventType } from './event-types';
import { DISPUTE_STATUSES, PAYMENT_STATUSES } from '../public/statuses';
import { refundObjectSchema } from './refund-events';

/**
 * The schema of every public event type: the envelope (spec §6) and what `data.object` is. Object
 * schemas name the fields receivers may rely on and let further fields through (additive changes
 * never break a receiver). docs/events.md is the prose version of this table; a unit test keeps
 * the two in step.
 */

const money = z.number().int();
const mode = z.enum(['test', 'live']);

export const paymentObjectSchema = z
  .object({
    id: z.string().startsWith('pay_'),
    object: z.literal('payment'),
    mode,
    method: z.enum(['pix', 'card', 'boleto']).nullable(),
    status: z.enum(PAYMENT_STATUSES),
    amount: money.positive(),
    amount_refunded: money.nonnegative(),
    currency: z.literal('BRL'),
    metadata: z.record(z.string()),
    created_at: z.string(),
  })
  .passthrough();

export const disputeObjectSchema = z
  .object({
    id: z.string().startsWith('dp_'),
    object: z.literal('dispute'),
    kind: z.enum(['med', 'chargeback']),
    status: z.enum(DISPUTE_STATUSES),
    amount: money.positive(),
    payment_id: z.string(),
  })
  .passthrough();

export const subscriptionObjectSchema = z
  .object({
    id: z.string().startsWith('sub_'),
    object: z.literal('subscription'),
    status: z.enum(['pending', 'active', 'canceled', 'refused', 'expired']),
    amount: money.nullable(),
    frequency: z.enum(['weekly', 'monthly', 'quarterly', 'semiannually', 'annually']),
  })
  .passthrough();

export const subaccountObjectSchema = z
  .object({
    id: z.string().startsWith('sub_'),
    object: z.literal('subaccount'),
    mode,
    status: z.enum(['pending', 'active', 'refused', 'blocked', 'inactive']),
  })
  .passthrough();

export const payoutObjectSchema = z
  .object({
    id: z.string().startsWith('po_'),
    object: z.literal('payout'),
    status: z.enum(['pending', 'processing', 'paid', 'failed', 'canceled']),
    amount: money.positive(),
  })
  .passthrough();

export const cardObjectSchema = z
  .object({ id: z.string().startsWith('card_'), object: z.literal('card'), mode, last4: z.string() })
  .passthrough();

export const webhookEndpointObjectSchema = z
  .object({
    id: z.string().startsWith('we_'),
    object: z.literal('webhook_endpoint'),
    url: z.string(),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable(),
  })
  .passthrough();

export const integrationDeliveryObjectSchema = z
  .object({
    id: z.string().startsWith('dlv_'),
    object: z.literal('integration_delivery'),
    integration_id: z.string().startsWith('itg_'),
    payment_id: z.string().startsWith('pay_'),
    status: z.enum(['pending', 'delivered', 'failed', 'not_sent', 'superseded']),
    reason: z.string().nullable(),
  })
  .passthrough();

export const reconciliationRunObjectSchema = z
  .object({
    id: z.string().startsWith('rec_'),
    object: z.literal('reconciliation_run'),
    mode,
    status: z.enum(['queued', 'running', 'completed', 'failed']),
    start: z.string(),
    end: z.string(),
  })
  .passthrough();

/** The public event object (spec §6) around a given data.object schema. */
export function publicEventSchema<T extends z.ZodTypeAny>(object: T) {
  return z.object({
    id: z.string().startsWith('evt_'),
    object: z.literal('event'),
    type: z.string(),
    created: z.number().int().positive(),
    data: z.object({ object }),
  });
}

export interface EventCatalogueEntry {
  /** What happened, one line (English; docs/events.md carries the same text). */
  description: string;
  /** The `object` value of data.object. */
  object: string;
  schema: z.ZodTypeAny;
  /** `emitted` today, or `reserved` for a capability still being built. */
  status: 'emitted' | 'reserved';
}

const payment = (description: string): EventCatalogueEntry => ({ description, object: 'payment', schema: paymentObjectSchema, status: 'emitted' });
const entry = (description: string, object: string, schema: z.ZodTypeAny, status: 'emitted' | 'reserved'): EventCatalogueEntry => ({
  description,
  object,
  schema,
  status,
});

export const EVENT_CATALOGUE: Record<PublicEventType, EventCatalogueEntry> = {
  'payment.created': payment('A payment was created (any method, before the provider answered).'),
  'payment.pending': payment('The provider issued the charge; the buyer can pay (Pix QR, boleto).'),
  'payment.succeeded': payment('The payment was paid. Deliver the goods on this event.'),
  'payment.failed': payment('Every eligible account failed or declined; failure_code says why.'),
  'payment.canceled': payment('Canceled by the API or expired (failure_code "expired").'),
  'payment.refunded': payment('Refunds that succeeded now cover the whole amount.'),
  'payment.partially_refunded': payment('A refund succeeded and part of the amount remains.'),
  'refund.created': entry('A refund was asked for, or first seen at the provider.', 'refund', refundObjectSchema, 'emitted'),
  'refund.succeeded': entry('The provider confirmed the money went back.', 'refund', refundObjectSchema, 'emitted'),
  'refund.failed': entry('The provider did not return the money; the amount is refundable again.', 'refund', refundObjectSchema, 'emitted'),
  'dispute.created': entry('A MED (Pix) or chargeback (card) was opened.', 'dispute', disputeObjectSchema, 'emitted'),
  'dispute.updated': entry('A dispute changed (evidence submitted, under review).', 'dispute', disputeObjectSchema, 'emitted'),
  'dispute.closed': entry('A dispute was won, lost or canceled.', 'dispute', disputeObjectSchema, 'emitted'),
  'subscription.created': entry('A subscription was created and awaits approval.', 'subscription', subscriptionObjectSchema, 'emitted'),
  'subscription.activated': entry('The buyer approved the subscription.', 'subscription', subscriptionObjectSchema, 'emitted'),
  'subscription.updated': entry('A subscription changed (next charge date, amount).', 'subscription', subscriptionObjectSchema, 'reserved'),
  'subscription.canceled': entry('A subscription was canceled.', 'subscription', subscriptionObjectSchema, 'emitted'),
  'subscription.refused': entry('The buyer or the bank refused the subscription.', 'subscription', subscriptionObjectSchema, 'emitted'),
  'subscription.expired': entry('The approval expired or the end date passed.', 'subscription', subscriptionObjectSchema, 'emitted'),
  'subscription.cycle_scheduled': entry(
    "A cycle's charge was sent to the provider: the payer's bank debits it on the payment's due_date (the object is the cycle payment, with subscription_id).",
    'payment',
    paymentObjectSchema,
    'emitted',
  ),
  'subscription.cycle_failed': entry(
    "A cycle's debit failed for good (after the retries, when retry is true); the subscription stays active (the object is the cycle payment).",
    'payment',
    paymentObjectSchema,
    'emitted',
  ),
  'subaccount.created': entry('A subaccount was created.', 'subaccount', subaccountObjectSchema, 'emitted'),
  'subaccount.updated': entry('A subaccount changed (status, name, metadata).', 'subaccount', subaccountObjectSchema, 'emitted'),
  'payout.created': entry('A payout or subaccount withdrawal was created.', 'payout', payoutObjectSchema, 'emitted'),
  'payout.processing': entry('The provider took the payout and is sending it to the bank.', 'payout', payoutObjectSchema, 'emitted'),
  'payout.uncertain': entry('The provider did not confirm the payout (timeout, error after sending): do not create another; the service keeps asking.', 'payout', payoutObjectSchema, 'emitted'),
  'payout.paid': entry('The money reached the destination.', 'payout', payoutObjectSchema, 'emitted'),
  'payout.failed': entry('The payout failed; failure_code says why.', 'payout', payoutObjectSchema, 'emitted'),
  'payout.canceled': entry('The payout was canceled before it was paid.', 'payout', payoutObjectSchema, 'emitted'),
  'card.created': entry('A card was saved in the vault (never its number or security code).', 'card', cardObjectSchema, 'emitted'),
  'card.updated': entry('A saved card changed (security code deleted, expiry updated).', 'card', cardObjectSchema, 'reserved'),
  'card.deleted': entry('A saved card was deleted, with its encrypted data.', 'card', cardObjectSchema, 'emitted'),
  'webhook_endpoint.disabled': entry(
    'A webhook endpoint was disabled: it answered 410 Gone, or every delivery failed for 5 days.',
    'webhook_endpoint',
    webhookEndpointObjectSchema,
    'emitted',
  ),
  'integration.delivery_failed': entry(
    'A sale could not be sent to an ad tool: the tool refused it (4xx, not retried) or every retry failed (reason says which).',
    'integration_delivery',
    integrationDeliveryObjectSchema,
    'emitted',
  ),
  'reconciliation_run.completed': entry(
    'A reconciliation run ended: its per-account report is in the object (status completed, or failed with failure_reason).',
    'reconciliation_run',
    reconciliationRunObjectSchema,
    'emitted',
  ),
};

/** Resource prefixes (`payment`, `refund`, …) of the catalogue, for `<resource>.*` patterns. */
export const EVENT_RESOURCES: readonly string[] = [...new Set(PUBLIC_EVENT_TYPES.map((type) => type.slice(0, type.indexOf('.'))))];
