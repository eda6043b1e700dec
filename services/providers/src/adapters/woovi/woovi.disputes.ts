/**
 * Woovi MED disputes: wire type and exhaustive status map. Sources (developers.woovi.com, "Payload
 * de Disputa criada / aceita / rejeitada / cancelada", "Payload GET de Disputa"): webhooks
 * `OPENPIX:DISPUTE_CREATED|ACCEPTED|REJECTED|CANCELED` (newer pages spell the prefix `woovi:`)
 * carry `dispute{status, endToEndId, value (cents), disputeReason, name, email, phoneNumber}`;
 * `GET` adds `type` (MED | CHARGEBACK) and `id`.
 *
 * The webhook examples carry no dispute id, so a dispute is named by the end-to-end id of the
 * disputed Pix (one MED per Pix at a time). Woovi takes no defense through its API: the merchant
 * answers in Woovi's dashboard.
 */
import { assertNever } from '@orquestra/platform';
import type { ProviderDispute, ProviderDisputeStatus } from '../provider-disputes';

/**
 * `IN_REVIEW`: Woovi's "Em revisão", a notice Woovi is still analysing before it opens it (the docs
 * name it in prose only; the wire word is unconfirmed). The others appear in the examples.
 */
export const WOOVI_DISPUTE_STATUSES = ['OPENED', 'IN_REVIEW', 'ACCEPTED', 'REJECTED', 'CANCELED'] as const;
export type WooviDisputeStatus = (typeof WOOVI_DISPUTE_STATUSES)[number];

export interface WooviDispute {
  status: WooviDisputeStatus;
  endToEndId: string;
  value?: number;
  disputeReason?: string;
  type?: 'MED' | 'CHARGEBACK';
  id?: string;
}

/**
 * Every documented status; a new one fails to compile here. ACCEPTED means the notice was accepted
 * against the merchant (the payer gets the money back: lost); REJECTED means it was turned down
 * (won). IN_REVIEW waits on Woovi, nothing is decided yet: open.
 */
export function mapDisputeStatus(status: WooviDisputeStatus): ProviderDisputeStatus {
  switch (status) {
    case 'OPENED':
    case 'IN_REVIEW':
      return 'open';
    case 'ACCEPTED':
      return 'lost';
    case 'REJECTED':
      return 'won';
    case 'CANCELED':
      return 'canceled';
    default:
      return assertNever(status);
  }
}

const isStatus = (value: unknown): value is WooviDisputeStatus => (WOOVI_DISPUTE_STATUSES as readonly unknown[]).includes(value);

/**
 * The `dispute` object of a webhook body, or a reason it cannot be read. An unknown status is
 * `unknown_status` (acknowledged and logged, never guessed).
 */
export function wooviDisputeOf(value: unknown): { ok: true; dispute: WooviDispute } | { ok: false; reason: 'malformed' | 'unknown_status' } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'malformed' };
  const d = value as Record<string, unknown>;
  if (typeof d['endToEndId'] !== 'string' || d['endToEndId'].length === 0) return { ok: false, reason: 'malformed' };
  if (d['value'] !== undefined && (typeof d['value'] !== 'number' || !Number.isInteger(d['value']) || d['value'] < 0)) return { ok: false, reason: 'malformed' };
  if (typeof d['status'] !== 'string') return { ok: false, reason: 'malformed' };
  if (!isStatus(d['status'])) return { ok: false, reason: 'unknown_status' };
  return {
    ok: true,
    dispute: {
      status: d['status'],
      endToEndId: d['endToEndId'],
      ...(typeof d['value'] === 'number' ? { value: d['value'] } : {}),
      ...(typeof d['disputeReason'] === 'string' ? { disputeReason: d['disputeReason'] } : {}),
      ...(d['type'] === 'MED' || d['type'] === 'CHARGEBACK' ? { type: d['type'] } : {}),
      ...(typeof d['id'] === 'string' ? { id: d['id'] } : {}),
    },
  };
}

export function toProviderDispute(dispute: WooviDispute): ProviderDispute {
  return {
    providerDisputeId: dispute.endToEndId,
    kind: dispute.type === 'CHARGEBACK' ? 'chargeback' : 'med',
    status: mapDisputeStatus(dispute.status),
    providerStatus: dispute.status,
    endToEndId: dispute.endToEndId,
    ...(dispute.value && dispute.value > 0 ? { amount: dispute.value } : {}),
    ...(dispute.disputeReason ? { reason: dispute.disputeReason } : {}),
    acceptsEvidence: false,
  };
}
