/**
 * Money out of a provider account (psp-apis.md: Efí Pix send, Asaas transfers, Pagar.me
 * withdrawals, Woovi payments, Stripe payouts) and the account's balance. Optional capability of an
 * adapter (`PayoutCapable`); the payouts service drives it through the providers service, and the
 * catalog's `payouts` capability is derived from it.
 *
 * Never twice: every transfer is created under our payout id (`payoutId`), which the adapter turns
 * into the provider's own idempotency handle (Efí `idEnvio`, Woovi `correlationID`, Stripe
 * `Idempotency-Key`, Asaas/Pagar.me: looked up by our id in the description/metadata before any
 * create is repeated). `getTransfer` finds a transfer by that same id, so a payout whose create had
 * no answer is resolved by asking, never by sending again.
 *
 * Amounts are integer cents; dates are instants.
 */
import type { ProviderAdapter, WebhookRequest } from './provider-adapter';

/** The account's money at the provider now. `pending` is what the provider holds back (not yet released, blocked). */
export interface ProviderBalance {
  /** Cents that can be paid out now. */
  available: number;
  /** Cents not yet available (receivables, blocked), when the provider says; absent when it does not. */
  pending?: number;
  currency: 'BRL';
  /** When the provider computed it, when it says; else when we read it. */
  asOf: Date;
}

export type PayoutDestination =
  /** The bank account registered at the provider (the account's own). */
  | { type: 'account' }
  /** A Pix key (CPF, CNPJ, e-mail, phone +55…, or random EVP). */
  | { type: 'pix_key'; keyType: 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp'; key: string };

export interface CreateTransferInput {
  /** Our payout id (po_…): the idempotency handle at the provider and how getTransfer finds it. */
  payoutId: string;
  amount: number;
  destination: PayoutDestination;
  /** Up to 140 characters, shown where the provider shows one. */
  description?: string;
}

/**
 * pending: accepted, not yet sent to the bank; processing: with the bank; paid: the money arrived;
 * failed: refused or returned (failureCode/failureReason say why); canceled: withdrawn before it left.
 */
export type TransferStatus = 'pending' | 'processing' | 'paid' | 'failed' | 'canceled';

export interface ProviderTransfer {
  providerTransferId: string;
  /** Our payout id, as the provider echoes it (or as we looked it up). */
  payoutId: string;
  status: TransferStatus;
  /** The provider's own status word, for support. */
  providerStatus: string;
  amount: number;
  /** Cents the provider charged for it, when it says. */
  fee?: number;
  failureCode?: string;
  /** Portuguese, for the API. */
  failureReason?: string;
  paidAt?: Date;
  /** The Pix end-to-end id, when the transfer was a Pix. */
  endToEndId?: string;
  /** A withdrawal whose provider takes the whole balance: `amount` is what left. */
  wholeBalance?: boolean;
}

/** A transfer change a webhook reports (its id, to read back). */
export type TransferWebhookParseResult =
  | { ok: true; eventKey: string; transfers: Array<{ providerTransferId: string; payoutId?: string }> }
  | { ok: false; reason: 'unauthenticated' | 'malformed'; httpStatus: number };

/**
 * Balance and payouts for one account. Errors are ProviderError as for charges; a create whose
 * answer was lost is `ambiguous` (the payouts service then asks getTransfer, never creates again);
 * a refusal of our input is `rejected` with `param` (insufficient balance: `normalizedCode`
 * 'insufficient_balance', which the API answers as such); `not_found` from getTransfer means no transfer was made under that id.
 *
 * @example
 * const balance = await adapter.getBalance();              // { available: 125000, currency: 'BRL', asOf }
 * const t = await adapter.createTransfer({ payoutId: 'po_01…', amount: 5000, destination: { type: 'pix_key', keyType: 'email', key: 'fin@loja.com' } });
 * // later, or after a timeout: the same transfer, found by our id
 * const again = await adapter.getTransfer({ payoutId: 'po_01…', providerTransferId: t.providerTransferId });
 */
export interface PayoutCapable {
  getBalance(): Promise<ProviderBalance>;
  /** Which destinations this provider pays to by API. */
  readonly payoutDestinations: ReadonlyArray<PayoutDestination['type']>;
  createTransfer(input: CreateTransferInput): Promise<ProviderTransfer>;
  /** By our payout id (and the provider's id when known). `not_found`: nothing was made under that id. */
  getTransfer(input: { payoutId: string; providerTransferId?: string }): Promise<ProviderTransfer>;
  /** Verifies and reads a delivery for transfer changes; `transfers` empty for a delivery about something else. */
  parseTransferWebhook?(request: WebhookRequest): TransferWebhookParseResult;
}


/** PayoutCapable's required methods: the catalog's `payouts` and the RPCs read the adapter through these. */
export const PAYOUT_METHODS = ['getBalance', 'createTransfer', 'getTransfer'] as const satisfies readonly (keyof PayoutCapable)[];

export function isPayoutCapable(adapter: ProviderAdapter): adapter is ProviderAdapter & PayoutCapable {
  const candidate = adapter as Partial<PayoutCapable>;
  return PAYOUT_METHODS.every((name) => typeof candidate[name] === 'function') && (candidate.payoutDestinations?.length ?? 0) > 0;
}
