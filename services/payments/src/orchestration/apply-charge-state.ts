import type { Logger } from 'pino';
import type { PaymentDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import type { ChargeView } from './charge-state';
import type { PaymentRefunds } from './refund-payment';

/**
 * Applies what a provider says about a payment's charge (webhook, sync, cancel or expiry answer)
 * as at most one conditional transition, so a race between those resolves to exactly one outcome.
 * Idempotent: a state already applied changes nothing.
 */
export class ChargeStateApplier {
  constructor(
    private readonly store: PaymentStore,
    private readonly refunds: Pick<PaymentRefunds, 'applyReports'>,
    private readonly logger: Logger,
  ) {}

  /** Whether anything changed. */
  async apply(payment: PaymentDoc, charge: ChargeView): Promise<boolean> {
    if (charge.status === 'paid' && (payment.status === 'pending' || payment.status === 'processing')) {
      const updated = await this.store.transition(payment, 'succeeded', 'payment.succeeded', {
        end_to_end_id: charge.end_to_end_id ?? '',
        paid_at: charge.paid_at ? new Date(charge.paid_at) : new Date(),
        due_at: null,
      });
      // Refunds reported with the payment (a sync that missed both) apply on the paid payment.
      const refunded = await this.refunds.applyReports(payment._id, charge.refunds ?? []);
      return updated !== null || refunded;
    }
    if (charge.status === 'paid' && (payment.status === 'failed' || payment.status === 'canceled')) {
      // Money arrived for a payment that had ended here (a late compensation, a charge the
      // provider restored): never silent. Someone must refund or reconcile it.
      this.logger.error(
        { payment_id: payment._id, status: payment.status, provider: payment.provider, provider_payment_id: payment.provider_payment_id },
        'provider reports a payment paid that ended here: reconcile it',
      );
      return false;
    }
    if (charge.status === 'paid') return this.refunds.applyReports(payment._id, charge.refunds ?? []);
    if (charge.status === 'canceled' && payment.status === 'pending') {
      const updated = await this.store.transition(payment, 'canceled', 'payment.canceled', { due_at: null, next_action: null });
      return updated !== null;
    }
    // A card refused after creation (on the provider's hosted checkout): the decline is final.
    // Only for card: other methods' provider-side failures keep their own handling (expiry).
    if (charge.status === 'failed' && payment.method === 'card' && (payment.status === 'pending' || payment.status === 'processing')) {
      const updated = await this.store.transition(payment, 'failed', 'payment.failed', {
        due_at: null,
        next_action: null,
        failure_code: charge.failure_code || 'card_declined',
        failure_reason: charge.failure_reason ?? '',
      });
      return updated !== null;
    }
    return false;
  }
}
