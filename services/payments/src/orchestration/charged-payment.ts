import { chargeStatusFromProto, type providers as providersContract, type routing } from '@orquestra/contracts';
import type { PaymentDoc } from '../db/payment.model';
import { toNextActionDoc } from '../db/payment-next-action.mapper';
import { statusAtCreation, type CreatedStatus } from '../domain/charge-outcome';
import { computeFee } from '../domain/fees';

/** Default: 7 calendar days cover three business days after any due date, Carnival included. */
export const DEFAULT_BOLETO_CANCEL_AFTER_DAYS = 7;

export function boletoCancelAt(dueEnd: Date, days = DEFAULT_BOLETO_CANCEL_AFTER_DAYS): Date {
  return new Date(dueEnd.getTime() + days * 86_400_000);
}

export interface ChargedPaymentOptions {
  /** Our URL of a payment's Pix QR image (PaymentLinks.qrCodeUrl). */
  qrCodeUrl: (paymentId: string) => string;
  /** Days after an unpaid boleto's due date before it is canceled (late compensation). */
  boletoCancelAfterDays?: number;
}

/**
 * The fields a payment derives from the charge `candidate` created: its status (pending, paid at
 * once, or failed on a decline), provider ids, fee and net, next action, expiry and due work.
 * Pure: the caller stores the result.
 */
export function chargedPayment(draft: PaymentDoc, candidate: routing.Candidate, charge: providersContract.Charge, options: ChargedPaymentOptions): PaymentDoc & { status: CreatedStatus } {
  const status = statusAtCreation(chargeStatusFromProto(charge.status));
  const open = status === 'pending';
  const { fee, net } = computeFee(draft.amount, draft.method, candidate.fees, charge.provider_fee);
  const expiresAt = charge.expires_at ? new Date(charge.expires_at) : null;
  const action = charge.next_action;
  return {
    ...draft,
    status,
    paid_at: status === 'succeeded' ? (charge.paid_at ? new Date(charge.paid_at) : new Date()) : null,
    provider: candidate.provider,
    provider_account_id: candidate.account_id,
    provider_payment_id: charge.provider_payment_id,
    fee,
    net,
    expires_at: expiresAt,
    next_action: action && open ? toNextActionDoc(action, action.type === 'pix_qr' ? options.qrCodeUrl(draft._id) : undefined) : null,
    failure_code: status === 'failed' ? charge.failure_code || 'card_declined' : '',
    failure_reason: status === 'failed' ? (charge.failure_reason ?? '') : '',
    // Pix expiry is due work on the payment itself, at expires_at. A boleto paid on its due date
    // is compensated one to three business days later, so an unpaid one is canceled only
    // `boletoCancelAfterDays` after its due date, and the expiry asks the provider first (a paid
    // one becomes succeeded instead): docs/decisions.md "Boleto and card".
    due_at: !open || !expiresAt ? null : draft.method === 'boleto' ? boletoCancelAt(expiresAt, options.boletoCancelAfterDays) : expiresAt,
  };
}
