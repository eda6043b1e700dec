/**
 * The provider's own records of charges over a period (issue 18, reconciliation): what the
 * provider says it charged, read page by page so a reconciliation run can stop and resume where it
 * stopped (the cursor is kept with the run). Optional capability of an adapter
 * (`ChargeListingCapable`); each adapter uses its provider's list API (Efí `GET /v2/cob` with
 * inicio/fim, Mercado Pago payments search, Asaas `GET /v3/payments` with date filters, Pagar.me
 * `GET /orders`, Woovi `GET /api/v1/charge`, Stripe `GET /v1/payment_intents` with `created`).
 *
 * Amounts are integer cents; dates are instants.
 */
import type { ChargeMethod, ProviderAdapter, ProviderChargeStatus } from './provider-adapter';

/** Charges created in [from, to). */
export interface ChargePeriod {
  from: Date;
  to: Date;
}

/** One charge as the provider's list shows it. */
export interface ListedCharge {
  /** The same id getCharge takes (and Orquestra stores as provider_payment_id). */
  providerPaymentId: string;
  status: ProviderChargeStatus;
  amount: number;
  /** Cents refunded so far, as the provider reports. */
  amountRefunded: number;
  /** The provider's fee in cents, when its list reports one (null: not reported). */
  fee: number | null;
  method: ChargeMethod | null;
  createdAt: Date;
  /**
   * Our own reference, when the charge carries one the adapter set at creation (txid, external
   * reference, metadata, correlation id): lets a charge be matched even without its provider id.
   */
  reference: string | null;
}

export interface ChargePage {
  charges: ListedCharge[];
  /** Opaque: give it back for the next page; null when this was the last one. */
  next: string | null;
  /**
   * What the run must show about this account's list besides its charges (Portuguese, for the
   * merchant): a part the adapter could not read, e.g. an Efí app without the API Cobranças has
   * its Pix listed and its boletos not. Kept on the run's account report (`notes`).
   */
  notes?: string[];
}

export interface ChargeListingCapable {
  /** One page of the charges created in the period, oldest first where the API allows; `cursor` null for the first page. */
  listCharges(period: ChargePeriod, cursor: string | null): Promise<ChargePage>;
}

/** Charges of one offset page asked for again on the next one (see nextListOffset). */
export const LIST_PAGE_OVERLAP = 5;

/**
 * The next offset of an offset-paged list (Asaas, Woovi) after a page of `received` charges. The
 * pages overlap: a charge deleted meanwhile (those providers drop deleted charges from their
 * lists) shifts the later ones back, and without the overlap the first of the next page would
 * never be listed. Repeats are harmless (the reconciler dedupes by provider id). Small pages
 * (under 4 × the overlap: tests' pages of 2) move by their whole size.
 */
export function nextListOffset(offset: number, received: number): number {
  return offset + (received >= 4 * LIST_PAGE_OVERLAP ? received - LIST_PAGE_OVERLAP : received);
}

export function isChargeListingCapable(adapter: ProviderAdapter): adapter is ProviderAdapter & ChargeListingCapable {
  return typeof (adapter as Partial<ChargeListingCapable>).listCharges === 'function';
}
