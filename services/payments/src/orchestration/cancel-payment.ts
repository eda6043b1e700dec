import type { providers as providersContract } from '@orquestra/contracts';
import { AppError, type RpcClient } from '@orquestra/platform';
import type { PaymentDoc } from '../db/payment.model';
import type { CallerScope } from '../db/payment-filters';
import type { PaymentStore } from '../db/payment.store';
import type { ChargeStateApplier } from './apply-charge-state';
import type { AwaitingMethodPayments } from './awaiting-method';
import { chargeRef, chargeView } from './charge-state';

/**
 * POST /payments/{id}/cancel. The provider's charge is removed first, outside persistence; the
 * payment is then canceled by one conditional write, so a race with a payment resolves to
 * exactly one outcome (a charge paid meanwhile makes the payment succeeded, and the cancel is refused).
 */
export class PaymentCancellation {
  constructor(
    private readonly store: PaymentStore,
    private readonly providers: Pick<RpcClient<typeof providersContract.ProvidersServiceService>, 'cancelCharge'>,
    private readonly charges: ChargeStateApplier,
    /** Payments still awaiting the buyer's method have no charge to remove. */
    private readonly awaitingMethod: Pick<AwaitingMethodPayments, 'cancel'>,
  ) {}

  async cancel(id: string, scope: CallerScope, requestId: string): Promise<PaymentDoc> {
    let payment = await this.store.findForCaller(id, scope);
    if (payment.status === 'requires_method') {
      // No provider charge yet: waits for a choice being charged, then cancels (or, if the choice
      // won, cancels the new pending charge below like any other).
      const canceled = await this.awaitingMethod.cancel(id);
      if (canceled) return canceled;
      payment = await this.store.findForCaller(id, scope);
    }
    if (payment.status === 'succeeded' || payment.status === 'partially_refunded' || payment.status === 'refunded') {
      throw new AppError('payment_already_paid');
    }
    if (payment.status !== 'pending') throw new AppError('payment_not_cancelable');
    // A cycle's charge is scheduled on the payer's recurrence, not a charge the provider's charge
    // API removes: the subscription decides about its cycles.
    if (payment.subscription_id) {
      throw new AppError('payment_not_cancelable', {
        message: 'Este pagamento é um ciclo de assinatura (Pix Automático) e não pode ser cancelado sozinho. Cancele a assinatura para parar as próximas cobranças.',
      });
    }
    const { charge } = await this.providers.cancelCharge({ ref: chargeRef(payment) }, { requestId });
    if (!charge) throw new AppError('provider_error');
    const view = chargeView(charge);
    if (view.status === 'paid') {
      // Paid just before the cancel reached the provider: the money is in, record it.
      await this.charges.apply(payment, view);
      throw new AppError('payment_already_paid');
    }
    const canceled = await this.store.transition(payment, 'canceled', 'payment.canceled', { due_at: null, next_action: null });
    if (canceled) return canceled;
    const now = await this.store.findForCaller(id, scope);
    if (now.status === 'canceled') return now;
    throw new AppError(now.status === 'succeeded' ? 'payment_already_paid' : 'payment_not_cancelable');
  }
}
