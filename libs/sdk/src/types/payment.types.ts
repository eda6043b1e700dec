import type { Metadata, Mode, PageParams, PaymentMethod } from './common.types';

export type PaymentStatus =
  | 'requires_method'
  | 'pending'
  | 'processing'
  | 'succeeded'
  | 'failed'
  | 'canceled'
  | 'refunded'
  | 'partially_refunded';

/** Statuses after which a bot stops polling (spec §1 rule 2; canceled includes expired). */
export const FINAL_PAYMENT_STATUSES: readonly PaymentStatus[] = ['succeeded', 'failed', 'canceled', 'refunded', 'partially_refunded'];

export interface NextAction {
  type: 'pix_qr' | 'boleto' | 'redirect' | 'none';
  qr_code: string | null;
  qr_code_base64: string | null;
  qr_code_url: string | null;
  digitable_line: string | null;
  url: string | null;
}

export interface AddressOutput {
  street: string | null;
  number: string | null;
  neighborhood: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  complement: string | null;
}

export interface Customer {
  name: string | null;
  email: string | null;
  document: string | null;
  phone: string | null;
  address: AddressOutput | null;
}

export interface Split {
  subaccount_id: string;
  amount: number;
}

export interface Payment {
  id: string;
  object: 'payment';
  mode: Mode;
  method: PaymentMethod | null;
  status: PaymentStatus;
  /** Cents. */
  amount: number;
  amount_refunded: number;
  currency: 'BRL';
  fee: number;
  net: number;
  provider: string | null;
  provider_account_id: string | null;
  provider_payment_id: string | null;
  next_action: NextAction | null;
  metadata: Metadata;
  failure_reason: string | null;
  failure_code: string | null;
  end_to_end_id: string | null;
  subscription_id: string | null;
  splits: Split[];
  payment_url: string | null;
  expires_at: string | null;
  tracking: Record<string, string>;
  customer: Customer | null;
  description: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface PaymentAttempt {
  id: string;
  object: 'payment_attempt';
  provider_account_id: string | null;
  provider: string | null;
  outcome: string;
  failure_code: string | null;
  failure_reason: string | null;
  latency_ms: number;
  created_at: string;
}

export interface PaymentEventRef {
  id: string;
  type: string;
  created: number;
}

export interface Refund {
  id: string;
  object: 'refund';
  payment_id: string;
  amount: number;
  status: 'pending' | 'succeeded' | 'failed';
  reason: string | null;
  source: 'service' | 'provider';
  provider_refund_id: string | null;
  failure_code: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** GET /v1/payments/{id}: the payment with its attempts, refunds and events. */
export interface PaymentDetail extends Payment {
  attempts: PaymentAttempt[];
  refunds: Refund[];
  events: PaymentEventRef[];
}

export interface RefundResult {
  refund: Refund;
  payment: Payment;
}

export interface AddressInput {
  street: string;
  number: string;
  neighborhood: string;
  city: string;
  /** UF, 2 letters. */
  state: string;
  /** CEP, 8 digits (dash accepted). */
  zip: string;
  complement?: string;
}

export interface CustomerInput {
  name: string;
  email?: string;
  /** CPF (11 digits) or CNPJ (14 digits); punctuation accepted. */
  document?: string;
  phone?: string;
  address?: AddressInput;
  /** Buyer IP; defaults to the caller's. */
  ip?: string;
}

export type TrackingKey =
  | 'utm_source'
  | 'utm_medium'
  | 'utm_campaign'
  | 'utm_content'
  | 'utm_term'
  | 'src'
  | 'sck'
  | 'fbclid'
  | 'gclid'
  | 'ttclid'
  | 'fbp'
  | 'fbc'
  | 'ttp';

export interface CreatePaymentParams {
  method?: PaymentMethod;
  /** Cents, at least 1. */
  amount: number;
  currency?: 'BRL';
  description?: string;
  customer: CustomerInput;
  card?: { token?: string; id?: string; installments?: number; brand?: string };
  expires_in_minutes?: number;
  metadata?: Metadata;
  tracking?: Partial<Record<TrackingKey, string>>;
  provider_account_id?: string;
  splits?: Array<{ subaccount_id: string; amount?: number; percentage?: number }>;
}

export interface ListPaymentsParams extends PageParams {
  status?: PaymentStatus;
  method?: PaymentMethod;
  provider?: string;
  /** Search by payment id, or the customer's e-mail, name or document. */
  q?: string;
}

export interface RefundPaymentParams {
  /** Cents; omitted = everything still refundable. */
  amount?: number;
  reason?: string;
}
