import { modeName, type payments, type providers as providersContract } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import { toPaymentCustomerDoc } from '../db/payment-customer.mapper';
import type { PaymentDoc } from '../db/payment.model';
import { computeFee } from '../domain/fees';

const PAYMENT_ID = /^pay_[0-9A-Za-z]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const missing = (param: string) => new AppError('parameter_missing', { param, message: `O campo ${param} é obrigatório.` });

/**
 * Checks a CreateCyclePaymentRequest (internal: the subscriptions service sends it, so a refusal
 * here is a bug there, answered with the field named like any other).
 */
export function assertCycleRequest(request: payments.CreateCyclePaymentRequest): void {
  const required: Array<[string, string]> = [
    ['merchant_id', request.merchant_id],
    ['payment_id', request.payment_id],
    ['subscription_id', request.subscription_id],
    ['provider_account_id', request.provider_account_id],
    ['due_date', request.due_date],
  ];
  for (const [param, value] of required) if (!value) throw missing(param);
  // Without a recurrence id only an adopted charge: the approval's immediate Pix charge (cycle 1),
  // a plain charge of the account whose reports and reads are those of any Pix.
  if (!request.provider_recurrence_id && request.provider_charge_id === undefined) throw missing('provider_recurrence_id');
  if (!PAYMENT_ID.test(request.payment_id)) {
    throw new AppError('parameter_invalid', { param: 'payment_id', message: 'O payment_id deve ser um id de pagamento (pay_…).' });
  }
  if (!Number.isInteger(request.cycle) || request.cycle < 1) {
    throw new AppError('parameter_invalid', { param: 'cycle', message: 'O ciclo deve ser um número inteiro a partir de 1.' });
  }
  if (!Number.isInteger(request.amount) || request.amount <= 0) {
    throw new AppError('parameter_invalid', { param: 'amount', message: 'O valor deve ser um número inteiro positivo de centavos.' });
  }
  if (!DATE.test(request.due_date) || Number.isNaN(Date.parse(`${request.due_date}T00:00:00Z`))) {
    throw new AppError('parameter_invalid', { param: 'due_date', message: 'A data de vencimento deve estar no formato AAAA-MM-DD.' });
  }
  if (!request.customer?.name) throw missing('customer.name');
}

/**
 * The cycle payment as stored before its charge is sent: a Pix the payer's bank debits on the
 * due date (next action `none`, no QR), with no expiry (nothing for the expiry worker to cancel:
 * the bank retries after a failed debit), linked to its subscription. `claimUntil` holds the
 * send for the inserting caller; an adopted charge (`provider_charge_id`) is recorded as is.
 */
export function cyclePaymentDraft(
  request: payments.CreateCyclePaymentRequest,
  account: Pick<providersContract.ProviderAccount, 'provider' | 'fees'>,
  now: Date,
  claimUntil: Date | null,
): PaymentDoc {
  const { fee, net } = computeFee(request.amount, 'pix', account.fees);
  return {
    _id: request.payment_id,
    merchant_id: request.merchant_id,
    mode: modeName(request.mode),
    source_key_id: request.source_key_id,
    method: 'pix',
    status: 'pending',
    amount: request.amount,
    amount_refunded: 0,
    currency: 'BRL',
    fee,
    net,
    description: request.description,
    customer: toPaymentCustomerDoc(request.customer),
    metadata: request.metadata,
    tracking: request.tracking,
    provider: account.provider,
    provider_account_id: request.provider_account_id,
    provider_payment_id: request.provider_charge_id ?? '',
    next_action: { type: 'none', qr_code: '', qr_code_base64: '', qr_code_url: '', digitable_line: '', url: '' },
    failure_code: '',
    failure_reason: '',
    end_to_end_id: '',
    expires_at: null,
    paid_at: null,
    attempts: [],
    refunds: [],
    events: [],
    idempotency_key: '',
    subscription_id: request.subscription_id,
    cycle: request.cycle,
    due_date: request.due_date,
    provider_recurrence_id: request.provider_recurrence_id,
    cycle_charge_until: request.provider_charge_id ? null : claimUntil,
    created_at: now,
    updated_at: now,
    outbox: [],
    outbox_since: null,
    due_at: null,
  };
}

/** Whether a stored payment is the one this request asks for (a payment id is never reused for another cycle). */
export function isSameCycle(stored: PaymentDoc, request: payments.CreateCyclePaymentRequest): boolean {
  return (
    stored.merchant_id === request.merchant_id &&
    stored.mode === modeName(request.mode) &&
    stored.subscription_id === request.subscription_id &&
    stored.cycle === request.cycle
  );
}
