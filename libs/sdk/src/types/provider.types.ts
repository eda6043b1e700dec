import type { Mode, PaymentMethod } from './common.types';

export interface CredentialField {
  name: string;
  label: string;
  secret: boolean;
}

export interface ProviderCapabilities {
  methods: string[];
  partial_refunds: boolean;
  disputes: boolean;
  dispute_evidence: boolean;
  subaccounts: { supported: boolean; requires: string[] };
  /** How many split parts one payment may carry at this provider (0: no splits). */
  max_splits: number;
  payouts: boolean;
  /** Where payouts by API can go from this provider's accounts; empty without payouts. */
  payout_destinations: Array<'account' | 'pix_key'>;
  subscriptions: boolean;
  card_vault: boolean;
  keeps_metadata: boolean;
  customer_requires: Record<string, string[]>;
  /** Methods whose details the provider collects on its own hosted page (card without card.token). */
  hosted_checkout: string[];
}

export interface Provider {
  code: string;
  object: 'provider';
  name: string;
  credential_fields: CredentialField[];
  capabilities: ProviderCapabilities;
  amount_unit: string;
  notes: string | null;
}

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface Fee {
  method: PaymentMethod;
  /** Percent with up to two decimals (0.99 = 0.99 %). */
  percentage: number;
  /** Cents. */
  fixed: number;
}

export interface ProviderAccount {
  id: string;
  object: 'provider_account';
  mode: Mode;
  provider: string;
  name: string;
  priority: number;
  enabled: boolean;
  methods: string[];
  customer_requires: Record<string, string[]>;
  fees: Fee[];
  /** The last 4 characters of each credential; credentials are never returned. */
  credentials_last4: Record<string, string>;
  breaker_state: BreakerState;
  keeps_metadata: boolean;
  webhook_url: string | null;
  webhook_manual_setup: boolean;
  created_at: string;
  updated_at: string;
}

export interface ConnectProviderAccountParams {
  provider: string;
  /** Named as in GET /v1/providers credential_fields. */
  credentials: Record<string, string>;
  name?: string;
  priority?: number;
  enabled?: boolean;
  fees?: Array<{ method: PaymentMethod; percentage: number; fixed?: number }>;
}

export interface UpdateProviderAccountParams {
  name?: string;
  priority?: number;
  enabled?: boolean;
  fees?: Array<{ method: PaymentMethod; percentage: number; fixed?: number }>;
}
