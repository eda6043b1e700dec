/**
 * The objects as the API answers them: payment (docs.asaas.com "Criar nova cobrança" response and
 * the `payment` of webhook events), customer, Pix transaction, webhook configuration and the list
 * envelope. Amounts are Reais (exact decimal numbers); dates are São Paulo calendar dates.
 */
import { bankSlipUrl } from './boleto';
import { refundJson } from './refunds';
import { splitJson } from './splits';
import { Reais } from './money-json';
import type { StoredCustomer, StoredPayment, StoredPixTransaction } from './emulator-state';
import { spDate, spDateTime } from './sao-paulo-time';
import type { StoredWebhook } from './webhook-store';

export interface ListPage {
  limit: number;
  offset: number;
}

/** `limit` (default 10, at most 100) and `offset` (default 0) of a list request. */
export function pageOf(query: Record<string, unknown>): ListPage {
  const number = (value: unknown, fallback: number) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : fallback);
  return { limit: Math.min(Math.max(number(query['limit'], 10), 1), 100), offset: number(query['offset'], 0) };
}

export function listJson<T>(items: T[], page: ListPage, toJson: (item: T) => unknown) {
  return {
    object: 'list',
    hasMore: page.offset + page.limit < items.length,
    totalCount: items.length,
    limit: page.limit,
    offset: page.offset,
    data: items.slice(page.offset, page.offset + page.limit).map(toJson),
  };
}

export function paymentJson(p: StoredPayment, invoiceBase: string) {
  const paidOn = p.paidAt ? spDate(p.paidAt) : null;
  return {
    object: 'payment',
    id: p.id,
    dateCreated: spDate(p.createdAt),
    customer: p.customerId,
    paymentLink: null,
    value: new Reais(p.valueCents),
    netValue: new Reais(Math.max(0, p.valueCents - p.feeCents)),
    originalValue: null,
    interestValue: null,
    description: p.description ?? null,
    billingType: p.billingType,
    confirmedDate: paidOn,
    pixTransaction: p.pixTransactionId ?? null,
    status: p.status,
    dueDate: p.dueDate,
    originalDueDate: p.dueDate,
    paymentDate: paidOn,
    clientPaymentDate: paidOn,
    installmentNumber: null,
    invoiceUrl: `${invoiceBase}/i/${invoiceToken(p)}`,
    invoiceNumber: p.invoiceNumber,
    externalReference: p.externalReference ?? null,
    deleted: p.deleted,
    anticipated: false,
    anticipable: false,
    creditDate: paidOn,
    estimatedCreditDate: paidOn,
    transactionReceiptUrl: null,
    nossoNumero: p.boleto?.nossoNumero ?? null,
    bankSlipUrl: bankSlipUrl(p, invoiceBase),
    lastInvoiceViewedDate: null,
    lastBankSlipViewedDate: null,
    discount: { value: new Reais(0), limitDate: null, dueDateLimitDays: 0, type: 'FIXED' },
    fine: { value: new Reais(0), type: 'FIXED' },
    interest: { value: new Reais(0), type: 'PERCENTAGE' },
    postalService: false,
    custody: null,
    refunds: p.refunds && p.refunds.length > 0 ? p.refunds.map(refundJson) : null,
    // Only on a chargebacked payment (its place and shape beyond {status, reason} are unconfirmed).
    ...(p.chargeback ? { chargeback: { status: p.chargeback.status, reason: p.chargeback.reason } } : {}),
    ...(p.pixAutomaticAuthorizationId ? { pixAutomaticAuthorizationId: p.pixAutomaticAuthorizationId } : {}),
    ...(p.split && p.split.length > 0 ? { split: p.split.map(splitJson) } : {}),
    ...(p.creditCard ? { creditCard: { creditCardNumber: p.creditCard.last4, creditCardBrand: p.creditCard.brand, creditCardToken: p.creditCard.token ?? null } } : {}),
  };
}

/** The token of a charge's invoice page (`<invoiceBase>/i/<token>`). */
export function invoiceToken(p: Pick<StoredPayment, 'id'>): string {
  return p.id.slice('pay_'.length);
}

export function customerJson(c: StoredCustomer) {
  return {
    object: 'customer',
    id: c.id,
    dateCreated: c.dateCreated,
    name: c.name,
    email: c.email ?? null,
    company: null,
    phone: c.phone ?? null,
    mobilePhone: c.mobilePhone ?? null,
    address: null,
    addressNumber: null,
    complement: null,
    province: null,
    postalCode: null,
    cpfCnpj: c.cpfCnpj,
    personType: c.cpfCnpj.length === 11 ? 'FISICA' : 'JURIDICA',
    deleted: false,
    additionalEmails: null,
    externalReference: c.externalReference ?? null,
    notificationDisabled: false,
    observations: null,
    municipalInscription: null,
    stateInscription: null,
    canDelete: true,
    cannotBeDeletedReason: null,
    canEdit: true,
    cannotEditReason: null,
    city: null,
    cityName: null,
    state: null,
    country: 'Brasil',
  };
}

export function pixTransactionJson(t: StoredPixTransaction, description: string | null) {
  return {
    id: t.id,
    endToEndIdentifier: t.endToEndIdentifier,
    finality: null,
    value: new Reais(t.valueCents),
    changeValue: null,
    refundedValue: new Reais(0),
    effectiveDate: spDateTime(t.effectiveAt),
    scheduledDate: null,
    status: 'DONE',
    type: 'CREDIT',
    originType: 'DYNAMIC_QRCODE',
    description,
    transactionReceiptUrl: null,
    refusalReason: null,
    canBeCanceled: false,
    originalTransaction: null,
    payment: t.paymentId,
    canBeRefunded: true,
    refundDisabledReason: null,
    chargedFeeValue: new Reais(t.feeCents),
    dateCreated: spDateTime(t.effectiveAt),
    addressKey: null,
    addressKeyType: null,
    transferId: null,
    externalReference: null,
  };
}

/** The authToken is never answered, only whether there is one (`hasAuthToken`). */
export function webhookJson(w: StoredWebhook) {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    email: w.email ?? null,
    enabled: w.enabled,
    interrupted: w.interrupted,
    apiVersion: w.apiVersion,
    hasAuthToken: Boolean(w.authToken),
    sendType: w.sendType,
    penalizedRequestsCount: 0,
    events: w.events,
  };
}
