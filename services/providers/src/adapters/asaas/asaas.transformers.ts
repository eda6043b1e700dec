/**
 * Asaas API v3: pure wire types and conversions (money, the charge request, the exhaustive status
 * map). Errors: asaas.errors.ts; webhooks: asaas.webhook.ts; HTTP: asaas.adapter.ts.
 * Numbers in Asaas answers arrive as their JSON text (asaas.json.ts), hence `DecimalText`.
 *
 * Over 300 lines: Asaas's wire types, the charge request per billing type and the exhaustive status
 * map, which read those types.
 */
import { assertNever, assertPositiveCents, centsToReaisString, numericTaxId, reaisStringToCents } from '@orquestra/platform';
import { createHash } from 'node:crypto';
import { boletoDueDate, endOfDueDate } from '../../domain/boleto-due-date';
import { ProviderError, type ChargeSplitInput, type CreateChargeInput, type CustomerInput, type ProviderCharge, type ProviderChargeStatus } from '../provider-adapter';
import { JsonDecimal } from './asaas.json';
import type { AsaasCreditCard, AsaasCreditCardHolderInfo } from './asaas.vault-card';

/** A JSON number as Asaas wrote it, e.g. `"100.90"` or `"100.9"`. */
export type DecimalText = string;

/** Every payment status of Asaas's OpenAPI (`PaymentStatus`); a new one fails to compile in mapPaymentStatus. */
export type AsaasPaymentStatus =
  | 'PENDING' | 'RECEIVED' | 'CONFIRMED' | 'OVERDUE' | 'REFUNDED' | 'RECEIVED_IN_CASH' | 'REFUND_REQUESTED'
  | 'REFUND_IN_PROGRESS' | 'CHARGEBACK_REQUESTED' | 'CHARGEBACK_DISPUTE' | 'AWAITING_CHARGEBACK_REVERSAL'
  | 'DUNNING_REQUESTED' | 'DUNNING_RECEIVED' | 'AWAITING_RISK_ANALYSIS' | 'AUTHORIZED';

export interface AsaasPayment {
  object: 'payment';
  id: string;
  customer: string;
  value: DecimalText;
  netValue?: DecimalText | null;
  status: AsaasPaymentStatus;
  billingType: AsaasBillingType | string;
  /** Asaas's hosted invoice page: for a card charge, where the buyer types the card. */
  invoiceUrl?: string | null;
  /** A BOLETO's slip (PDF at Asaas). */
  bankSlipUrl?: string | null;
  nossoNumero?: string | null;
  dueDate: string;
  deleted: boolean;
  description?: string | null;
  externalReference?: string | null;
  pixTransaction?: string | null;
  paymentDate?: string | null;
  clientPaymentDate?: string | null;
  confirmedDate?: string | null;
  /** The split parts, as Asaas answers them (fixedValue in reais). */
  split?: AsaasSplit[] | null;
}

/** One part of a split in an answer (docs.asaas.com "Split de pagamentos"). */
export interface AsaasSplit {
  walletId: string;
  fixedValue?: DecimalText | null;
  percentualValue?: DecimalText | null;
  totalValue?: DecimalText | null;
  status?: string;
}

/** One part of a split in a request: always a fixed value (payments computed the cents of the gross). */
export interface AsaasSplitRequest {
  walletId: string;
  fixedValue: JsonDecimal;
}

export interface AsaasList<T> {
  object: 'list';
  hasMore: boolean;
  totalCount: number;
  data: T[];
}

export interface AsaasCustomer {
  object: 'customer';
  id: string;
  cpfCnpj: string | null;
  deleted: boolean;
}

export interface AsaasPixQrCode {
  encodedImage: string;
  payload: string;
  /** São Paulo time, `YYYY-MM-DD HH:mm:ss`. */
  expirationDate: string;
}

export interface AsaasPixTransaction {
  id: string;
  endToEndIdentifier: string | null;
  effectiveDate: string | null;
}

/**
 * A BOLETO's `GET /payments/{id}/identificationField`: the linha digitável, nosso número and
 * barcode (field names from psp-apis.md, marked unconfirmed there).
 */
export interface AsaasIdentificationField {
  identificationField: string;
  nossoNumero?: string | null;
  barCode?: string | null;
}

/** The billing types we create: Pix, boleto, and card (on Asaas's invoice page or sent in the call). */
export type AsaasBillingType = 'PIX' | 'BOLETO' | 'CREDIT_CARD';

const BILLING_TYPES: Record<CreateChargeInput['method'], AsaasBillingType> = { pix: 'PIX', boleto: 'BOLETO', card: 'CREDIT_CARD' };

export interface AsaasPaymentRequest {
  customer: string;
  billingType: AsaasBillingType;
  value: JsonDecimal;
  dueDate: string;
  description?: string;
  externalReference: string;
  split?: AsaasSplitRequest[];
  /** A vault card sent in the call (asaas.vault-card.ts). */
  creditCard?: AsaasCreditCard;
  creditCardHolderInfo?: AsaasCreditCardHolderInfo;
  remoteIp?: string;
}

export interface AsaasCustomerRequest {
  name: string;
  cpfCnpj: string;
  email?: string;
  mobilePhone?: string;
  /** Asaas would otherwise e-mail/SMS our merchants' buyers itself. */
  notificationDisabled: true;
}

// --- money: integer cents ↔ decimal reais, by string arithmetic only -----------------------------

/** 1990 → `19.90` as an exact JSON number (platform money helpers do the digits). */
export function centsToReais(cents: number): JsonDecimal {
  assertPositiveCents(cents, 'amount');
  return new JsonDecimal(centsToReaisString(cents));
}

/** `"100.9"`, `"100.90"`, `"100"` → cents. More than two significant decimals or exponents are refused. */
export function reaisToCents(text: DecimalText): number {
  return reaisStringToCents(text);
}

// --- dates: Asaas speaks São Paulo local time (UTC−03:00 all year since 2019) ------------------

const SAO_PAULO_OFFSET_MS = 3 * 60 * 60 * 1000;

export function saoPauloDate(at: Date): string {
  return new Date(at.getTime() - SAO_PAULO_OFFSET_MS).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD HH:mm:ss` or `YYYY-MM-DD` in São Paulo → the instant. */
export function parseSaoPauloTime(text: string | null | undefined): Date | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}:\d{2}))?$/.exec(text ?? '');
  if (!match) return undefined;
  const at = new Date(`${match[1]}T${match[2] ?? '00:00:00'}-03:00`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

// --- requests -------------------------------------------------------------------------------------

const EXTERNAL_REFERENCE_MAX = 100;
const DESCRIPTION_MAX = 500;

/**
 * The payment's `externalReference` for an idempotency key: the key itself when short enough,
 * else a SHA-256 of it. Asaas has no idempotency header; the adapter searches by this before creating.
 */
export function externalReferenceFor(idempotencyKey: string): string {
  if (idempotencyKey.length > 0 && idempotencyKey.length <= EXTERNAL_REFERENCE_MAX) return idempotencyKey;
  return `orq:${createHash('sha256').update(idempotencyKey).digest('hex')}`;
}

/** The digits of a valid CPF or CNPJ, else undefined (Asaas refuses the customer otherwise). */
export function documentDigits(document: string | undefined): string | undefined {
  return numericTaxId(document)?.value;
}

/** A Brazilian phone as Asaas takes it: DDD + number, 10 or 11 digits, without +55. */
export function brazilianPhone(phone: string | undefined): string | undefined {
  let digits = (phone ?? '').replace(/\D/g, '');
  if ((digits.length === 12 || digits.length === 13) && digits.startsWith('55')) digits = digits.slice(2);
  return digits.length === 10 || digits.length === 11 ? digits : undefined;
}

/**
 * Throws `rejected` on `customer.document` when the customer has no valid CPF/CNPJ: Asaas cannot
 * charge without one (Pix, boleto and card alike).
 */
export function buildCustomerRequest(customer: CustomerInput): AsaasCustomerRequest {
  const cpfCnpj = documentDigits(customer.document);
  if (!cpfCnpj) {
    throw new ProviderError('rejected', 'provider_rejected', 'asaas: the customer needs a valid CPF or CNPJ', 400, {
      name: 'customer.document',
      publicMessage: 'O Asaas exige o CPF ou CNPJ do cliente: informe um customer.document válido.',
    });
  }
  const email = customer.email?.trim();
  const mobilePhone = brazilianPhone(customer.phone);
  return {
    name: customer.name.trim().slice(0, 255) || cpfCnpj,
    cpfCnpj,
    ...(email ? { email } : {}),
    ...(mobilePhone ? { mobilePhone } : {}),
    notificationDisabled: true,
  };
}

/**
 * The charge. Pix: `dueDate` is the São Paulo day the charge should expire on; Asaas has no finer
 * expiry (the QR code stays payable until 12 months after it), so the platform cancels it on time.
 * Card: `billingType: CREDIT_CARD` without `creditCard` data creates the charge whose invoice page
 * (`invoiceUrl`) collects the card (docs.asaas.com "Criar nova cobrança": the card is optional).
 * Boleto: `billingType: BOLETO` due on the platform's boleto due date (domain/boleto-due-date.ts);
 * after it the charge reads OVERDUE and payments cancels it (DELETE).
 */
export function buildPaymentRequest(input: CreateChargeInput, customerId: string, now: Date): AsaasPaymentRequest {
  const description = input.description?.trim();
  return {
    customer: customerId,
    billingType: BILLING_TYPES[input.method],
    value: centsToReais(input.amount),
    dueDate: input.method === 'boleto' ? boletoDueDate(now) : saoPauloDate(new Date(now.getTime() + Math.max(0, input.expiresInSeconds) * 1000)),
    ...(description ? { description: Array.from(description).slice(0, DESCRIPTION_MAX).join('') } : {}),
    externalReference: externalReferenceFor(input.idempotencyKey),
    ...(input.splits && input.splits.length > 0 ? { split: buildSplit(input.splits) } : {}),
  };
}

/**
 * Our parts (integer cents) → Asaas's `split[{walletId, fixedValue}]` (exact reais). Always fixed
 * values: `percentualValue` would be a percentage of Asaas's netValue, not of the gross payments
 * computed the parts from. Throws RangeError for a part that is not a positive integer of cents.
 */
export function buildSplit(splits: readonly ChargeSplitInput[]): AsaasSplitRequest[] {
  return splits.map((part) => ({ walletId: part.splitTarget, fixedValue: centsToReais(part.amount) }));
}

/**
 * Whether the charge Asaas holds carries the parts asked for (a repeat of one idempotency key with
 * another split must not answer the first charge as if it were the one asked for).
 */
export function sameSplit(payment: Pick<AsaasPayment, 'split'>, input: Pick<CreateChargeInput, 'splits'>): boolean {
  const key = (walletId: string, cents: number) => `${walletId}:${cents}`;
  const held = (payment.split ?? []).map((part) => key(part.walletId, reaisToCents(part.fixedValue ?? part.totalValue ?? '0'))).sort();
  const asked = (input.splits ?? []).map((part) => key(part.splitTarget, part.amount)).sort();
  return held.length === asked.length && held.every((k, i) => k === asked[i]);
}

// --- answers ------------------------------------------------------------------------------------

/**
 * Every Asaas status → ours. Money received stays `paid` whatever happens after (refunds and
 * chargebacks are their own flows); `OVERDUE` stays `pending` because a Pix charge past its due
 * date is still payable by its QR code (which lives 12 months longer), and a boleto past its due
 * date is canceled by payments, not by this map. Removal is not a status at
 * Asaas but `deleted: true` (see toProviderCharge).
 */
export function mapPaymentStatus(status: AsaasPaymentStatus): ProviderChargeStatus {
  switch (status) {
    case 'PENDING':
    case 'OVERDUE':
    case 'AWAITING_RISK_ANALYSIS':
    case 'AUTHORIZED':
    case 'DUNNING_REQUESTED':
      return 'pending';
    case 'RECEIVED':
    case 'CONFIRMED':
    case 'RECEIVED_IN_CASH':
    case 'DUNNING_RECEIVED':
    case 'REFUND_REQUESTED':
    case 'REFUND_IN_PROGRESS':
    case 'REFUNDED':
    case 'CHARGEBACK_REQUESTED':
    case 'CHARGEBACK_DISPUTE':
    case 'AWAITING_CHARGEBACK_REVERSAL':
      return 'paid';
    default:
      return assertNever(status);
  }
}

export interface ChargeDetails {
  qr?: AsaasPixQrCode;
  /** A pending BOLETO's linha digitável. */
  boleto?: AsaasIdentificationField;
  pixTransaction?: AsaasPixTransaction;
}

/** `value - netValue`: Asaas's fee (estimated before payment, charged after), when it reports both. */
export function feeCents(payment: AsaasPayment): number | undefined {
  if (payment.netValue === undefined || payment.netValue === null) return undefined;
  const fee = reaisToCents(payment.value) - reaisToCents(payment.netValue);
  return fee >= 0 ? fee : undefined;
}

/** A card (or buyer-chosen) charge is paid on Asaas's invoice page; only http(s) links are used. */
export function isHostedCheckout(payment: Pick<AsaasPayment, 'billingType'>): boolean {
  return payment.billingType === 'CREDIT_CARD' || payment.billingType === 'UNDEFINED';
}

const httpUrl = (url: string | null | undefined): string | undefined => (url && /^https?:\/\//.test(url) ? url : undefined);

/** The linha digitável (digits only) and the slip's URL; none of them known → no next action. */
function boletoActionOf(payment: AsaasPayment, boleto: AsaasIdentificationField | undefined): ProviderCharge['nextAction'] {
  const line = boleto?.identificationField?.replace(/\D/g, '');
  const url = httpUrl(payment.bankSlipUrl);
  if (!line && !url) return { type: 'none' };
  return { type: 'boleto', ...(line ? { digitableLine: line } : {}), ...(url ? { url } : {}) };
}

function nextActionOf(payment: AsaasPayment, status: ProviderChargeStatus, details: ChargeDetails): ProviderCharge['nextAction'] {
  if (status !== 'pending') return { type: 'none' };
  if (payment.billingType === 'BOLETO') return boletoActionOf(payment, details.boleto);
  const { qr } = details;
  if (isHostedCheckout(payment)) return payment.invoiceUrl && /^https?:\/\//.test(payment.invoiceUrl) ? { type: 'redirect', url: payment.invoiceUrl } : { type: 'none' };
  return qr?.payload ? { type: 'pix_qr', qrCode: qr.payload, ...(qr.encodedImage ? { qrCodeBase64: qr.encodedImage } : {}) } : { type: 'none' };
}

export function toProviderCharge(payment: AsaasPayment, details: ChargeDetails = {}): ProviderCharge {
  const status: ProviderChargeStatus = payment.deleted ? 'canceled' : mapPaymentStatus(payment.status);
  const amount = reaisToCents(payment.value);
  const fee = feeCents(payment);
  const { qr, pixTransaction } = details;
  // A boleto is payable until the end of its due date in São Paulo (domain/boleto-due-date.ts).
  const expiresAt = payment.billingType === 'BOLETO' ? endOfDueDate(payment.dueDate) : parseSaoPauloTime(qr?.expirationDate);
  const paidAt = parseSaoPauloTime(pixTransaction?.effectiveDate) ?? parseSaoPauloTime(payment.clientPaymentDate ?? payment.paymentDate);
  return {
    providerPaymentId: payment.id,
    status,
    amount,
    amountPaid: status === 'paid' ? amount : 0,
    nextAction: nextActionOf(payment, status, details),
    ...(expiresAt && !Number.isNaN(expiresAt.getTime()) && status === 'pending' ? { expiresAt } : {}),
    ...(status === 'paid' && paidAt ? { paidAt } : {}),
    ...(status === 'paid' && pixTransaction?.endToEndIdentifier ? { endToEndId: pixTransaction.endToEndIdentifier } : {}),
    ...(fee !== undefined ? { providerFee: fee } : {}),
    ...(payment.deleted ? { failureCode: 'canceled', failureReason: 'Cobrança removida no Asaas' } : {}),
  };
}
