import type { providers as providersContract } from '@orquestra/contracts';
import type { RpcClient } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { PaymentDoc } from '../db/payment.model';
import type { CallerScope } from '../db/payment-filters';
import type { PaymentStore } from '../db/payment.store';
import type { ChargeStateApplier } from './apply-charge-state';
import { chargeRef, chargeUnknown, chargeView, warnChargeGone } from './charge-state';
import { cycleChargeView, recurrenceAccountRef, type CycleChargeApplier } from './cycle-charge-state';
import type { PaymentRefunds } from './refund-payment';

/** Statuses after which the provider's charge can no longer change the payment's outcome. */
const ENDED = new Set(['canceled', 'failed']);

/**
 * POST /payments/{id}/sync, and the refund follow-ups' due work: re-reads the charge at the
 * provider, applies any change, and resumes refunds left without the provider's answer.
 */
export class PaymentSync {
  constructor(
    private readonly store: PaymentStore,
    private readonly providers: Pick<RpcClient<typeof providersContract.ProvidersServiceService>, 'getCharge' | 'getCycleCharge'>,
    private readonly charges: ChargeStateApplier,
    private readonly cycleCharges: Pick<CycleChargeApplier, 'apply'>,
    private readonly refunds: Pick<PaymentRefunds, 'resume'>,
    private readonly logger: Logger,
  ) {}

  async sync(id: string, scope: CallerScope, requestId: string): Promise<PaymentDoc> {
    const payment = await this.store.findForCaller(id, scope);
    // No charge at any provider yet (or ever): nothing to re-read.
    if (!payment.provider_payment_id) return payment;
    // A cycle charge is read through its recurrence; the approval's payment (no recurrence id) is a plain Pix charge.
    if (payment.subscription_id && payment.provider_recurrence_id) {
      await this.syncCycle(payment, requestId);
      return this.store.findForCaller(id, scope);
    }
    const charge = await this.providers.getCharge({ ref: chargeRef(payment) }, { requestId }).then(
      (answer) => answer.charge,
      (error: unknown) => {
        // Some providers forget a charge once it is removed (Woovi answers 404 after DELETE): for a
        // payment that already ended there is nothing left to learn, and the payment is the answer.
        if (chargeUnknown(error) && ENDED.has(payment.status)) return undefined;
        // A pending charge the provider no longer knows (removed, or forgotten by a sandbox) can
        // never be paid: the payment is canceled, as when the provider reports it canceled.
        if (chargeUnknown(error) && payment.status === 'pending') {
          warnChargeGone(this.logger, payment, 'sync');
          return 'gone' as const;
        }
        throw error;
      },
    );
    if (charge === 'gone') await this.charges.apply(payment, { status: 'canceled' });
    else if (charge) await this.charges.apply(payment, chargeView(charge));
    await this.refunds.resume(await this.store.findForCaller(id, scope), requestId);
    return this.store.findForCaller(id, scope);
  }

  /**
   * A Pix Automático cycle's charge is read through its recurrence (it is not a Pix charge the
   * provider's charge API knows), then refunds left without an answer are resumed as for any Pix.
   */
  private async syncCycle(payment: PaymentDoc, requestId: string): Promise<void> {
    const { charge } = await this.providers.getCycleCharge(
      { account: recurrenceAccountRef(payment), provider_recurrence_id: payment.provider_recurrence_id ?? '', provider_charge_id: payment.provider_payment_id },
      { requestId },
    );
    if (charge) await this.cycleCharges.apply(payment, cycleChargeView(charge));
    const fresh = await this.store.findById(payment._id);
    if (!fresh) return;
    await this.refunds.resume(fresh, requestId);
    await this.syncCycleRefunds(fresh, requestId);
  }

  /**
   * The refunds of a paid cycle are those of the Pix it received, which the recurrence API does not
   * report: while one the provider accepted awaits its outcome (its webhook may have been lost),
   * the Pix is read through the charge API (Efí answers a paid cobr's txid with its devoluções) and
   * its refunds applied as for any Pix. A provider that cannot read a cycle there leaves them to
   * its webhook, as before.
   */
  private async syncCycleRefunds(payment: PaymentDoc, requestId: string): Promise<void> {
    const awaiting = (payment.refunds ?? []).some((refund) => refund.status === 'pending' && refund.provider_refund_id);
    if (!awaiting) return;
    const charge = await this.providers.getCharge({ ref: chargeRef(payment) }, { requestId }).then(
      (answer) => answer.charge,
      (error: Error) => void this.logger.warn({ payment_id: payment._id, err: error.message }, 'cycle refunds not readable through the charge API; left to the webhook'),
    );
    const view = charge ? chargeView(charge) : undefined;
    // Only a paid Pix carries the cycle's refunds; any other answer is not about this payment's money.
    if (view?.status === 'paid') await this.charges.apply(payment, view);
  }
}
