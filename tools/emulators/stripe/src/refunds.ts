/**
 * Refunds, as Stripe runs them for Brazilian payment methods (docs.stripe.com/api/refunds,
 * docs.stripe.com/refunds, docs.stripe.com/payments/boleto#refunds, docs.stripe.com/payments/pix):
 * - a refund names a succeeded PaymentIntent (or its Charge); `amount` defaults to what is left;
 * - card: `succeeded` at once (test mode);
 * - Pix: `pending`, then `succeeded` a moment later (`refundSettleMs`);
 * - boleto: Stripe has no account to send the money to, so it e-mails the payer for bank details
 *   and the refund waits in `requires_action` with `next_action.display_details{email_sent,
 *   expires_at}` until the payer answers (control `POST /__control/refunds/:id/settle`), or is
 *   `canceled` when they never do;
 * - the Charge counts every refund not failed or canceled in `amount_refunded` (`refunded` once
 *   all of it), and events go out: `refund.created` + `charge.refunded` on creation,
 *   `refund.updated` + `charge.refund.updated` on each change, `refund.failed` on failure.
 */
import type { EmulatorState } from './emulator-state';
import { buildEvent, type EventCause, type EventType } from './events';
import { Timers, type Logger, type PayoutBook } from '../../kit';
import { chargeJson, type StoredCharge, type StoredPaymentIntent } from './payment-intent-model';
import { StripeApiError, stripeErrors } from './stripe-errors';
import { newId } from './stripe-ids';
import { reverseFor } from './destination-charges';

export type RefundStatus = 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';
export type RefundReason = 'duplicate' | 'fraudulent' | 'requested_by_customer';
export const REFUND_REASONS: readonly RefundReason[] = ['duplicate', 'fraudulent', 'requested_by_customer'];

export interface StoredRefund {
  id: string;
  accountId: string;
  livemode: boolean;
  paymentIntentId: string;
  chargeId: string;
  amount: number;
  created: number;
  status: RefundStatus;
  reason: RefundReason | null;
  metadata: Record<string, string>;
  failureReason?: string;
  /** A destination charge's transfer reversed by this refund (`reverse_transfer`): from whom, how much. */
  transferReversal?: { destination: string; amount: number };
  /** Boleto: where Stripe e-mailed the payer for bank details, and until when the link works. */
  emailSentTo?: string;
  actionExpiresAt?: number;
}

/** Boleto refund links stay valid for 45 days (the emulator's reading of the refunds guide). */
const BOLETO_DETAILS_DAYS = 45;

const NOT_COUNTED: readonly RefundStatus[] = ['failed', 'canceled'];

const reais = (cents: number) => `R$${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

export function refundJson(refund: StoredRefund) {
  const method = refund.emailSentTo !== undefined ? 'boleto' : undefined;
  return {
    id: refund.id,
    object: 'refund',
    amount: refund.amount,
    balance_transaction: refund.status === 'succeeded' ? `txn_${refund.id.slice(3)}` : null,
    charge: refund.chargeId,
    created: refund.created,
    currency: 'brl',
    destination_details: method ? { type: 'boleto', boleto: {} } : null,
    ...(refund.failureReason ? { failure_reason: refund.failureReason } : {}),
    metadata: { ...refund.metadata },
    next_action:
      refund.status === 'requires_action' && refund.emailSentTo !== undefined
        ? { type: 'display_details', display_details: { email_sent: { email_sent_at: refund.created, email_sent_to: refund.emailSentTo }, expires_at: refund.actionExpiresAt ?? null } }
        : null,
    payment_intent: refund.paymentIntentId,
    reason: refund.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: refund.status,
    transfer_reversal: null,
  };
}

export interface RefundRequest {
  amount?: number;
  reason: RefundReason | null;
  metadata: Record<string, string>;
  /** `reverse_transfer=true`: the destination charge's part comes back from the connected account. */
  reverseTransfer?: boolean;
}

/** Creates refunds, moves them, and keeps the Charge's `amount_refunded` and the events in step. */
export class RefundBook {
  private readonly timers = new Timers();

  constructor(
    private readonly state: EmulatorState,
    private readonly emit: (accountId: string, event: ReturnType<typeof buildEvent>) => void,
    private readonly logger: Logger,
    private readonly settleAfterMs: number,
    /** The accounts' balances (payouts.ts): a refund takes its amount, a failed or canceled one gives it back. */
    private readonly balance?: Pick<PayoutBook<unknown>, 'credit' | 'debit'>,
  ) {}

  private event(refund: StoredRefund, type: EventType, object: unknown, cause: EventCause = {}): void {
    this.emit(refund.accountId, buildEvent(type, object, refund.livemode, this.state.nowSeconds(), cause));
  }

  private chargeOf(refund: StoredRefund): { pi: StoredPaymentIntent; charge: StoredCharge } | undefined {
    const pi = this.state.findIntent(refund.paymentIntentId);
    const charge = pi?.latestCharge;
    return pi && charge && charge.id === refund.chargeId ? { pi, charge } : undefined;
  }

  private recount(charge: StoredCharge): void {
    charge.amountRefunded = this.state
      .refundsOfCharge(charge.id)
      .filter((r) => !NOT_COUNTED.includes(r.status))
      .reduce((sum, r) => sum + r.amount, 0);
  }

  create(pi: StoredPaymentIntent, request: RefundRequest, cause: EventCause): StoredRefund {
    const charge = pi.latestCharge;
    if (pi.status !== 'succeeded' || !charge || charge.status !== 'succeeded') {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'charge_not_refundable',
        message: `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`,
        param: 'payment_intent',
      });
    }
    const left = charge.amount - (charge.amountRefunded ?? 0);
    if (left <= 0) {
      throw new StripeApiError(400, { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge ${charge.id} has already been refunded.` });
    }
    const amount = request.amount ?? left;
    if (amount < 1) throw stripeErrors.invalidValue('amount', 'Invalid positive integer');
    if (amount > left) {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        message: `Refund amount (${reais(amount)}) is greater than unrefunded amount on charge (${reais(left)})`,
        param: 'amount',
      });
    }
    const type = charge.paymentMethod.type;
    const now = this.state.nowSeconds();
    const refund: StoredRefund = {
      id: newId('re'),
      accountId: pi.accountId,
      livemode: pi.livemode,
      paymentIntentId: pi.id,
      chargeId: charge.id,
      amount,
      created: now,
      status: type === 'card' ? 'succeeded' : type === 'boleto' ? 'requires_action' : 'pending',
      reason: request.reason,
      metadata: request.metadata,
      ...(type === 'boleto' ? { emailSentTo: charge.paymentMethod.billingDetails.email ?? '', actionExpiresAt: now + BOLETO_DETAILS_DAYS * 86_400 } : {}),
    };
    if (request.reverseTransfer) {
      if (!charge.transfer) throw stripeErrors.invalidValue('reverse_transfer', `This charge (${charge.id}) has no transfer to reverse.`);
      const reversed = reverseFor(charge.transfer, charge.amount, charge.amountRefunded ?? 0, (charge.amountRefunded ?? 0) + amount);
      if (reversed > 0) refund.transferReversal = { destination: charge.transfer.destination, amount: reversed };
    }
    this.state.addRefund(refund);
    // The platform pays the refund, less what the reversal takes back from the connected account.
    const reversal = refund.transferReversal?.amount ?? 0;
    if (refund.transferReversal) this.balance?.debit(refund.transferReversal.destination, reversal);
    this.balance?.debit(pi.accountId, amount - reversal);
    this.recount(charge);
    this.event(refund, 'refund.created', refundJson(refund), cause);
    this.event(refund, 'charge.refunded', chargeJson(pi, charge, false), cause);
    if (refund.status === 'pending') this.scheduleSettle(refund);
    this.logger.info({ account: refund.accountId, refund: refund.id, paymentIntent: pi.id, status: refund.status }, 'refund created');
    return refund;
  }

  private scheduleSettle(refund: StoredRefund): void {
    this.timers.after(this.settleAfterMs, () => {
      if (refund.status === 'pending') this.settle(refund, 'succeeded');
    });
  }

  /**
   * Moves an open refund (`pending` or `requires_action`) to its end: `succeeded` (the bank paid
   * it; for boleto, the payer gave bank details), `failed` (`failure_reason`), or `canceled`.
   * Answers false when the refund had already ended.
   */
  settle(refund: StoredRefund, outcome: 'succeeded' | 'failed' | 'canceled', failureReason = 'declined'): boolean {
    if (refund.status !== 'pending' && refund.status !== 'requires_action') return false;
    refund.status = outcome;
    if (outcome === 'failed') refund.failureReason = failureReason;
    const found = this.chargeOf(refund);
    if (outcome !== 'succeeded') {
      const reversal = refund.transferReversal;
      this.balance?.credit(refund.accountId, refund.amount - (reversal?.amount ?? 0));
      if (reversal) {
        this.balance?.credit(reversal.destination, reversal.amount);
        if (found?.charge.transfer) found.charge.transfer.reversed -= reversal.amount;
      }
    }
    if (found) this.recount(found.charge);
    const json = refundJson(refund);
    this.event(refund, 'refund.updated', json);
    this.event(refund, 'charge.refund.updated', json);
    if (outcome === 'failed') this.event(refund, 'refund.failed', json);
    this.logger.info({ account: refund.accountId, refund: refund.id, status: refund.status }, 'refund settled');
    return true;
  }

  close(): void {
    this.timers.clear();
  }
}
