/**
 * What the emulator stores for a PaymentIntent (and its PaymentMethod, Charge and balance
 * transaction), and how the API prints them: the PaymentIntent, Charge and BalanceTransaction
 * objects of API version 2025-03-31.basil (`latest_charge`, no `charges` list), with `expand[]`
 * support for `latest_charge`, `latest_charge.balance_transaction` and `payment_method`.
 */
import type { BoletoBilling } from './boleto-params';
import { stripeErrors } from './stripe-errors';
import { transferDataJson, type StoredTransfer, type TransferData } from './destination-charges';

export type PaymentIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export interface StoredPaymentMethod {
  id: string;
  type: 'pix' | 'card' | 'boleto';
  created: number;
  billingDetails: { name: string | null; email: string | null; address?: BoletoBilling['address'] };
  /** Boleto: the payer's CPF/CNPJ. */
  taxId?: string;
  card?: { brand: string; last4: string; country: string; funding: string; exp_month: number; exp_year: number };
}

export interface StoredBalanceTransaction {
  id: string;
  amount: number;
  fee: number;
  created: number;
  availableOn: number;
}

export interface StoredCharge {
  id: string;
  amount: number;
  created: number;
  status: 'succeeded' | 'failed';
  failure?: { code: string; declineCode?: string; message: string };
  paymentMethod: StoredPaymentMethod;
  /** Pix: the payment's EndToEndId, which Stripe reports as `bank_transaction_id`. */
  bankTransactionId?: string;
  /** Cents returned or on their way back (refunds not failed or canceled), as Stripe counts `amount_refunded`. */
  amountRefunded?: number;
  balanceTransaction?: StoredBalanceTransaction;
  /** A destination charge's transfer to the connected account (destination-charges.ts). */
  transfer?: StoredTransfer;
}

export interface PixDisplayQrCode {
  data: string;
  expires_at: number;
  hosted_instructions_url: string;
  image_url_png: string;
  image_url_svg: string;
}

/** `next_action.boleto_display_details` while a boleto awaits payment. */
export interface BoletoDisplayDetails {
  number: string;
  hosted_voucher_url: string;
  pdf: string;
  expires_at: number;
}

export interface LastPaymentError {
  type: 'card_error' | 'invalid_request_error';
  code: string;
  decline_code?: string;
  message: string;
  charge?: string;
}

export interface StoredPaymentIntent {
  id: string;
  accountId: string;
  livemode: boolean;
  clientSecret: string;
  amount: number;
  currency: string;
  created: number;
  description: string | null;
  metadata: Record<string, string>;
  paymentMethodTypes: string[];
  /** `payment_method_options[pix][expires_after_seconds]` (default 86 400). */
  pixExpiresAfterSeconds: number;
  status: PaymentIntentStatus;
  paymentMethod: StoredPaymentMethod | null;
  /** The Pix code on show while `requires_action`. */
  pixQrCode: PixDisplayQrCode | null;
  /** Opaque token of the Pix payload URL, QR images and instructions page (kept after payment). */
  pixToken?: string;
  /** `payment_method_options[boleto][expires_after_days]` (default 3). */
  boletoExpiresAfterDays: number;
  /** The boleto on show while `requires_action`, and the token of its voucher pages. */
  boletoDetails: BoletoDisplayDetails | null;
  boletoToken?: string;
  /** Card installments plan count, when one was asked for. */
  installments: number | null;
  lastPaymentError: LastPaymentError | null;
  latestCharge: StoredCharge | null;
  amountReceived: number;
  canceledAt: number | null;
  cancellationReason: string | null;
  /** A destination charge (destination-charges.ts); absent on intents stored before Connect. */
  transferData?: TransferData | null;
  applicationFeeAmount?: number | null;
}

const EXPANDABLE = new Set(['latest_charge', 'latest_charge.balance_transaction', 'payment_method']);

export function checkExpand(expand: readonly string[]): void {
  for (const path of expand) {
    if (!EXPANDABLE.has(path)) throw stripeErrors.invalidValue('expand', `This property cannot be expanded (${path}).`);
  }
}

export function paymentMethodJson(pm: StoredPaymentMethod, livemode: boolean) {
  return {
    id: pm.id,
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: pm.billingDetails.address ?? null, email: pm.billingDetails.email, name: pm.billingDetails.name, phone: null },
    created: pm.created,
    customer: null,
    livemode,
    metadata: {},
    type: pm.type,
    ...(pm.type === 'pix' ? { pix: {} } : pm.type === 'boleto' ? { boleto: { tax_id: pm.taxId } } : { card: { ...pm.card, checks: { cvc_check: 'pass' }, wallet: null } }),
  };
}

export function balanceTransactionJson(txn: StoredBalanceTransaction, chargeId: string) {
  return {
    id: txn.id,
    object: 'balance_transaction',
    amount: txn.amount,
    available_on: txn.availableOn,
    created: txn.created,
    currency: 'brl',
    description: null,
    exchange_rate: null,
    fee: txn.fee,
    fee_details: [{ amount: txn.fee, application: null, currency: 'brl', description: 'Stripe processing fees', type: 'stripe_fee' }],
    net: txn.amount - txn.fee,
    reporting_category: 'charge',
    source: chargeId,
    status: 'pending',
    type: 'charge',
  };
}

export function chargeJson(pi: StoredPaymentIntent, charge: StoredCharge, expandBalanceTransaction: boolean) {
  const succeeded = charge.status === 'succeeded';
  const txn = charge.balanceTransaction;
  return {
    id: charge.id,
    object: 'charge',
    amount: charge.amount,
    amount_captured: succeeded ? charge.amount : 0,
    amount_refunded: charge.amountRefunded ?? 0,
    balance_transaction: txn ? (expandBalanceTransaction ? balanceTransactionJson(txn, charge.id) : txn.id) : null,
    billing_details: { address: null, email: charge.paymentMethod.billingDetails.email, name: charge.paymentMethod.billingDetails.name, phone: null },
    captured: succeeded,
    created: charge.created,
    currency: pi.currency,
    description: pi.description,
    failure_code: charge.failure?.code ?? null,
    failure_message: charge.failure?.message ?? null,
    livemode: pi.livemode,
    metadata: { ...pi.metadata },
    outcome: succeeded
      ? { network_status: 'approved_by_network', reason: null, risk_level: 'normal', seller_message: 'Payment complete.', type: 'authorized' }
      : { network_status: 'declined_by_network', reason: charge.failure?.declineCode ?? 'generic_decline', risk_level: 'normal', seller_message: 'The bank did not return any further details with this decline.', type: 'issuer_declined' },
    paid: succeeded,
    payment_intent: pi.id,
    payment_method: charge.paymentMethod.id,
    payment_method_details:
      charge.paymentMethod.type === 'pix'
        ? { type: 'pix', pix: { bank_transaction_id: charge.bankTransactionId ?? null } }
        : charge.paymentMethod.type === 'boleto'
          ? { type: 'boleto', boleto: { tax_id: charge.paymentMethod.taxId } }
          : { type: 'card', card: { brand: charge.paymentMethod.card?.brand, last4: charge.paymentMethod.card?.last4, country: charge.paymentMethod.card?.country, funding: charge.paymentMethod.card?.funding, network: charge.paymentMethod.card?.brand } },
    refunded: (charge.amountRefunded ?? 0) >= charge.amount,
    status: charge.status,
    transfer: charge.transfer?.id ?? null,
    transfer_data: transferDataJson(pi.transferData),
  };
}

function nextActionJson(pi: StoredPaymentIntent) {
  if (pi.status !== 'requires_action') return null;
  if (pi.boletoDetails) return { type: 'boleto_display_details', boleto_display_details: { ...pi.boletoDetails } };
  if (!pi.pixQrCode) return null;
  return { type: 'pix_display_qr_code', pix_display_qr_code: { ...pi.pixQrCode } };
}

function lastPaymentErrorJson(pi: StoredPaymentIntent) {
  const error = pi.lastPaymentError;
  if (!error) return null;
  return {
    ...(error.charge ? { charge: error.charge } : {}),
    code: error.code,
    ...(error.decline_code ? { decline_code: error.decline_code } : {}),
    doc_url: `https://stripe.com/docs/error-codes/${error.code.replace(/_/g, '-')}`,
    message: error.message,
    payment_method: pi.paymentMethod ? paymentMethodJson(pi.paymentMethod, pi.livemode) : null,
    type: error.type,
  };
}

export function paymentIntentJson(pi: StoredPaymentIntent, expand: readonly string[] = []) {
  const charge = pi.latestCharge;
  const expandCharge = expand.includes('latest_charge') || expand.includes('latest_charge.balance_transaction');
  const pixOptions = pi.paymentMethodTypes.includes('pix')
    ? { pix: { expires_after_seconds: pi.pixExpiresAfterSeconds, ...(pi.pixQrCode ? { expires_at: pi.pixQrCode.expires_at } : {}) } }
    : {};
  const cardOptions = pi.paymentMethodTypes.includes('card')
    ? {
        card: {
          installments: pi.installments ? { enabled: true, plan: { count: pi.installments, interval: 'month', type: 'fixed_count' } } : null,
          mandate_options: null,
          network: null,
          request_three_d_secure: 'automatic',
        },
      }
    : {};
  const boletoOptions = pi.paymentMethodTypes.includes('boleto') ? { boleto: { expires_after_days: pi.boletoExpiresAfterDays } } : {};
  return {
    id: pi.id,
    object: 'payment_intent',
    amount: pi.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: pi.amountReceived,
    application: null,
    application_fee_amount: pi.applicationFeeAmount ?? null,
    automatic_payment_methods: null,
    canceled_at: pi.canceledAt,
    cancellation_reason: pi.cancellationReason,
    capture_method: 'automatic',
    client_secret: pi.clientSecret,
    confirmation_method: 'automatic',
    created: pi.created,
    currency: pi.currency,
    customer: null,
    description: pi.description,
    last_payment_error: lastPaymentErrorJson(pi),
    latest_charge: charge ? (expandCharge ? chargeJson(pi, charge, expand.includes('latest_charge.balance_transaction')) : charge.id) : null,
    livemode: pi.livemode,
    metadata: { ...pi.metadata },
    next_action: nextActionJson(pi),
    on_behalf_of: null,
    payment_method: pi.paymentMethod ? (expand.includes('payment_method') ? paymentMethodJson(pi.paymentMethod, pi.livemode) : pi.paymentMethod.id) : null,
    payment_method_configuration_details: null,
    payment_method_options: { ...pixOptions, ...cardOptions, ...boletoOptions },
    payment_method_types: [...pi.paymentMethodTypes],
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: pi.status,
    transfer_data: transferDataJson(pi.transferData),
    transfer_group: null,
  };
}
