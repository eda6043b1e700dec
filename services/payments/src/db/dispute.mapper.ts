import { disputes as disputesContract, modeFromName } from '@orquestra/contracts';
import type { DisputeDoc } from './dispute.model';

/** Stored dispute → gRPC message. */
export function toProtoDispute(doc: DisputeDoc): disputesContract.Dispute {
  return {
    id: doc._id,
    kind: doc.kind,
    status: doc.status,
    amount: doc.amount,
    reason: doc.reason,
    due_at: doc.answer_due_at.toISOString(),
    payment_id: doc.payment_id,
    provider: doc.provider,
    provider_account_id: doc.provider_account_id,
    ...(doc.evidence ? { evidence: { text: doc.evidence.text, urls: doc.evidence.urls, submitted_at: doc.evidence.submitted_at.toISOString() } } : {}),
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    closed_at: doc.closed_at ? doc.closed_at.toISOString() : '',
    mode: modeFromName(doc.mode),
  };
}
