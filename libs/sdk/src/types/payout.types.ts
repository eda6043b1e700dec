import type { Metadata, Mode, PageParams } from './common.types';

export type PayoutStatus = 'pending' | 'processing' | 'paid' | 'failed' | 'canceled';
/** A saved Pix key's type; `evp` is the random key. */
export type PixKeyType = 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp';

/** A saved Pix key (only the account owner creates them); `key` is masked, never the whole key. */
export interface PayoutDestination {
  type: 'pix_key';
  /** pdest_… — pass it as `destination.destination_id` when creating a payout. */
  destination_id: string;
  key_type: PixKeyType;
  key: string;
  label: string;
}

/** GET /v1/payout-destinations (not paginated). */
export interface PayoutDestinationList {
  object: 'list';
  data: PayoutDestination[];
}

/** Money out of a provider account, to the account registered at the provider or a saved Pix key. */
export interface Payout {
  id: string;
  object: 'payout';
  mode: Mode;
  status: PayoutStatus;
  /** Cents. On a whole-balance withdrawal (`whole_balance`), what actually left. */
  amount: number;
  /** Subaccount withdrawals only: the cents asked. */
  amount_requested?: number;
  /** Subaccount withdrawals only: the provider took the whole balance instead of the amount asked (`amount` is what left). */
  whole_balance?: boolean;
  /** The provider's fee in cents, when it reports one. */
  fee: number | null;
  currency: 'BRL';
  provider: string;
  provider_account_id: string;
  /** Present only on subaccount withdrawals. */
  subaccount_id?: string;
  destination: PayoutDestination | { type: 'account' | 'subaccount' };
  /**
   * The provider has not confirmed the payout yet: never create another one for the same money;
   * the service keeps asking (or call `payouts.sync`).
   */
  uncertain: boolean;
  description: string | null;
  metadata: Metadata;
  failure_code: string | null;
  failure_reason: string | null;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One active provider account of the key's mode and its balance at the provider. */
export interface Balance {
  provider_account_id: string;
  provider: string;
  name: string;
  /** Cents available to pay out now; null when the balance could not be read (see `error`). */
  available: number | null;
  /** Cents still to be released, when the provider reports it. */
  pending: number | null;
  currency: 'BRL';
  /** When the provider computed the balance (ISO 8601). */
  as_of: string | null;
  /** The provider pays out by API. */
  payouts_supported: boolean;
  /** The `destination.type`s a payout from this account accepts. */
  destination_types: Array<'account' | 'pix_key'>;
  /** Portuguese, when the balance could not be read now. */
  error: string | null;
}

/** GET /v1/balances. */
export interface BalanceList {
  object: 'list';
  data: Balance[];
  /** The account owner turned payouts by API on for this mode (otherwise creating one is 403 payouts_api_disabled). */
  payouts_api_enabled: boolean;
}

export interface CreatePayoutParams {
  /** The provider account the money leaves (pa_…); see `balances.list()`. */
  provider_account_id: string;
  /** Cents, at least 1. */
  amount: number;
  /** The account registered at the provider, or a saved Pix key (`payoutDestinations.list()`). */
  destination: { type: 'account' } | { type: 'pix_key'; destination_id: string };
  /** At most 140 characters. */
  description?: string;
  metadata?: Metadata;
}

/** A withdrawal from a subaccount: always to the subaccount's own destination (the Pix key given at its creation). */
export interface CreateWithdrawalParams {
  /** Cents, at least 1. A provider that withdraws the whole balance may take another amount (see `Payout.whole_balance`). */
  amount: number;
  /** At most 140 characters. */
  description?: string;
  metadata?: Metadata;
}

export type ListWithdrawalsParams = PageParams;

export interface ListPayoutsParams extends PageParams {
  status?: PayoutStatus;
  provider_account_id?: string;
}
