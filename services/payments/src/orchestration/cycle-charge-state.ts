import { modeFromName, type providers as providersContract, type ProviderCycleChargeUpdated } from '@orquestra/contracts';
import type { PaymentDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import { CYCLE_DEBIT_FAILED, cycleChargeEffect, isCycleChargeStatus, type CycleChargeStatus } from '../domain/cycle-charges';
import type { ChargeStateApplier } from './apply-charge-state';
import { inPaymentTrace } from './payment-trace';

/** What a provider says about a cycle payment's charge, from a read (sync, create) or a report. */
export interface CycleChargeView {
  status: CycleChargeStatus;
  end_to_end_id?: string;
}

export function cycleChargeView(charge: providersContract.CycleCharge): CycleChargeView {
  if (!isCycleChargeStatus(charge.status)) throw new Error(`unknown cycle charge status ${charge.status} of ${charge.provider_charge_id}`);
  return { status: charge.status, ...(charge.end_to_end_id ? { end_to_end_id: charge.end_to_end_id } : {}) };
}

/** The account a cycle payment's charge lives at (providers' Pix Automático calls). */
export function recurrenceAccountRef(payment: Pick<PaymentDoc, 'merchant_id' | 'mode' | 'provider_account_id'>): providersContract.RecurrenceAccountRef {
  return { merchant_id: payment.merchant_id, mode: modeFromName(payment.mode), account_id: payment.provider_account_id };
}

/**
 * Applies what a provider says about a cycle's charge as at most one conditional transition. A
 * paid or canceled charge moves the payment as any Pix charge does (ChargeStateApplier: the
 * end-to-end id, a paid payment that had ended here is reported, not reopened); a failed debit
 * fails it; a charge still scheduled or being retried leaves it pending. Idempotent.
 */
export class CycleChargeApplier {
  constructor(
    private readonly store: PaymentStore,
    private readonly charges: Pick<ChargeStateApplier, 'apply'>,
  ) {}

  /** Whether anything changed. */
  async apply(payment: PaymentDoc, charge: CycleChargeView): Promise<boolean> {
    switch (cycleChargeEffect(charge.status)) {
      case 'succeeded':
        return this.charges.apply(payment, { status: 'paid', ...(charge.end_to_end_id ? { end_to_end_id: charge.end_to_end_id } : {}) });
      case 'canceled':
        return this.charges.apply(payment, { status: 'canceled' });
      case 'failed': {
        if (payment.status !== 'pending' && payment.status !== 'processing') return false;
        const failed = await this.store.transition(payment, 'failed', 'payment.failed', {
          due_at: null,
          failure_code: CYCLE_DEBIT_FAILED.code,
          failure_reason: CYCLE_DEBIT_FAILED.reason,
        });
        return failed !== null;
      }
      case 'none':
        return false;
    }
  }
}

/** Cycle charge changes a provider reports (webhooks, polls), relayed by the providers service. */
export class CycleChargeUpdates {
  constructor(
    private readonly store: PaymentStore,
    private readonly cycleCharges: CycleChargeApplier,
  ) {}

  /**
   * Applies one report. Idempotent. `unknown_payment`: no payment records that charge (yet) and
   * the report would move it (a charge the provider made itself is adopted by a payment created a
   * moment later); a charge still scheduled or retrying changes nothing, known or not.
   */
  async apply(update: ProviderCycleChargeUpdated): Promise<'applied' | 'unchanged' | 'unknown_payment'> {
    const payment = await this.store.findByCharge(update.account_id, update.provider_charge_id);
    if (!payment) return cycleChargeEffect(update.status) === 'none' ? 'unchanged' : 'unknown_payment';
    const view: CycleChargeView = { status: update.status, ...(update.end_to_end_id ? { end_to_end_id: update.end_to_end_id } : {}) };
    const applied = await inPaymentTrace(payment, 'payment.apply_cycle_charge_update', () => this.cycleCharges.apply(payment, view));
    return applied ? 'applied' : 'unchanged';
  }
}
