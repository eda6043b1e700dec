/** The records the emulator keeps in memory (EmulatorState holds them; routes render them as JSON). */
import type { PhoneRequest } from './order-validation';
import type { DeliveryRecord } from '../../kit';
import type { StoredSplitRule } from './split-rules';
import type { CardTransactionDetails } from './card-payments';

export interface AccountRegistration {
  secret_key: string;
  /** Shown in webhooks as `account.name` and in BR Codes as the merchant name. */
  name?: string;
}

export interface Account {
  id: string;
  secretKey: string;
  name: string;
  /** `sk_test_…` keys are sandbox keys, other `sk_…` keys live ones (the key decides, one base URL). */
  mode: 'test' | 'live';
}

export type OrderStatus = 'pending' | 'paid' | 'canceled' | 'failed';
export type ChargeStatus = 'pending' | 'paid' | 'canceled' | 'processing' | 'failed' | 'overpaid' | 'underpaid' | 'chargedback';
export type PixTransactionStatus = 'waiting_payment' | 'generated' | 'paid' | 'failed' | 'canceled' | 'refunded' | 'captured' | 'not_authorized';

export interface StoredCustomer {
  id: string;
  name: string;
  email?: string;
  document?: string;
  documentType?: string;
  type?: 'individual' | 'company';
  phones: { mobile_phone?: PhoneRequest; home_phone?: PhoneRequest };
  createdAt: Date;
  updatedAt: Date;
}

/** A boleto transaction's printable parts (Pagar.me GetBoletoTransactionResponse). */
export interface BoletoDetails {
  line: string;
  barcode: string;
  url: string;
  pdf: string;
  dueAt: Date;
  instructions?: string;
}

export interface PixTransaction {
  id: string;
  /** Set on boleto charges (then `qrCode` is empty and the charge never expires by itself). */
  boleto?: BoletoDetails;
  /** Set on credit card charges (card-payments.ts; `qrCode` empty, authorized at creation). */
  card?: CardTransactionDetails;
  status: PixTransactionStatus;
  qrCode: string;
  expiresAt: Date;
  pixProviderTid: string;
  additionalInformation?: { name: string; value: string }[];
  endToEndId?: string;
  payer?: { name: string; document: string; document_type: 'cpf'; bank_account: { bank_name: string; ispb: string } };
  createdAt: Date;
  updatedAt: Date;
}

/**
 * One cancel operation on a paid charge (a refund), listed by `GET /charges/:id/transactions`.
 * `operationReference` is the `operation_reference` of the DELETE body, echoed in the
 * transaction's `metadata` (the emulator's reading; the public docs do not show the echo).
 */
export interface RefundTransaction {
  id: string;
  amount: number;
  status: 'refunded';
  operationReference?: string;
  /** Boleto: the payer's bank account the money goes to (only its presence is kept). */
  toBankAccount: boolean;
  createdAt: Date;
}

export interface StoredCharge {
  id: string;
  orderId: string;
  code: string;
  amount: number;
  status: ChargeStatus;
  paidAmount?: number;
  canceledAmount?: number;
  paidAt?: Date;
  canceledAt?: Date;
  createdAt: Date;
  updatedAt: Date;
  transaction: PixTransaction;
  /** Refunds of the paid charge, oldest first. */
  refunds?: RefundTransaction[];
  /** The payment's split rules (split-rules.ts): who gets what when paid, who gives back on refunds. */
  split?: StoredSplitRule[];
}

export interface StoredOrder {
  accountId: string;
  id: string;
  code: string;
  amount: number;
  items: { id: string; amount: number; description: string; quantity: number; code?: string; category?: string }[];
  customer: StoredCustomer;
  status: OrderStatus;
  metadata: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
  charge: StoredCharge;
}

export interface WebhookConfig {
  url: string;
  events: string[];
}

export interface WebhookDelivery extends DeliveryRecord {
  id: string;
  accountId: string;
  type: string;
  /** The URL posted to, without its query string (it carries the receiver's secret). */
  urlWithoutQuery: string;
  chargeIds: string[];
}
