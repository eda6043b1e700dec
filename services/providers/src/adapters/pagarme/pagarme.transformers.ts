/**
 * Pagar.me API v5 wire types and pure conversions: our charge input → `POST /orders` body, a charge
 * → ProviderCharge (exhaustive status map), and a webhook body → the charge ids it names. No I/O
 * here; the error table is pagarme.errors.ts.
 *
 * Amounts: Pagar.me v5 takes and answers integer centavos (`amount: 1990` is R$ 19,90), the same
 * unit as ours, so no conversion happens; amounts are only checked to be safe positive integers.
 *
 * Our providerPaymentId is the charge id (`ch_…`), not the order id (`or_…`): the charge is what
 * is canceled (`DELETE /charges/:id`), read (`GET /charges/:id`, which embeds its order) and paid;
 * `charge.*` webhooks carry it as `data.id` and `order.*` webhooks as `data.charges[].id`.
 *
 * Over 300 lines: Pagar.me's order and charge wire types, one request builder per method and the
 * exhaustive status map, which read those types.
 */
import { assertNever, numericTaxId } from '@orquestra/platform';
import type { CreateChargeInput, ProviderCharge, ProviderChargeStatus } from '../provider-adapter';
import { boletoDueDate, endOfDueDate } from '../../domain/boleto-due-date';
import { declineReason, type CardDeclineCode } from '../../domain/card-declines';

// ---------------------------------------------------------------------------------------------
// Wire types (pagarme/pagarme-nodejs-sdk models: CreateOrderRequest, GetChargeResponse,
// GetPixTransactionResponse; docs.pagar.me reference pages)
// ---------------------------------------------------------------------------------------------

export type PagarmeOrderStatus = 'pending' | 'paid' | 'canceled' | 'failed';
export type PagarmeChargeStatus = 'pending' | 'paid' | 'canceled' | 'processing' | 'failed' | 'overpaid' | 'underpaid' | 'chargedback';

export interface PagarmePhone {
  country_code: string;
  area_code: string;
  number: string;
}

export interface PagarmeCreateOrderRequest {
  code: string;
  items: { amount: number; description: string; quantity: 1; code: string }[];
  customer: {
    name: string;
    email: string;
    type: 'individual' | 'company';
    document: string;
    document_type: 'CPF' | 'CNPJ';
    phones: { mobile_phone: PagarmePhone };
    /** Boleto only: the bank prints it on the voucher. */
    address?: PagarmeAddress;
  };
  payments: ((
    | { payment_method: 'pix'; pix: { expires_in: number; additional_information?: { name: string; value: string }[] } }
    | { payment_method: 'boleto'; boleto: { due_at: string; instructions: string } }
    | { payment_method: 'credit_card'; credit_card: PagarmeCreditCardPayment }
  ) & { split?: PagarmeSplitRule[] })[];
  metadata: Record<string, string>;
}

/** `payments[].credit_card` with the card in full (CreateCreditCardPaymentRequest, CreateCardRequest). */
export interface PagarmeCreditCardPayment {
  installments: number;
  statement_descriptor?: string;
  card: { number: string; holder_name: string; exp_month: number; exp_year: number; cvv: string; billing_address?: PagarmeAddress };
}

/** A split rule (CreateSplitRequest): flat amounts in cents here. */
export interface PagarmeSplitRule {
  amount: number;
  type: 'flat';
  recipient_id: string;
  options: { liable: boolean; charge_processing_fee: boolean; charge_remainder_fee: boolean };
}

export interface PagarmeAddress {
  line_1: string;
  line_2?: string;
  zip_code: string;
  city: string;
  state: string;
  country: 'BR';
}

/** A charge's last transaction: Pix fields, or boleto fields (`line`, `barcode`, `url`, `pdf`, `due_at`). */
export interface PagarmePixTransaction {
  line?: string | null;
  barcode?: string | null;
  url?: string | null;
  pdf?: string | null;
  due_at?: string | null;
  id?: string;
  transaction_type?: string;
  status?: string;
  amount?: number;
  success?: boolean;
  qr_code?: string | null;
  qr_code_url?: string | null;
  expires_at?: string | null;
  end_to_end_id?: string | null;
  gateway_response?: { code?: string; errors?: { message?: string }[] } | null;
  /** Card transactions: the acquirer's answer (ISO 8583-style return code) and message. */
  acquirer_return_code?: string | null;
  acquirer_message?: string | null;
  installments?: number;
  card?: { id?: string; last_four_digits?: string; brand?: string } | null;
}

export interface PagarmeCharge {
  id: string;
  code?: string;
  amount: number;
  paid_amount?: number | null;
  status: PagarmeChargeStatus;
  payment_method?: string;
  paid_at?: string | null;
  /** Cents canceled: the whole amount of a canceled pending charge, or what was refunded of a paid one. */
  canceled_amount?: number | null;
  canceled_at?: string | null;
  order?: { id: string; code?: string; status?: PagarmeOrderStatus; metadata?: Record<string, string> };
  last_transaction?: PagarmePixTransaction | null;
  metadata?: Record<string, string>;
}

export interface PagarmeOrder {
  id: string;
  code?: string;
  amount: number;
  status: PagarmeOrderStatus;
  charges?: PagarmeCharge[];
  metadata?: Record<string, string>;
}

export interface PagarmeErrorBody {
  message?: string;
  errors?: Record<string, string[]>;
}

// ---------------------------------------------------------------------------------------------
// Order request
// ---------------------------------------------------------------------------------------------

/** Pagar.me limits `code` of orders and items to 52 characters. */
const CODE_MAX = 52;
/** Customer name and email are limited to 64 characters; item descriptions to 256. */
const NAME_MAX = 64;
const DESCRIPTION_MAX = 256;
const DEFAULT_DESCRIPTION = 'Pagamento Pix';

export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/** Amounts are already centavos; anything but a positive safe integer cannot be charged anywhere. */
export function checkedCents(amount: number): number {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`amount must be a positive integer of cents, got ${amount}`);
  return amount;
}

/**
 * A Brazilian phone as Pagar.me's `{country_code, area_code, number}`. Accepts what our API accepts
 * ("+55 11 91234-5678", "(11) 1234-5678", "11912345678"): 10–11 national digits, optionally
 * prefixed by 55. Foreign numbers cannot be split reliably, so they are refused.
 */
export function parsePhone(phone: string | undefined): PagarmePhone {
  const digits = (phone ?? '').replace(/\D/g, '');
  const national = digits.length >= 12 && digits.startsWith('55') ? digits.slice(2) : digits;
  if (!/^\d{10,11}$/.test(national) || national.startsWith('0')) throw new RangeError('customer.phone must be a Brazilian number with area code');
  return { country_code: '55', area_code: national.slice(0, 2), number: national.slice(2) };
}

/** Pagar.me requires name, e-mail, CPF/CNPJ and a phone of the customer of an order. */
export function customerFor(customer: CreateChargeInput['customer']): PagarmeCreateOrderRequest['customer'] {
  const name = truncate(customer.name.trim(), NAME_MAX);
  const email = customer.email?.trim() ?? '';
  // The all-digit forms only: Pagar.me documents `document` as the CPF's or CNPJ's digits.
  const taxId = numericTaxId(customer.document);
  if (!name) throw new RangeError('customer.name is required by Pagar.me');
  if (!email) throw new RangeError('customer.email is required by Pagar.me');
  if (!taxId) throw new RangeError('customer.document (an all-digit CPF or CNPJ with valid check digits) is required by Pagar.me');
  const document = taxId.value;
  const company = taxId.kind === 'cnpj';
  return {
    name,
    email,
    type: company ? 'company' : 'individual',
    document,
    document_type: company ? 'CNPJ' : 'CPF',
    phones: { mobile_phone: parsePhone(customer.phone) },
  };
}

/**
 * One item of the whole amount and one Pix payment. `code` (ours: the payment id) lets an order be
 * found by `GET /orders?code=`; metadata is kept by Pagar.me on the order. The description goes to
 * the payer's bank app as `additional_information`; metadata does not (it is ours, not the payer's).
 */
export function buildOrderRequest(input: CreateChargeInput, now: Date = new Date(), mainRecipientId?: string): PagarmeCreateOrderRequest {
  const description = truncate(input.description?.trim() || (input.method === 'boleto' ? 'Pagamento por boleto' : DEFAULT_DESCRIPTION), DESCRIPTION_MAX);
  const code = truncate(input.paymentId, CODE_MAX);
  const customer = customerFor(input.customer);
  const split = input.splits?.length ? { split: splitRules(input.amount, input.splits, mainRecipientId) } : {};
  return {
    code,
    items: [{ amount: checkedCents(input.amount), description, quantity: 1, code }],
    customer: input.method === 'boleto' ? { ...customer, address: addressFor(input.customer.address) } : customer,
    payments: [
      input.method === 'card'
        ? { payment_method: 'credit_card', ...split, credit_card: creditCardPayment(input) }
        : input.method === 'boleto'
        ? {
            payment_method: 'boleto',
            ...split,
            // Due at the end of the due day in São Paulo (docs/decisions.md "Boleto and card").
            boleto: { due_at: endOfDueDate(boletoDueDate(now)).toISOString(), instructions: truncate(`Não receber após o vencimento. ${description}`, 256) },
          }
        : {
            payment_method: 'pix',
            ...split,
            pix: {
              expires_in: input.expiresInSeconds,
              ...(input.description?.trim() ? { additional_information: [{ name: 'Pedido', value: truncate(input.description.trim(), 200) }] } : {}),
            },
          },
    ],
    metadata: { ...input.metadata },
  };
}

/**
 * A vault card in Pagar.me's form (pagarme.vault-card.ts decides when it may be sent): the card in
 * full, with the customer's address as the billing address when we have it, and the installments.
 */
export function creditCardPayment(input: CreateChargeInput): PagarmeCreditCardPayment {
  const card = input.card?.vaultCard;
  if (!card) throw new RangeError('card at Pagar.me needs a vault card');
  if (!card.cvc) throw new RangeError('card at Pagar.me needs the security code');
  const installments = input.card?.installments ?? 1;
  if (!Number.isInteger(installments) || installments < 1 || installments > 12) throw new RangeError('card.installments must be 1..12');
  return {
    installments,
    card: {
      number: card.number,
      holder_name: truncate(card.holderName.trim(), NAME_MAX),
      exp_month: card.expMonth,
      exp_year: card.expYear,
      cvv: card.cvc,
      ...(input.customer.address ? { billing_address: addressFor(input.customer.address) } : {}),
    },
  };
}

/**
 * Pagar.me's split rules must cover the whole amount, the main account's recipient included: one
 * flat rule per subaccount part (not liable, no fees), then the main recipient's rule with what is
 * left, liable for chargebacks and paying the processing fee and the rounding remainder (the main
 * account keeps the remainder and pays the fees). Refunds are then taken back from each recipient
 * in proportion to its rule (docs/subaccounts.md).
 */
export function splitRules(amount: number, splits: NonNullable<CreateChargeInput['splits']>, mainRecipientId: string | undefined): PagarmeSplitRule[] {
  if (!mainRecipientId) throw new RangeError('split needs the main recipient id');
  const parts = splits.map((split) => ({ amount: checkedCents(split.amount), recipient: split.splitTarget }));
  if (parts.some((part) => !part.recipient || part.recipient === mainRecipientId)) throw new RangeError('each split part needs a subaccount recipient other than the main one');
  if (new Set(parts.map((part) => part.recipient)).size !== parts.length) throw new RangeError('a recipient can receive one split part only');
  const rest = checkedCents(amount) - parts.reduce((sum, part) => sum + part.amount, 0);
  if (rest < 1) throw new RangeError('split parts must leave part of the amount to the main account');
  const options = (main: boolean) => ({ liable: main, charge_processing_fee: main, charge_remainder_fee: main });
  return [
    ...parts.map((part) => ({ amount: part.amount, type: 'flat' as const, recipient_id: part.recipient, options: options(false) })),
    { amount: rest, type: 'flat', recipient_id: mainRecipientId, options: options(true) },
  ];
}

/** Our address → Pagar.me's (`line_1` is "number, street, neighborhood", as Pagar.me documents it). */
export function addressFor(address: CreateChargeInput['customer']['address']): PagarmeAddress {
  if (!address) throw new RangeError('customer.address is required by Pagar.me for boleto');
  return {
    line_1: truncate(`${address.number}, ${address.street}, ${address.neighborhood}`, 256),
    ...(address.complement ? { line_2: truncate(address.complement, 128) } : {}),
    zip_code: address.zip.replace(/\D/g, ''),
    city: address.city,
    state: address.state,
    country: 'BR',
  };
}

// ---------------------------------------------------------------------------------------------
// Charge response
// ---------------------------------------------------------------------------------------------

interface StatusMapping {
  status: ProviderChargeStatus;
  failureCode?: string;
  failureReason?: string;
}

/**
 * Every charge status of Pagar.me v5; a new one fails to compile here. A Pix charge that was never
 * paid in time ends `failed` at Pagar.me with its QR code still on the transaction: that is an
 * expiry (canceled/expired, as our other adapters report it); a `failed` charge without a QR code
 * was refused when created (e.g. Pix not enabled on the account) and is a failure.
 */
export function mapChargeStatus(charge: Pick<PagarmeCharge, 'status' | 'last_transaction'> & Partial<Pick<PagarmeCharge, 'paid_at'>>): StatusMapping {
  const status = charge.status;
  switch (status) {
    case 'pending':
    case 'processing':
      return { status: 'pending' };
    case 'paid':
    case 'overpaid':
      // Overpaid: more than the amount arrived; the amount asked for is paid (amountPaid shows the rest).
      return { status: 'paid' };
    case 'underpaid':
      // Less than the amount arrived and Pagar.me will not ask for the rest: not paid, money to return.
      return { status: 'failed', failureCode: 'underpaid', failureReason: 'Pagamento menor que o valor cobrado' };
    case 'canceled':
      // A paid charge fully refunded ends `canceled` too: it was paid; its refunds tell the rest.
      if (charge.paid_at) return { status: 'paid' };
      return { status: 'canceled' };
    case 'chargedback':
      // Only cards are charged back; a charge in this state is not paid any more.
      return { status: 'canceled', failureCode: 'chargedback', failureReason: 'Estornado por chargeback' };
    case 'failed':
      if (charge.last_transaction?.qr_code) return { status: 'canceled', failureCode: 'expired', failureReason: 'Pix expirado sem pagamento' };
      if (charge.last_transaction?.transaction_type === 'credit_card') {
        const failureCode = pagarmeCardDecline(charge.last_transaction.acquirer_return_code);
        return { status: 'failed', failureCode, failureReason: declineReason(failureCode) };
      }
      return { status: 'failed', failureCode: 'provider_declined', failureReason: gatewayReason(charge.last_transaction) ?? 'Cobrança recusada pelo Pagar.me' };
    default:
      return assertNever(status);
  }
}

/**
 * The acquirer's return code of a refused card (the ABECS codes Brazilian acquirers answer, as
 * Pagar.me passes them in `acquirer_return_code`) → our decline code; anything else is a plain refusal.
 */
const PAGARME_CARD_DECLINES: Readonly<Record<string, CardDeclineCode>> = {
  '51': 'insufficient_funds',
  '54': 'expired_card',
  '82': 'incorrect_cvc',
  N7: 'incorrect_cvc',
  '41': 'lost_card',
  '43': 'stolen_card',
  '96': 'processing_error',
};

export function pagarmeCardDecline(returnCode: string | null | undefined): CardDeclineCode {
  return PAGARME_CARD_DECLINES[returnCode ?? ''] ?? 'card_declined';
}

function gatewayReason(transaction: PagarmePixTransaction | null | undefined): string | undefined {
  const message = transaction?.gateway_response?.errors?.find((e) => typeof e.message === 'string')?.message;
  return message ? truncate(message, 200) : undefined;
}

function date(text: string | null | undefined): Date | undefined {
  if (!text) return undefined;
  const at = Date.parse(text);
  return Number.isFinite(at) ? new Date(at) : undefined;
}

export function toProviderCharge(charge: PagarmeCharge): ProviderCharge {
  const mapping = mapChargeStatus(charge);
  const transaction = charge.last_transaction ?? undefined;
  const qrCode = transaction?.qr_code ?? undefined;
  const line = transaction?.line ?? undefined;
  const expiresAt = date(transaction?.expires_at ?? transaction?.due_at);
  const paidAt = date(charge.paid_at);
  const endToEndId = transaction?.end_to_end_id ?? undefined;
  const received = charge.status === 'paid' || charge.status === 'overpaid' || charge.status === 'underpaid' || (charge.status === 'canceled' && Boolean(charge.paid_at));
  return {
    providerPaymentId: charge.id,
    status: mapping.status,
    amount: charge.amount,
    amountPaid: received ? (charge.paid_amount ?? (charge.status === 'underpaid' ? 0 : charge.amount)) : 0,
    nextAction:
      mapping.status === 'pending' && qrCode
        ? { type: 'pix_qr', qrCode }
        : mapping.status === 'pending' && line
          ? { type: 'boleto', digitableLine: line.replace(/\D/g, ''), ...(transaction?.url || transaction?.pdf ? { url: (transaction.url || transaction.pdf) ?? '' } : {}) }
          : { type: 'none' },
    ...(expiresAt ? { expiresAt } : {}),
    ...(paidAt && received ? { paidAt } : {}),
    ...(endToEndId && received ? { endToEndId } : {}),
    ...(mapping.failureCode ? { failureCode: mapping.failureCode } : {}),
    ...(mapping.failureReason ? { failureReason: mapping.failureReason } : {}),
  };
}

/** The one charge of a Pix order (an order with a single payment has a single charge). */
export function chargeOfOrder(order: PagarmeOrder): PagarmeCharge | undefined {
  const charge = order.charges?.[0];
  return charge ? { ...charge, order: { id: order.id, code: order.code, status: order.status, metadata: order.metadata } } : undefined;
}
