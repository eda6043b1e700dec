import type { ProviderChargeUpdated } from '@orquestra/contracts';
import type { PaymentStore } from '../db/payment.store';
import type { ChargeStateApplier } from './apply-charge-state';
import type { ChargeView } from './charge-state';
import { inPaymentTrace } from './payment-trace';
import { reportFromEvent } from './refund-reports';

/** Changes a provider reports on its own (webhooks, polled reports), relayed by the providers service. */
export class ProviderChargeUpdates {
  constructor(
    private readonly store: PaymentStore,
    private readonly charges: ChargeStateApplier,
  ) {}

  /** Applies one report. Idempotent. `unknown_payment`: no payment records that charge (yet). */
  async apply(update: ProviderChargeUpdated): Promise<'applied' | 'unchanged' | 'unknown_payment'> {
    const payment = await this.store.findByCharge(update.account_id, update.provider_payment_id);
    if (!payment) return 'unknown_payment';
    const view: ChargeView = { ...update, refunds: (update.refunds ?? []).map(reportFromEvent) };
    // The provider's report continues the payment's own trace (linked to the webhook's).
    const applied = await inPaymentTrace(payment, 'payment.apply_provider_update', () => this.charges.apply(payment, view));
    return applied ? 'applied' : 'unchanged';
  }
}
