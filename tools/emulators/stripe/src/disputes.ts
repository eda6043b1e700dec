/**
 * Card disputes (chargebacks), as Stripe runs them (docs.stripe.com/api/disputes,
 * docs.stripe.com/disputes/responding, docs.stripe.com/testing#disputes):
 * - the cardholder's bank opens one on a succeeded card charge (here: control
 *   `POST /__control/charges/:id/dispute`): `needs_response`, `evidence_details.due_by` a week
 *   ahead, the amount withdrawn from the balance; events `charge.dispute.created` and
 *   `charge.dispute.funds_withdrawn`;
 * - `POST /v1/disputes/:id` stores `evidence[…]` and, with `submit=true`, sends it: `under_review`
 *   (`charge.dispute.updated`); evidence can no longer change after that;
 * - the bank decides (control `POST /__control/disputes/:id/close`): `won` (funds reinstated,
 *   `charge.dispute.funds_reinstated`) or `lost`; `charge.dispute.closed` either way.
 */
import { refill } from '../../kit';
import type { EmulatorState } from './emulator-state';
import { buildEvent, type EventType, type StripeEvent } from './events';
import type { Logger } from '../../kit';
import type { StoredPaymentIntent } from './payment-intent-model';
import { StripeApiError } from './stripe-errors';
import { newId } from './stripe-ids';

export type DisputeStatus = 'warning_needs_response' | 'warning_under_review' | 'warning_closed' | 'needs_response' | 'under_review' | 'won' | 'lost';
export const DISPUTE_REASONS = [
  'bank_cannot_process', 'check_returned', 'credit_not_processed', 'customer_initiated', 'debit_not_authorized', 'duplicate', 'fraudulent',
  'general', 'incorrect_account_details', 'insufficient_funds', 'product_not_received', 'product_unacceptable', 'subscription_canceled', 'unrecognized',
] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

/** The evidence fields the emulator keeps (Stripe has many more; unknown ones are refused). */
export const EVIDENCE_FIELDS = ['uncategorized_text', 'product_description', 'customer_name', 'customer_email_address', 'access_activity_log', 'refund_policy_disclosure', 'service_date'] as const;

export interface StoredDispute {
  id: string;
  accountId: string;
  livemode: boolean;
  paymentIntentId: string;
  chargeId: string;
  amount: number;
  created: number;
  reason: DisputeReason;
  status: DisputeStatus;
  evidence: Record<string, string>;
  dueBy: number;
  submissionCount: number;
  metadata: Record<string, string>;
  /** Every event sent for this dispute, oldest first (redelivery resends one). */
  events: StripeEvent[];
}

const ANSWER_DAYS = 7;
const CLOSED: readonly DisputeStatus[] = ['won', 'lost', 'warning_closed'];

export function disputeJson(d: StoredDispute) {
  const evidence: Record<string, string | null> = {};
  for (const field of EVIDENCE_FIELDS) evidence[field] = d.evidence[field] ?? null;
  return {
    id: d.id,
    object: 'dispute',
    amount: d.amount,
    balance_transactions: [],
    charge: d.chargeId,
    created: d.created,
    currency: 'brl',
    evidence,
    evidence_details: { due_by: CLOSED.includes(d.status) ? null : d.dueBy, has_evidence: Object.keys(d.evidence).length > 0, past_due: false, submission_count: d.submissionCount },
    is_charge_refundable: false,
    livemode: d.livemode,
    metadata: { ...d.metadata },
    payment_intent: d.paymentIntentId,
    reason: d.reason,
    status: d.status,
  };
}

export class DisputeBook {
  private readonly disputes = new Map<string, StoredDispute>();

  constructor(
    private readonly state: EmulatorState,
    private readonly emit: (accountId: string, event: StripeEvent) => void,
    private readonly logger: Logger,
  ) {}

  private event(d: StoredDispute, type: EventType, previous?: Record<string, unknown>): void {
    const event = buildEvent(type, disputeJson(d), d.livemode, this.state.nowSeconds(), {}, previous);
    d.events.push(event);
    this.emit(d.accountId, event);
  }

  find(id: string): StoredDispute | undefined {
    return this.disputes.get(id);
  }

  /** The account's dispute; another account's is as missing as an unknown one. */
  get(accountId: string, id: string): StoredDispute {
    const d = this.disputes.get(id);
    if (!d || d.accountId !== accountId) {
      throw new StripeApiError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such dispute: '${id}'`, param: 'dispute' });
    }
    return d;
  }

  list(accountId: string, filter: { paymentIntentId?: string; chargeId?: string } = {}): StoredDispute[] {
    return [...this.disputes.values()]
      .filter((d) => d.accountId === accountId && (!filter.paymentIntentId || d.paymentIntentId === filter.paymentIntentId) && (!filter.chargeId || d.chargeId === filter.chargeId))
      .sort((a, b) => b.created - a.created);
  }

  /** The cardholder's bank disputes a succeeded card charge (all of what was not refunded, by default). */
  open(pi: StoredPaymentIntent, options: { amount?: number; reason?: DisputeReason }): StoredDispute {
    const charge = pi.latestCharge;
    if (pi.status !== 'succeeded' || !charge || charge.status !== 'succeeded' || charge.paymentMethod.type !== 'card') {
      throw new Error(`PaymentIntent ${pi.id} has no succeeded card charge`);
    }
    if ([...this.disputes.values()].some((d) => d.chargeId === charge.id)) throw new Error(`charge ${charge.id} is already disputed`);
    const left = charge.amount - (charge.amountRefunded ?? 0);
    const amount = options.amount ?? left;
    if (amount < 1 || amount > left) throw new Error(`amount must be 1..${left}`);
    const now = this.state.nowSeconds();
    const d: StoredDispute = {
      id: newId('dp'),
      accountId: pi.accountId,
      livemode: pi.livemode,
      paymentIntentId: pi.id,
      chargeId: charge.id,
      amount,
      created: now,
      reason: options.reason ?? 'fraudulent',
      status: 'needs_response',
      evidence: {},
      dueBy: now + ANSWER_DAYS * 86_400,
      submissionCount: 0,
      metadata: {},
      events: [],
    };
    this.disputes.set(d.id, d);
    this.event(d, 'charge.dispute.created');
    this.event(d, 'charge.dispute.funds_withdrawn');
    this.logger.info({ account: d.accountId, dispute: d.id, paymentIntent: pi.id }, 'dispute opened');
    return d;
  }

  /** `POST /v1/disputes/:id`: evidence (merged), metadata, and `submit` (default true, as at Stripe). */
  update(d: StoredDispute, input: { evidence: Record<string, string>; metadata: Record<string, string>; submit: boolean }): StoredDispute {
    const answerable = d.status === 'needs_response' || d.status === 'warning_needs_response';
    if (!answerable && Object.keys(input.evidence).length > 0) {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        message: `This dispute is ${d.status}; evidence can no longer be updated.`,
        param: 'evidence',
      });
    }
    Object.assign(d.evidence, input.evidence);
    Object.assign(d.metadata, input.metadata);
    if (answerable && input.submit) {
      const previous = { status: d.status };
      d.status = d.status === 'warning_needs_response' ? 'warning_under_review' : 'under_review';
      d.submissionCount += 1;
      this.event(d, 'charge.dispute.updated', previous);
      this.logger.info({ account: d.accountId, dispute: d.id }, 'dispute evidence submitted');
    } else if (Object.keys(input.evidence).length > 0 || Object.keys(input.metadata).length > 0) {
      this.event(d, 'charge.dispute.updated');
    }
    return d;
  }

  /** The bank's decision; false when the dispute was already closed. */
  close(d: StoredDispute, outcome: 'won' | 'lost'): boolean {
    if (CLOSED.includes(d.status)) return false;
    const previous = { status: d.status };
    d.status = outcome;
    if (outcome === 'won') this.event(d, 'charge.dispute.funds_reinstated');
    this.event(d, 'charge.dispute.closed', previous);
    this.logger.info({ account: d.accountId, dispute: d.id, outcome }, 'dispute closed');
    return true;
  }

  /** Stripe's "Resend" of a past event (same event id); the latest one by default. */
  redeliver(d: StoredDispute, type?: EventType): StripeEvent | undefined {
    const event = [...d.events].reverse().find((e) => !type || e.type === type);
    if (event) this.emit(d.accountId, event);
    return event;
  }

  reset(): void {
    this.disputes.clear();
  }

  snapshot(): Map<string, StoredDispute> {
    return this.disputes;
  }

  restore(snapshot: Map<string, StoredDispute>): void {
    refill(this.disputes, snapshot);
  }
}
