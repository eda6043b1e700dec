/**
 * Pagar.me card chargebacks. Sources: psp-apis.md §4 (charge statuses include `chargedback`);
 * docs.pagar.me "Chargeback - Novo status na Cobrança" (since 2022-09-12, PSP-model accounts only:
 * a charge that suffered a chargeback reads `status: "chargedback"` in `GET /charges` and
 * `GET /orders`, and the `charge.chargedback` webhook announces it, "so that you can contest it").
 *
 * What the v5 API does not expose (per those sources): a chargeback resource of its own (id, reason,
 * amount, deadline), the contest, or its outcome. Hence:
 * - the dispute is named by the charge id (`ch_…`), one chargeback per charge;
 * - it is reported only when the charge read back says `chargedback`, as `open` (the chargeback was
 *   received; the merchant may contest it in Pagar.me's dashboard); the webhook body is only a hint;
 * - `amount` is what was paid (`paid_amount`, else the charge's `amount`), no reason, no deadline;
 * - the decision (won or lost) is not reported: Pagar.me's API names no outcome, so none is guessed;
 * - no evidence through the API: `acceptsEvidence: false`, no `submitDisputeEvidence`.
 */
import type { ProviderDispute } from '../provider-disputes';
import type { PagarmeCharge } from './pagarme.transformers';

/** The webhook event that announces a chargeback (ticked in the dashboard with the others). */
export const CHARGEBACK_EVENTS = ['charge.chargedback'] as const;

/** The dispute a charge read back shows, or undefined when the charge is not charged back. */
export function disputeOfCharge(charge: Pick<PagarmeCharge, 'id' | 'status' | 'amount' | 'paid_amount'>): ProviderDispute | undefined {
  if (charge.status !== 'chargedback') return undefined;
  const amount = typeof charge.paid_amount === 'number' && charge.paid_amount > 0 ? charge.paid_amount : charge.amount;
  return {
    providerDisputeId: charge.id,
    kind: 'chargeback',
    status: 'open',
    providerStatus: charge.status,
    providerPaymentId: charge.id,
    ...(Number.isSafeInteger(amount) && amount > 0 ? { amount } : {}),
    acceptsEvidence: false,
  };
}
