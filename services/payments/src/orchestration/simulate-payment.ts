import type { providers as providersContract } from '@orquestra/contracts';
import { AppError, type RpcClient } from '@orquestra/platform';
import type { PaymentDoc } from '../db/payment.model';
import type { CallerScope } from '../db/payment-filters';
import type { PaymentStore } from '../db/payment.store';
import { chargeRef } from './charge-state';

/**
 * Sandbox only (POST /payments/{id}/simulate): asks the provider's sandbox to pay the charge. The
 * provider then sends its webhook, and that webhook (never this call) makes the payment
 * succeeded. Waits up to `waitMs` for it, so callers usually see the final status in the answer.
 */
export class PaymentSimulation {
  constructor(
    private readonly store: PaymentStore,
    private readonly providers: Pick<RpcClient<typeof providersContract.ProvidersServiceService>, 'simulateChargePaid'>,
  ) {}

  async simulate(id: string, scope: CallerScope, requestId: string, waitMs = 5_000): Promise<PaymentDoc> {
    if (scope.mode !== 'test') throw new AppError('live_mode_forbidden');
    const payment = await this.store.findForCaller(id, scope);
    if (payment.status !== 'pending') throw new AppError('payment_not_simulatable');
    await this.providers.simulateChargePaid({ ref: chargeRef(payment) }, { requestId });
    const deadline = Date.now() + waitMs;
    for (;;) {
      const current = await this.store.findForCaller(id, scope);
      if (current.status !== 'pending' || Date.now() > deadline) return current;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
