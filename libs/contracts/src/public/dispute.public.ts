import type { Dispute } from '../generated/orquestra/payments/v1/disputes';
import { modeName } from '../mode';
import type { DisputeStatus } from './statuses';

/** The public dispute object (spec §2, object = dispute), as REST answers and events carry it. */
export interface DisputeObject {
  id: string;
  object: 'dispute';
  kind: 'med' | 'chargeback';
  status: DisputeStatus;
  amount: number;
  reason: string | null;
  due_at: string;
  payment_id: string;
  provider: string;
  mode: 'test' | 'live';
  evidence: { text: string; urls: string[]; submitted_at: string } | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

const orNull = (value: string | undefined): string | null => (value ? value : null);

/** The one definition of the public dispute shape, from the gRPC message. */
export function toPublicDispute(dispute: Dispute): DisputeObject {
  return {
    id: dispute.id,
    object: 'dispute',
    kind: dispute.kind as DisputeObject['kind'],
    status: dispute.status as DisputeObject['status'],
    amount: dispute.amount,
    reason: orNull(dispute.reason),
    due_at: dispute.due_at,
    payment_id: dispute.payment_id,
    provider: dispute.provider,
    mode: modeName(dispute.mode),
    evidence: dispute.evidence ? { text: dispute.evidence.text, urls: dispute.evidence.urls, submitted_at: dispute.evidence.submitted_at } : null,
    created_at: dispute.created_at,
    updated_at: dispute.updated_at,
    closed_at: orNull(dispute.closed_at),
  };
}
