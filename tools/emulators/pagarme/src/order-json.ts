/**
 * Orders, charges and Pix transactions as Pagar.me v5 answers them (GetOrderResponse,
 * GetChargeResponse, GetPixTransactionResponse of pagarme/pagarme-nodejs-sdk, and the example
 * answers and webhooks on docs.pagar.me). Amounts are integer cents. Absent values are left out.
 */
import type { PixTransaction, StoredCharge, StoredCustomer, StoredOrder } from './emulator-state';
import type { RefundTransaction } from './emulator-records';
import { splitRuleJson } from './split-rules';

/** Where `qr_code_url` points: the API port's PNG route (Pagar.me: `/core/v5/transactions/:id/qrcode`). */
export type QrCodeUrl = (transactionId: string) => string;

const iso = (date: Date | undefined) => date?.toISOString();

export function customerJson(customer: StoredCustomer) {
  return {
    id: customer.id,
    name: customer.name,
    ...(customer.email ? { email: customer.email } : {}),
    ...(customer.document ? { document: customer.document } : {}),
    ...(customer.documentType ? { document_type: customer.documentType.toLowerCase() } : {}),
    ...(customer.type ? { type: customer.type } : {}),
    delinquent: false,
    created_at: iso(customer.createdAt),
    updated_at: iso(customer.updatedAt),
    phones: customer.phones,
  };
}

/** A boleto transaction (GetBoletoTransactionResponse): line, barcode, url, pdf, due_at. */
function boletoTransactionJson(transaction: PixTransaction, boleto: NonNullable<PixTransaction['boleto']>, amount: number) {
  return {
    id: transaction.id,
    transaction_type: 'boleto',
    gateway_id: transaction.pixProviderTid,
    amount,
    status: transaction.status,
    success: transaction.status !== 'failed',
    url: boleto.url,
    pdf: boleto.pdf,
    line: boleto.line,
    barcode: boleto.barcode,
    bank: '237',
    due_at: iso(boleto.dueAt),
    ...(boleto.instructions ? { instructions: boleto.instructions } : {}),
    created_at: iso(transaction.createdAt),
    updated_at: iso(transaction.updatedAt),
    gateway_response: {},
    antifraud_response: {},
    metadata: {},
  };
}

/** A credit card transaction (GetCreditCardTransactionResponse): the acquirer's answer and the card without its number. */
function cardTransactionJson(transaction: PixTransaction, card: NonNullable<PixTransaction['card']>, amount: number) {
  return {
    id: transaction.id,
    transaction_type: 'credit_card',
    gateway_id: transaction.pixProviderTid,
    amount,
    status: transaction.status,
    success: card.approved,
    installments: card.installments,
    ...(card.statementDescriptor ? { statement_descriptor: card.statementDescriptor } : {}),
    acquirer_name: 'simulator',
    acquirer_tid: transaction.pixProviderTid,
    acquirer_nsu: transaction.pixProviderTid.slice(-6),
    ...(card.approved ? { acquirer_auth_code: transaction.pixProviderTid.slice(-6) } : {}),
    acquirer_message: card.acquirerMessage,
    acquirer_return_code: card.acquirerReturnCode,
    operation_type: 'auth_and_capture',
    card: {
      id: card.card.id,
      first_six_digits: card.card.firstSix,
      last_four_digits: card.card.lastFour,
      brand: card.card.brand,
      holder_name: card.card.holderName,
      exp_month: card.card.expMonth,
      exp_year: card.card.expYear,
      status: 'active',
      type: 'credit',
    },
    created_at: iso(transaction.createdAt),
    updated_at: iso(transaction.updatedAt),
    gateway_response: { code: card.approved ? '200' : '400', errors: card.approved ? [] : [{ message: card.acquirerMessage }] },
    antifraud_response: {},
    metadata: {},
  };
}

/** `pix`, `boleto` or `credit_card`, from what the transaction carries. */
export function paymentMethodOf(transaction: PixTransaction): 'pix' | 'boleto' | 'credit_card' {
  return transaction.card ? 'credit_card' : transaction.boleto ? 'boleto' : 'pix';
}

export function transactionJson(transaction: PixTransaction, amount: number, qrCodeUrl: QrCodeUrl) {
  if (transaction.card) return cardTransactionJson(transaction, transaction.card, amount);
  if (transaction.boleto) return boletoTransactionJson(transaction, transaction.boleto, amount);
  return {
    id: transaction.id,
    transaction_type: 'pix',
    gateway_id: transaction.pixProviderTid,
    pix_provider_tid: transaction.pixProviderTid,
    amount,
    status: transaction.status,
    success: transaction.status !== 'failed',
    qr_code: transaction.qrCode,
    qr_code_url: qrCodeUrl(transaction.id),
    expires_at: iso(transaction.expiresAt),
    ...(transaction.additionalInformation ? { additional_information: transaction.additionalInformation } : {}),
    ...(transaction.endToEndId ? { end_to_end_id: transaction.endToEndId } : {}),
    ...(transaction.payer ? { payer: transaction.payer } : {}),
    created_at: iso(transaction.createdAt),
    updated_at: iso(transaction.updatedAt),
    gateway_response: {},
    antifraud_response: {},
    metadata: {},
  };
}

/** The charge as `GET /charges/:id` answers it: with its customer and a summary of its order. */
export function chargeJson(order: StoredOrder, qrCodeUrl: QrCodeUrl, withOrder = true) {
  const charge: StoredCharge = order.charge;
  return {
    id: charge.id,
    code: charge.code,
    gateway_id: charge.transaction.pixProviderTid,
    amount: charge.amount,
    ...(charge.paidAmount !== undefined ? { paid_amount: charge.paidAmount } : {}),
    ...(charge.canceledAmount !== undefined ? { canceled_amount: charge.canceledAmount } : {}),
    status: charge.status,
    currency: 'BRL',
    payment_method: paymentMethodOf(charge.transaction),
    ...(charge.paidAt ? { paid_at: iso(charge.paidAt) } : {}),
    ...(charge.canceledAt ? { canceled_at: iso(charge.canceledAt) } : {}),
    created_at: iso(charge.createdAt),
    updated_at: iso(charge.updatedAt),
    pending_cancellation: false,
    ...(withOrder
      ? {
          order: {
            id: order.id,
            code: order.code,
            amount: order.amount,
            closed: true,
            created_at: iso(order.createdAt),
            updated_at: iso(order.updatedAt),
            closed_at: iso(order.createdAt),
            currency: 'BRL',
            status: order.status,
            customer_id: order.customer.id,
            metadata: order.metadata,
          },
        }
      : {}),
    customer: customerJson(order.customer),
    last_transaction: { ...transactionJson(charge.transaction, charge.amount, qrCodeUrl), ...(charge.split ? { split: charge.split.map(splitRuleJson) } : {}) },
    metadata: order.metadata,
  };
}

export function orderJson(order: StoredOrder, qrCodeUrl: QrCodeUrl) {
  return {
    id: order.id,
    code: order.code,
    amount: order.amount,
    currency: 'BRL',
    closed: true,
    items: order.items.map((item) => ({
      id: item.id,
      type: 'product',
      description: item.description,
      amount: item.amount,
      quantity: item.quantity,
      status: 'active',
      created_at: iso(order.createdAt),
      updated_at: iso(order.createdAt),
      ...(item.code ? { code: item.code } : {}),
      ...(item.category ? { category: item.category } : {}),
    })),
    customer: customerJson(order.customer),
    status: order.status,
    created_at: iso(order.createdAt),
    updated_at: iso(order.updatedAt),
    closed_at: iso(order.createdAt),
    charges: [chargeJson(order, qrCodeUrl, false)],
    metadata: order.metadata,
  };
}

/** A refund (cancel operation) as a transaction of the charge. */
export function refundTransactionJson(refund: RefundTransaction, order: StoredOrder) {
  return {
    id: refund.id,
    transaction_type: paymentMethodOf(order.charge.transaction),
    amount: refund.amount,
    status: refund.status,
    success: true,
    operation_type: 'cancel',
    created_at: iso(refund.createdAt),
    updated_at: iso(refund.createdAt),
    gateway_response: {},
    antifraud_response: {},
    metadata: refund.operationReference ? { operation_reference: refund.operationReference } : {},
  };
}
