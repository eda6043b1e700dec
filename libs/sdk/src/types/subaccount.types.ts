import type { Metadata, Mode, PageParams } from './common.types';

export type SubaccountStatus = 'pending' | 'active' | 'refused' | 'blocked' | 'inactive';
export type SubaccountType = 'individual' | 'company';

/** A seller's account at the provider of one connected account: split payments pay into it. */
export interface Subaccount {
  /** sub_… */
  id: string;
  object: 'subaccount';
  mode: Mode;
  /** pending while the provider analyses the registration; only active receives splits and withdraws. */
  status: SubaccountStatus;
  /** Portuguese explanation of the status, when there is one. */
  status_detail: string | null;
  provider: string;
  /** The connected account holding it (pa_…). */
  provider_account_id: string;
  /** The provider's own id (recipient, account or Pix key, by provider); null until the provider answers. */
  provider_subaccount_id: string | null;
  type: SubaccountType;
  name: string;
  /** CPF/CNPJ without punctuation (alphanumeric CNPJ upper case). */
  document: string;
  email: string | null;
  /** Masked: bank account, login e-mail, wallet id. Credentials issued for the subaccount are never shown. */
  details: Record<string, string>;
  metadata: Metadata;
  created_at: string;
  updated_at: string;
}

/** GET /subaccounts/{id}: the subaccount with what its split payments add up to. */
export interface SubaccountDetail extends Subaccount {
  totals: {
    /** Payments with a split to it, whatever their status. */
    payments: number;
    /** Of them, the paid ones (refunded later included), and the sum of its parts in them (cents). */
    paid_payments: number;
    paid_amount: number;
    /** Cents of its parts in payments not paid yet. */
    pending_amount: number;
  };
  /** The 10 most recent payments splitting to it, newest first. */
  recent_split_payments: Array<{ payment_id: string; status: string; method: string | null; payment_amount: number; amount: number; created_at: string }>;
}

export interface SubaccountAddress {
  /** CEP, 8 digits (a dash is accepted). */
  zip: string;
  street: string;
  number: string;
  neighborhood: string;
  city: string;
  /** UF, 2 letters. */
  state: string;
  complement?: string;
}

/** A person: the subaccount's holder (top level of the create body) or a company's administrator partner. */
export interface SubaccountPersonParams {
  name: string;
  /** CPF or CNPJ (alphanumeric CNPJ included), checked by its check digits; punctuation accepted. */
  document: string;
  email?: string;
  phone?: string;
  /** YYYY-MM-DD */
  birthdate?: string;
  mother_name?: string;
  occupation?: string;
  /** Cents. */
  monthly_income?: number;
  address?: SubaccountAddress;
}

/**
 * POST /v1/subaccounts. Which fields are required depends on the connected account's provider
 * (`providers.list()`, capabilities.subaccounts.requires); a missing one is a 400 naming it.
 */
export interface CreateSubaccountParams extends SubaccountPersonParams {
  /** The connected account where the subaccount is created (pa_…). */
  provider_account_id: string;
  /** Omitted: from the document (CPF individual, CNPJ company). */
  type?: SubaccountType;
  /** Same CPF/CNPJ as the subaccount. */
  bank_account?: {
    /** 3 digits. */
    bank: string;
    branch: string;
    branch_digit?: string;
    account: string;
    account_digit?: string;
    type?: 'checking' | 'savings';
    holder_name?: string;
  };
  /** Where the subaccount's withdrawals go. */
  pix_key?: { key_type: 'cpf' | 'cnpj' | 'email' | 'phone' | 'random'; key: string };
  company?: {
    trading_name?: string;
    /** Provider-specific, e.g. MEI, LIMITED, INDIVIDUAL, ASSOCIATION, LTDA. */
    company_type?: string;
    /** YYYY-MM-DD */
    founding_date?: string;
    /** Cents. */
    annual_revenue?: number;
  };
  /** A company's administrator partner. */
  partner?: SubaccountPersonParams;
  /** Automatic transfer, at one provider. */
  transfer_interval?: 'daily' | 'weekly' | 'monthly';
  /** Up to 20 keys. */
  metadata?: Metadata;
}

/** PATCH /v1/subaccounts/{id}: changed in the service only, never at the provider. */
export interface UpdateSubaccountParams {
  name?: string;
  /** Replaces the metadata; a key with an empty value is removed. */
  metadata?: Metadata;
}

export interface ListSubaccountsParams extends PageParams {
  status?: SubaccountStatus;
  provider_account_id?: string;
  /** Part of the name, the document or the e-mail. */
  q?: string;
}

/** Where the holder completes the provider's identity verification. */
export interface SubaccountOnboardingLink {
  url: string;
  /** ISO 8601; ask for another link after it. */
  expires_at: string;
  /** PNG base64 of the same link, when the provider gives one. */
  qr_code_base64: string | null;
}

/** A subaccount's balance, read at the provider now. */
export interface SubaccountBalance {
  object: 'balance';
  /** Cents available to withdraw now. */
  available: number;
  /** Cents still to be released, when the provider reports it. */
  pending: number | null;
  currency: 'BRL';
  /** When the provider computed it (ISO 8601). */
  as_of: string;
}
