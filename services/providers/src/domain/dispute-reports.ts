import { PROVIDER_DISPUTE_UPDATED, type ProviderDisputeUpdated } from '@orquestra/contracts';
import { newEvent, type EventEnvelope } from '@orquestra/platform';
import type { ProviderDispute } from '../adapters/provider-disputes';
import type { ProviderAccountDoc } from '../db/provider-account.model';

/** A provider dispute as the internal event carries it. */
export function toDisputeReport(account: Pick<ProviderAccountDoc, '_id' | 'provider'>, dispute: ProviderDispute, via: 'webhook' | 'poll'): ProviderDisputeUpdated {
  return {
    account_id: account._id,
    provider: account.provider,
    provider_dispute_id: dispute.providerDisputeId,
    ...(dispute.providerPaymentId ? { provider_payment_id: dispute.providerPaymentId } : {}),
    ...(dispute.endToEndId ? { end_to_end_id: dispute.endToEndId } : {}),
    kind: dispute.kind,
    status: dispute.status,
    provider_status: dispute.providerStatus,
    ...(dispute.amount ? { amount: dispute.amount } : {}),
    ...(dispute.reason ? { reason: dispute.reason } : {}),
    ...(dispute.openedAt ? { opened_at: dispute.openedAt.toISOString() } : {}),
    ...(dispute.answerDueAt ? { answer_due_at: dispute.answerDueAt.toISOString() } : {}),
    accepts_evidence: dispute.acceptsEvidence,
    via,
  };
}

/** The internal event for one provider dispute of `account` (written to an outbox by the caller). */
export function disputeEvent(account: Pick<ProviderAccountDoc, '_id' | 'provider' | 'merchant_id' | 'mode'>, dispute: ProviderDispute, via: 'webhook' | 'poll'): EventEnvelope {
  return newEvent(PROVIDER_DISPUTE_UPDATED, { merchant_id: account.merchant_id, mode: account.mode }, toDisputeReport(account, dispute, via) as unknown as Record<string, unknown>);
}
