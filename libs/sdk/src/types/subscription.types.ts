import type { Metadata, Mode, PageParams } from './common.types';
import type { AddressInput, Payment, TrackingKey } from './payment.types';

export type SubscriptionStatus = 'pending' | 'active' | 'canceled' | 'refused' | 'expired';
export type SubscriptionFrequency = 'weekly' | 'monthly' | 'quarterly' | 'semiannually' | 'annually';

/** What the payer scans or opens in the bank app to approve the recurrence; only while pending. */
export interface SubscriptionApproval {
  /** Pix copy-and-paste code. */
  qr_code: string;
  qr_code_base64: string | null;
  url: string | null;
}

export interface SubscriptionCustomer {
  id: string;
  name: string;
  /** CPF or CNPJ, digits only. */
  document: string;
}

/** A subscription (automatic recurring Pix, "Pix Automático"). */
export interface Subscription {
  id: string;
  object: 'subscription';
  mode: Mode;
  status: SubscriptionStatus;
  /** Cents per cycle; null for a variable amount. */
  amount: number | null;
  /** Cents of the first cycle, paid at approval. */
  first_amount: number;
  currency: 'BRL';
  frequency: SubscriptionFrequency;
  /** YYYY-MM-DD. */
  start_date: string;
  end_date: string | null;
  next_charge_date: string | null;
  description: string;
  retry: boolean;
  provider: string;
  provider_account_id: string;
  approval: SubscriptionApproval | null;
  customer: SubscriptionCustomer;
  metadata: Metadata;
  tracking: Record<string, string>;
  created_at: string;
  updated_at: string;
}

/** GET /v1/subscriptions/{id}: the subscription with its cycles, newest first. */
export interface SubscriptionDetail extends Subscription {
  payments: Payment[];
}

export interface CreateSubscriptionParams {
  /** The payer: name and CPF/CNPJ required; the address when the account asks for it. */
  customer: { name: string; document: string; email?: string; phone?: string; address?: AddressInput };
  frequency: SubscriptionFrequency;
  /** Cents per cycle; omitted or null for a variable amount. */
  amount?: number | null;
  /** Cents of the first cycle (paid at approval); defaults to amount, required without it. */
  first_amount?: number;
  /** Shown in the payer's bank app; at most 35 characters. */
  description?: string;
  /** YYYY-MM-DD, today or later; defaults to today. */
  start_date?: string;
  /** YYYY-MM-DD, after start_date; omitted for no end. */
  end_date?: string;
  /** The bank retries a failed cycle up to 3 times within 7 days; default true. */
  retry?: boolean;
  metadata?: Metadata;
  tracking?: Partial<Record<TrackingKey, string>>;
  provider_account_id?: string;
}

export interface ListSubscriptionsParams extends PageParams {
  status?: SubscriptionStatus;
}

/** POST /v1/subscriptions/{id}/charge: one cycle's charge. */
export interface ChargeSubscriptionParams {
  /** Cents; required when the subscription's amount is variable. */
  amount?: number;
  /** YYYY-MM-DD, a business day 2 to 10 business days ahead; omitted: the next charge date. */
  due_date?: string;
}
