import { modeFromName, providers as providersContract, type ProviderChargeUpdated } from '@orquestra/contracts';
import { AppError, RpcError, type RpcClient } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { PaymentDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import type { RefundReport } from '../domain/refunds';
import type { AwaitingMethodPayments } from './awaiting-method';
import { inPaymentTrace } from './payment-trace';
import { reportFromEvent, reportFromProto, type PaymentRefunds } from './refund-payment';

const { ChargeStatus } = providersContract;

/** Statuses after which the provider's charge can no longer change the payment's outcome. */
const ENDED = new Set(['canceled', 'failed']);
/** When an expiry finds the charge still open at the provider, the next try. */
const EXPIRY_RETRY_MS = 5 * 60_000;

export interface CallerScope {
  merchantId: string;
  mode: 'test' | 'live';
  restrictedKeyId?: string;
}

type ChargeView = Pick<ProviderChargeUpdated, 'status' | 'end_to_end_id' | 'paid_at' | 'failure_code' | 'failure_reason'> & { refunds?: RefundReport[] };

function chargeView(charge: providersContract.Charge): ChargeView {
  const status =
    charge.status === ChargeStatus.CHARGE_STATUS_PAID
      ? 'paid'
      : charge.status === ChargeStatus.CHARGE_STATUS_CANCELED
        ? 'canceled'
        : charge.status === ChargeStatus.CHARGE_STATUS_FAILED
          ? 'failed'
          : 'pending';
  return {
    status,
    ...(charge.end_to_end_id ? { end_to_end_id: charge.end_to_end_id } : {}),
    ...(charge.paid_at ? { paid_at: charge.paid_at } : {}),
    ...(charge.failure_code ? { failure_code: charge.failure_code, failure_reason: charge.failure_reason } : {}),
    refunds: charge.refunds.map(reportFromProto),
  };
}

/**
 * What happens to an existing payment: cancel, simulate (sandbox), provider-reported changes and
 * expiry. Provider calls happen first, outside persistence; the state change is then one
 * conditional write, so a race with a webhook resolves to exactly one outcome.
 */
export class PaymentActions {
  /** Cancel and expiry of payments awaiting the buyer's method (set by main.ts; absent in tests that do not need it). */
  awaitingMethod: AwaitingMethodPayments | undefined;

  constructor(
    private readonly store: PaymentStore,
    private readonly providers: RpcClient<typeof providersContract.ProvidersServiceService>,
    private readonly logger: Logger,
    private readonly refunds: PaymentRefunds,
  ) {}

  private ref(payment: PaymentDoc): providersContract.ChargeRef {
    return {
      merchant_id: payment.merchant_id,
      mode: modeFromName(payment.mode),
      account_id: payment.provider_account_id,
      provider_payment_id: payment.provider_payment_id,
    };
  }

  async cancel(id: string, scope: CallerScope, requestId: string): Promise<PaymentDoc> {
    let payment = await this.store.findForCaller(id, scope);
    if (payment.status === 'requires_method' && this.awaitingMethod) {
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
    const { charge } = await this.providers.cancelCharge({ ref: this.ref(payment) }, { requestId });
    if (!charge) throw new AppError('provider_error');
    const view = chargeView(charge);
    if (view.status === 'paid') {
      // Paid just before the cancel reached the provider: the money is in, record it.
      await this.applyChargeState(payment, view);
      throw new AppError('payment_already_paid');
    }
    const canceled = await this.store.transition(payment, 'canceled', 'payment.canceled', { due_at: null, next_action: null });
    if (canceled) return canceled;
    const now = await this.store.findForCaller(id, scope);
    if (now.status === 'canceled') return now;
    throw new AppError(now.status === 'succeeded' ? 'payment_already_paid' : 'payment_not_cancelable');
  }

  /**
   * Sandbox only: asks the provider's sandbox to pay the charge. The provider then sends its
   * webhook, and that webhook (never this call) makes the payment succeeded. Waits up to
   * `waitMs` for it, so callers usually see the final status in the answer.
   */
  async simulate(id: string, scope: CallerScope, requestId: string, waitMs = 5_000): Promise<PaymentDoc> {
    if (scope.mode !== 'test') throw new AppError('live_mode_forbidden');
    const payment = await this.store.findForCaller(id, scope);
    if (payment.status !== 'pending') throw new AppError('payment_not_simulatable');
    await this.providers.simulateChargePaid({ ref: this.ref(payment) }, { requestId });
    const deadline = Date.now() + waitMs;
    for (;;) {
      const current = await this.store.findForCaller(id, scope);
      if (current.status !== 'pending' || Date.now() > deadline) return current;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Re-reads the charge at the provider and applies any change (POST /payments/{id}/sync). */
  async sync(id: string, scope: CallerScope, requestId: string): Promise<PaymentDoc> {
    const payment = await this.store.findForCaller(id, scope);
    // No charge at any provider yet (or ever): nothing to re-read.
    if (!payment.provider_payment_id) return payment;
    const charge = await this.providers.getCharge({ ref: this.ref(payment) }, { requestId }).then(
      (answer) => answer.charge,
      (error: unknown) => {
        // Some providers forget a charge once it is removed (Woovi answers 404 after DELETE): for a
        // payment that already ended there is nothing left to learn, and the payment is the answer.
        if (chargeUnknown(error) && ENDED.has(payment.status)) return undefined;
        // A pending charge the provider no longer knows (removed, or forgotten by a sandbox) can
        // never be paid: the payment is canceled, as when the provider reports it canceled.
        if (chargeUnknown(error) && payment.status === 'pending') {
          this.warnChargeGone(payment, 'sync');
          return 'gone' as const;
        }
        throw error;
      },
    );
    if (charge === 'gone') await this.applyChargeState(payment, { status: 'canceled' });
    else if (charge) await this.applyChargeState(payment, chargeView(charge));
    await this.refunds.resume(await this.store.findForCaller(id, scope), requestId);
    return this.store.findForCaller(id, scope);
  }

  /** Applies a change reported by the provider (webhook or sync). Idempotent. */
  async applyProviderUpdate(update: ProviderChargeUpdated): Promise<'applied' | 'unchanged' | 'unknown_payment'> {
    const payment = await this.store.model
      .findOne({ provider_account_id: update.account_id, provider_payment_id: update.provider_payment_id })
      .lean<PaymentDoc>();
    if (!payment) return 'unknown_payment';
    const view: ChargeView = { ...update, refunds: (update.refunds ?? []).map(reportFromEvent) };
    // The provider's report continues the payment's own trace (linked to the webhook's).
    const applied = await inPaymentTrace(payment, 'payment.apply_provider_update', () => this.applyChargeState(payment, view));
    return applied ? 'applied' : 'unchanged';
  }

  private async applyChargeState(payment: PaymentDoc, charge: ChargeView): Promise<boolean> {
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

  private warnChargeGone(payment: PaymentDoc, during: 'sync' | 'expiry'): void {
    this.logger.warn(
      { payment_id: payment._id, provider: payment.provider, provider_payment_id: payment.provider_payment_id, during },
      'charge unknown at the provider: treated as gone',
    );
  }

  /**
   * Due work: a pending Pix whose `expires_at` passed. The charge is removed at the provider first
   * (if it was paid meanwhile, the payment succeeds instead), then the payment is canceled.
   */
  async expire(payment: PaymentDoc): Promise<void> {
    if (payment.status === 'requires_method') {
      await this.awaitingMethod?.expire(payment);
      return;
    }
    // The worker only picks pending payments; anything else changed since and has nothing to expire.
    if (payment.status !== 'pending') return;
    const charge = await this.providers.cancelCharge({ ref: this.ref(payment) }, {}).then(
      (answer) => answer.charge,
      (error: unknown) => {
        // Unknown at the provider: nothing there can be paid, so the charge is gone. Retrying
        // would fail the same way after every lease, forever.
        if (!chargeUnknown(error)) throw error;
        this.warnChargeGone(payment, 'expiry');
        return undefined;
      },
    );
    const view = charge ? chargeView(charge) : { status: 'canceled' as const };
    if (view.status === 'paid') {
      await this.applyChargeState(payment, view);
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

/** The provider answered that the charge does not exist (not that the account is unknown). */
function chargeUnknown(error: unknown): boolean {
  return error instanceof RpcError && error.code === 'not_found' && error.param === 'provider_payment_id';
}
