/**
 * Stripe card disputes (chargebacks and the inquiries before them): wire type, the exhaustive
 * status map, reading a `charge.dispute.*` event's Dispute, and sending evidence. Sources: API
 * reference "The Dispute object" / "Update a dispute" (docs.stripe.com/api/disputes), "Respond to
 * disputes" (docs.stripe.com/disputes/responding), webhook types `charge.dispute.created|updated|
 * closed|funds_withdrawn|funds_reinstated`.
 *
 * The dispute is named by Stripe's `dp_…` and linked to our charge by its `payment_intent` (our
 * provider payment id). The event's body is the report: it is HMAC-signed with the endpoint secret
 * (Stripe-Signature), deduplicated by the event id, and payments only ever moves a dispute forward,
 * so events Stripe sends out of order cannot move it back.
 */
import { assertNever } from '@orquestra/platform';
import type { DisputeEvidenceInput, ProviderDispute, ProviderDisputeStatus } from '../provider-disputes';
import type { FormValue } from './stripe.form-encoding';
import { providerErrorFor } from './stripe.errors';

/** Every documented Dispute `status`. */
export const STRIPE_DISPUTE_STATUSES = ['warning_needs_response', 'warning_under_review', 'warning_closed', 'needs_response', 'under_review', 'won', 'lost', 'prevented'] as const;
export type StripeDisputeStatus = (typeof STRIPE_DISPUTE_STATUSES)[number];

/** The `charge.dispute.*` events we subscribe to. */
export const DISPUTE_EVENTS = ['charge.dispute.created', 'charge.dispute.updated', 'charge.dispute.closed', 'charge.dispute.funds_withdrawn', 'charge.dispute.funds_reinstated'] as const;

export interface StripeDispute {
  id: string;
  object: 'dispute';
  amount: number;
  charge: string;
  payment_intent: string | null;
  created?: number;
  currency?: string;
  reason?: string;
  status: StripeDisputeStatus;
  evidence_details?: { due_by: number | null; has_evidence?: boolean; past_due?: boolean; submission_count?: number } | null;
}

/**
 * Every Dispute status; a new one fails to compile here. The inquiry (`warning_*`) is answered like
 * a chargeback; `warning_closed` (the inquiry ended without a chargeback) and `prevented` (stopped
 * before it became one) keep the money with the merchant and are no decision on evidence: canceled.
 */
export function mapDisputeStatus(status: StripeDisputeStatus): ProviderDisputeStatus {
  switch (status) {
    case 'warning_needs_response':
    case 'needs_response':
      return 'open';
    case 'warning_under_review':
    case 'under_review':
      return 'under_review';
    case 'won':
      return 'won';
    case 'lost':
      return 'lost';
    case 'warning_closed':
    case 'prevented':
      return 'canceled';
    default:
      return assertNever(status);
  }
}

const isStatus = (value: unknown): value is StripeDisputeStatus => (STRIPE_DISPUTE_STATUSES as readonly unknown[]).includes(value);

/**
 * An event's `data.object` as a Dispute, or why it cannot be read. An unknown status is
 * `unknown_status` (acknowledged and logged by the caller, never guessed).
 */
export function stripeDisputeOf(value: unknown): { ok: true; dispute: StripeDispute } | { ok: false; reason: 'malformed' | 'unknown_status' } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'malformed' };
  const d = value as Record<string, unknown>;
  if (d['object'] !== 'dispute' || typeof d['id'] !== 'string' || !d['id']) return { ok: false, reason: 'malformed' };
  if (typeof d['amount'] !== 'number' || !Number.isSafeInteger(d['amount']) || d['amount'] < 0) return { ok: false, reason: 'malformed' };
  if (typeof d['charge'] !== 'string') return { ok: false, reason: 'malformed' };
  if (d['payment_intent'] !== null && d['payment_intent'] !== undefined && typeof d['payment_intent'] !== 'string') return { ok: false, reason: 'malformed' };
  if (typeof d['status'] !== 'string') return { ok: false, reason: 'malformed' };
  if (!isStatus(d['status'])) return { ok: false, reason: 'unknown_status' };
  return { ok: true, dispute: value as StripeDispute };
}

export function toProviderDispute(dispute: StripeDispute): ProviderDispute {
  const status = mapDisputeStatus(dispute.status);
  const dueBy = dispute.evidence_details?.due_by;
  return {
    providerDisputeId: dispute.id,
    kind: 'chargeback',
    status,
    providerStatus: dispute.status,
    // Cards are PaymentIntents here; a dispute on a bare Charge (none of ours) names no payment.
    ...(dispute.payment_intent ? { providerPaymentId: dispute.payment_intent } : {}),
    ...(dispute.amount > 0 ? { amount: dispute.amount } : {}),
    ...(dispute.reason ? { reason: dispute.reason } : {}),
    ...(typeof dispute.created === 'number' ? { openedAt: new Date(dispute.created * 1000) } : {}),
    ...(typeof dueBy === 'number' && dueBy > 0 ? { answerDueAt: new Date(dueBy * 1000) } : {}),
    acceptsEvidence: true,
  };
}

/** Stripe's limit for `evidence[uncategorized_text]`. */
export const UNCATEGORIZED_TEXT_LIMIT = 20_000;

/**
 * `POST /v1/disputes/{id}` parameters: the text, then the links one per line, as
 * `evidence[uncategorized_text]`, and `submit=true` (sent to the bank at once: under_review).
 */
export function buildEvidenceParams(input: DisputeEvidenceInput): Record<string, FormValue> {
  const links = input.urls.length > 0 ? `\n\nComprovantes:\n${input.urls.join('\n')}` : '';
  const text = `${input.text}${links}`;
  if (text.length > UNCATEGORIZED_TEXT_LIMIT) throw new RangeError(`evidence text is longer than Stripe's ${UNCATEGORIZED_TEXT_LIMIT} characters`);
  return { evidence: { uncategorized_text: text }, submit: true };
}

type Answer = { status: number; body: unknown };
export type StripeDisputeApi = (method: 'GET' | 'POST', path: string, operation: 'read' | 'write', params?: Record<string, FormValue>) => Promise<Answer>;

/**
 * Sends the evidence. Stripe refuses evidence on a dispute no longer awaiting it (400, rejected),
 * and an unknown id is 404 (not_found); both throw ProviderError.
 */
export async function submitStripeDisputeEvidence(api: StripeDisputeApi, input: DisputeEvidenceInput): Promise<StripeDispute> {
  const answer = await api('POST', `/v1/disputes/${encodeURIComponent(input.providerDisputeId)}`, 'write', buildEvidenceParams(input));
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'submit dispute evidence');
  return answer.body as StripeDispute;
}
