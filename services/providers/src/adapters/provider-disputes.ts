/**
 * Disputes at the provider (MED infraction notices for Pix, chargebacks for card), as adapters
 * report them and answer them. Optional capabilities of ProviderAdapter: a provider that pushes
 * disputes by webhook reports them from `parseWebhook` (`disputes`) or, when its webhook only names
 * them, lists their ids (`disputeIds`) for the intake to read back with `readDispute`; one that exposes a list is
 * polled through `listDisputes`, and one that takes a defense through its API implements
 * `submitDisputeEvidence`.
 */

/** Our dispute statuses (payments' domain/disputes.ts); every provider status maps onto one. */
export type ProviderDisputeStatus = 'open' | 'under_review' | 'won' | 'lost' | 'canceled';

export interface ProviderDispute {
  /** The provider's id of the dispute, stable across its changes. */
  providerDisputeId: string;
  kind: 'med' | 'chargeback';
  status: ProviderDisputeStatus;
  /** The provider's own status word, for support. */
  providerStatus: string;
  /** The disputed Pix. */
  endToEndId?: string;
  /** The disputed charge, when the provider names it. */
  providerPaymentId?: string;
  /** Cents; absent when the provider does not say. */
  amount?: number;
  reason?: string;
  openedAt?: Date;
  /** The provider's deadline for the answer, when it gives one. */
  answerDueAt?: Date;
  /** Whether this provider takes a defense for it through its API. */
  acceptsEvidence: boolean;
}

export interface ListDisputesInput {
  /** Disputes opened from (inclusive). */
  since: Date;
  /** … until (inclusive). */
  until: Date;
}

export interface DisputeEvidenceInput {
  providerDisputeId: string;
  /** The merchant's answer; urls are public links to proof. */
  text: string;
  urls: string[];
}

/**
 * Adapter methods for disputes, both optional.
 *
 * @example
 * const open = await adapter.listDisputes?.({ since: daysAgo(30), until: new Date() });
 * await adapter.submitDisputeEvidence?.({ providerDisputeId: open[0].providerDisputeId, text, urls });
 */
export interface DisputeCapable {
  /** Every dispute opened in the window (polled); the provider's answer is the truth. */
  listDisputes?(input: ListDisputesInput): Promise<ProviderDispute[]>;
  /**
   * Sends the merchant's defense. Refusals (dispute no longer open, deadline passed) throw
   * ProviderError `rejected`. Repeating an accepted defense is the provider's to refuse.
   */
  submitDisputeEvidence?(input: DisputeEvidenceInput): Promise<void>;
  /**
   * The charge (provider payment id) a reported dispute is about, for providers whose reports name
   * only the Pix (Woovi); undefined when the provider knows no such Pix.
   */
  chargeOfDispute?(dispute: ProviderDispute): Promise<string | undefined>;
  /**
   * The dispute as the provider has it now, for providers whose webhook only names it (Mercado
   * Pago's `chargebacks` topic): the webhook is a hint, this read is the report. Undefined when the
   * provider knows no such dispute (or one of a status we do not know, never guessed).
   */
  readDispute?(providerDisputeId: string): Promise<ProviderDispute | undefined>;
}
