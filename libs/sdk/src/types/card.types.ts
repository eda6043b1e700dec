import type { Metadata, Mode, PageParams } from './common.types';
import type { CustomerInput } from './payment.types';

export type CardBrand = 'visa' | 'mastercard' | 'elo' | 'hipercard' | 'american-express' | 'diners-club' | 'discover' | 'jcb';

/** A saved card (spec §2). Never the number nor the security code. */
export interface Card {
  id: string;
  object: 'card';
  mode: Mode;
  brand: CardBrand;
  last4: string;
  exp_month: number;
  exp_year: number;
  holder_name: string;
  /** The same for the same number at this merchant. */
  fingerprint: string;
  /** The customer's id (cus_…). */
  customer: string;
  /** Until when the security code still exists; null after the first approval or 1 hour. */
  cvc_available_until: string | null;
  metadata: Metadata;
  created_at: string;
}

export interface DeletedCard extends Card {
  deleted: true;
}

/** The card fields' configuration of the key's mode. */
export interface CardsConfig {
  object: 'cards_config';
  mode: Mode;
  /** Absolute address of the card fields' script (`<script src>` on your page). */
  script: string;
  /** pk_test_… / pk_live_…: for `Orquestra.cardFields({ publishableKey })`; not a secret. */
  publishable_key: string;
  /** Sites allowed to show the fields; empty: any. */
  allowed_origins: string[];
  /** The vault is on in this mode. */
  enabled: boolean;
}

export interface UpdateCardsConfigParams {
  /** The whole list (replaces it); empty allows any site. */
  allowed_origins: string[];
}

/** Save a card from the card fields' tok_…: exactly one of `customer` (name and document) or `customer_id`. */
export type CreateCardParams = {
  vault_token: string;
  holder_name: string;
  metadata?: Metadata;
} & ({ customer: CustomerInput & { document: string }; customer_id?: never } | { customer_id: string; customer?: never });

export interface ListCardsParams extends PageParams {
  customer_id?: string;
}
