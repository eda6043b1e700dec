import type { providers as providersContract } from '@orquestra/contracts';
import { AppError, type RpcClient } from '@orquestra/platform';
import type { PaymentDoc } from '../db/payment.model';
import type { CallerScope } from '../db/payment-filters';
import type { PaymentStore } from '../db/payment.store';
import { chargeRef } from './charge-state';
import { recurrenceAccountRef } from './cycle-charge-state';

/**
 * Sandbox only (POST /payments/{id}/simulate): asks the provider's sandbox to pay the charge (a
 * cycle payment's: the debit of its cycle charge). The
 * provider then sends its webhook, and that webhook (never this call) makes the payment
 * succeeded. Waits up to `waitMs` for it, so callers usually see the final status in the answer.
 */
export class PaymentSimulation {
  constructor(
    private readonly store: PaymentStore,
    private readonly providers: Pick<RpcClient<typeof providersContract.ProvidersServiceService>, 'simulateChargePaid' | 'simulateCycleCharge'>,
  ) {}

  async simulate(id: string, scope: CallerScope, requestId: string, waitMs = 5_000): Promise<PaymentDoc> {
    if (scope.mode !== 'test') throw new AppError('live_mode_forbidden');
    const payment = await this.store.findForCaller(id, scope);
    if (payment.status !== 'pending') throw new AppError('payment_not_simulatable');
    if (payment.subscription_id && payment.provider_recurrence_id) {
      // A cycle's charge: the sandbox's debit on the payer's account succeeds, and its report
      // (internal.provider_cycle_charge.updated) makes the payment succeeded.
      if (!payment.provider_payment_id) throw new AppError('payment_not_simulatable');
      await this.providers.simulateCycleCharge(
        { account: recurrenceAccountRef(payment), provider_recurrence_id: payment.provider_recurrence_id ?? '', provider_charge_id: payment.provider_payment_id, outcome: 'paid' },
        { requestId },
      );
    } else {
      await this.providers.simulateChargePaid({ ref: chargeRef(payment) }, { requestId });
    }
    const deadline = Date.now() + waitMs;
    for (;;) {
      const current = await this.store.findForCaller(id, scope);
      if (current.status !== 'pending' || Date.now() > deadline) return current;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
