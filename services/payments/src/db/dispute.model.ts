import { outboxSchemaFields, type DueWorkFields, type OutboxFields, type OutboxLeaseFields } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import { DISPUTE_STATUSES, type DisputeKind, type DisputeStatus } from '../domain/disputes';

export interface DisputeEvidenceDoc {
  text: string;
  urls: string[];
  submitted_at: Date;
}

/** A dispute as stored (collection `disputes` of the payments database). */
export interface DisputeDoc extends OutboxFields, OutboxLeaseFields, DueWorkFields {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  payment_id: string;
  provider: string;
  provider_account_id: string;
  kind: DisputeKind;
  status: DisputeStatus;
  amount: number;
  reason: string;
  /** The public `due_at`: when the merchant's answer is due. */
  answer_due_at: Date;
  evidence: DisputeEvidenceDoc | null;
  /** The source key of the disputed payment (restricted keys see their own payments' events). */
  source_key_id: string;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
  /** Opened at the provider (reported by webhook or poll) or simulated here (absent: simulated). */
  source?: 'provider' | 'simulation';
  /** Set with source provider: the provider's id of the dispute, its own status, whether it takes a defense by API. */
  provider_dispute_id?: string;
  provider_status?: string;
  accepts_evidence?: boolean;
  /**
   * Counts the dispute's changes: a change computed from a read is written only while the version
   * is still the one read (DisputeStore.change). Absent on disputes stored before it existed.
   */
  version?: number;
  /** Due work (DueWorker): the answer deadline while open, the sandbox decision after evidence; null when closed or decided by the provider. */
  due_at: Date | null;
}

const evidenceSchema = new Schema<DisputeEvidenceDoc>(
  { text: { type: String, default: '' }, urls: { type: [String], default: [] }, submitted_at: { type: Date, required: true } },
  { _id: false },
);

const schema = new Schema<DisputeDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    payment_id: { type: String, required: true },
    provider: { type: String, default: '' },
    provider_account_id: { type: String, default: '' },
    kind: { type: String, enum: ['med', 'chargeback'], required: true },
    status: { type: String, enum: DISPUTE_STATUSES, required: true },
    amount: { type: Number, required: true },
    reason: { type: String, default: '' },
    answer_due_at: { type: Date, required: true },
    evidence: { type: evidenceSchema, default: null },
    source_key_id: { type: String, default: '' },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    closed_at: { type: Date, default: null },
    source: { type: String, enum: ['provider', 'simulation'] },
    provider_dispute_id: { type: String },
    provider_status: { type: String },
    accepts_evidence: { type: Boolean },
    version: { type: Number, default: 0 },
    ...outboxSchemaFields,
    due_at: { type: Date, default: null },
  },
  { versionKey: false, minimize: false },
);
// Lists: newest first, scoped by merchant and mode (the cursor is created_at then _id).
schema.index({ merchant_id: 1, mode: 1, created_at: -1, _id: -1 });
// A payment's disputes (the active one before simulating another; lists filtered by payment).
schema.index({ payment_id: 1 });
schema.index({ due_at: 1 });
schema.index({ outbox_since: 1 });

export type DisputeModel = Model<DisputeDoc>;

export function registerDisputeModel(connection: Connection): DisputeModel {
  return connection.model<DisputeDoc>('Dispute', schema, 'disputes');
}
