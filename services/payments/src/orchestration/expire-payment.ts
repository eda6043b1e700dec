import type { providers as providersContract } from '@orquestra/contracts';
import type { RpcClient } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { PaymentDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import type { ChargeStateApplier } from './apply-charge-state';
import type { AwaitingMethodPayments } from './awaiting-method';
import { chargeRef, chargeUnknown, chargeView, warnChargeGone } from './charge-state';

/** When an expiry finds the charge still open at the provider, the next try. */
const EXPIRY_RETRY_MS = 5 * 60_000;

/**
 * Due work (jobs/payment-expiry.worker.ts): a pending payment whose time ran out (a Pix past
 * `expires_at`, a boleto days past its due date), or a payment whose buyer did not choose a
 * method in time. The charge is removed at the provider first (if it was paid meanwhile, the
 * payment succeeds instead), then the payment is canceled.
 */
export class PaymentExpiry {
  constructor(
    private readonly store: PaymentStore,
    private readonly providers: Pick<RpcClient<typeof providersContract.ProvidersServiceService>, 'cancelCharge'>,
    private readonly charges: ChargeStateApplier,
    private readonly awaitingMethod: Pick<AwaitingMethodPayments, 'expire'>,
    private readonly logger: Logger,
  ) {}

  async expire(payment: PaymentDoc): Promise<void> {
    if (payment.status === 'requires_method') {
      await this.awaitingMethod.expire(payment);
      return;
    }
    // The worker only picks pending payments; anything else changed since and has nothing to expire.
    if (payment.status !== 'pending') return;
    const charge = await this.providers.cancelCharge({ ref: chargeRef(payment) }, {}).then(
      (answer) => answer.charge,
      (error: unknown) => {
        // Unknown at the provider: nothing there can be paid, so the charge is gone. Retrying
        // would fail the same way after every lease, forever.
        if (!chargeUnknown(error)) throw error;
        warnChargeGone(this.logger, payment, 'expiry');
        return undefined;
      },
    );
    const view = charge ? chargeView(charge) : { status: 'canceled' as const };
    if (view.status === 'paid') {
      await this.charges.apply(payment, view);
      return;
    }
    // Canceled only when the provider says the charge is gone: one it would not remove (a boleto
    // being compensated, a card in analysis) is tried again after the lease, never canceled here
    // while it could still be paid.
    if (view.status === 'pending') {
      this.logger.warn({ payment_id: payment._id, provider_payment_id: payment.provider_payment_id }, 'charge still open at the provider after the cancel; expiry tried again in 5 minutes');
      await this.store.reschedule(payment, new Date(Date.now() + EXPIRY_RETRY_MS));
      return;
    }
    const boleto = payment.method === 'boleto';
    const canceled = await this.store.transition(payment, 'canceled', 'payment.canceled', {
      due_at: null,
      next_action: null,
      failure_code: 'expired',
      failure_reason: boleto ? 'O boleto venceu e não foi pago.' : 'O prazo para pagamento do Pix terminou.',
    });
    if (canceled) this.logger.info({ payment_id: payment._id, method: payment.method }, boleto ? 'unpaid boleto past due was canceled' : 'pending Pix expired and was canceled');
  }
}
