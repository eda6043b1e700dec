import { outboxSchemaFields, type DueWorkFields, type OutboxFields, type OutboxLeaseFields } from '@orquestra/platform';
import { Schema, type Connection, type Model } from 'mongoose';
import type { FindingKind } from './matching';

export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const ACCOUNT_STATUSES = ['pending', 'running', 'done', 'unsupported', 'failed'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** Counters of one account, computed once the account is done (from the markers and findings). */
export interface AccountCounts {
  listed: number;
  matched: number;
  missing_at_provider: number;
  unknown_to_orquestra: number;
  status_differences: number;
  amount_differences: number;
  fee_differences: number;
  refund_differences: number;
  fixed: number;
}

/** One provider account of a run, with where the run is in it. */
export interface RunAccountDoc {
  provider_account_id: string;
  provider: string;
  status: AccountStatus;
  /** listing: paging through the provider's list; missing: our payments the list did not show. */
  phase: 'listing' | 'missing';
  /** The provider's cursor for the next page ('' for the first). */
  cursor: string;
  /** Failed tries of the current slice in a row (reset by a slice that succeeds). */
  tries: number;
  error: string;
  /**
   * What the provider's list left out or could not tell (Portuguese, once each), as the providers
   * service notes it on a page (an Efí app without the API Cobranças: boletos not checked).
   * Absent on runs stored before notes existed.
   */
  notes?: string[];
  counts: AccountCounts | null;
}

/**
 * A reconciliation run (collection `reconciliation_runs`). Due work (DueWorker) while queued or
 * running; every slice ends in one conditional write on `version`, so a slice whose write lost
 * (another replica took over, or the process died) leaves the run where it was and is done again.
 */
export interface RunDoc extends OutboxFields, OutboxLeaseFields, DueWorkFields {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  source_key_id: string;
  status: RunStatus;
  start: Date;
  end: Date;
  fix: boolean;
  /** Fixed at the first slice (null before it): the merchant's provider accounts in the run's mode. */
  accounts: RunAccountDoc[] | null;
  failure_reason: string;
  /** Failed tries to list the accounts (the first slice); absent until one fails. */
  tries?: number;
  version: number;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

/** A charge a run saw at an account (collection `reconciliation_seen`): the id makes it once per run. */
export interface SeenDoc {
  /** `<run>:<account>:<provider payment id>` (seenId). */
  _id: string;
  run_id: string;
  provider_account_id: string;
  provider_payment_id: string;
  payment_id: string;
  /** list: the provider listed it; lookup: our payment the list missed, found by GetCharge; missing: not found. */
  source: 'list' | 'lookup' | 'missing';
  created_at: Date;
}

/** One difference (collection `reconciliation_findings`); the id is deterministic (findingId). */
export interface FindingDoc {
  _id: string;
  run_id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  provider_account_id: string;
  kind: FindingKind;
  payment_id: string;
  provider_payment_id: string;
  ours: Record<string, string>;
  theirs: Record<string, string>;
  fix_result: string;
  /** The sync left the payment agreeing with the provider. */
  fixed: boolean;
  created_at: Date;
}

const countsSchema = new Schema<AccountCounts>(
  {
    listed: Number,
    matched: Number,
    missing_at_provider: Number,
    unknown_to_orquestra: Number,
    status_differences: Number,
    amount_differences: Number,
    fee_differences: Number,
    refund_differences: Number,
    fixed: Number,
  },
  { _id: false },
);

const accountSchema = new Schema<RunAccountDoc>(
  {
    provider_account_id: { type: String, required: true },
    provider: { type: String, default: '' },
    status: { type: String, enum: ACCOUNT_STATUSES, required: true },
    phase: { type: String, enum: ['listing', 'missing'], required: true },
    cursor: { type: String, default: '' },
    tries: { type: Number, default: 0 },
    error: { type: String, default: '' },
    notes: { type: [String], default: [] },
    counts: { type: countsSchema, default: null },
  },
  { _id: false },
);

const runSchema = new Schema<RunDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    source_key_id: { type: String, default: '' },
    status: { type: String, enum: RUN_STATUSES, required: true },
    start: { type: Date, required: true },
    end: { type: Date, required: true },
    fix: { type: Boolean, default: false },
    accounts: { type: [accountSchema], default: null },
    failure_reason: { type: String, default: '' },
    tries: { type: Number },
    version: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    completed_at: { type: Date, default: null },
    ...outboxSchemaFields,
    due_at: { type: Date, default: null },
  },
  { versionKey: false, minimize: false },
);
// Lists: newest first per merchant and mode (ids sort by creation time).
runSchema.index({ merchant_id: 1, mode: 1, _id: -1 });
runSchema.index({ due_at: 1 });
runSchema.index({ outbox_since: 1 });

const seenSchema = new Schema<SeenDoc>(
  {
    _id: { type: String, required: true },
    run_id: { type: String, required: true },
    provider_account_id: { type: String, required: true },
    provider_payment_id: { type: String, required: true },
    payment_id: { type: String, default: '' },
    source: { type: String, enum: ['list', 'lookup', 'missing'], required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false },
);
// The account's counters and the "not seen" check of the missing phase.
seenSchema.index({ run_id: 1, provider_account_id: 1, payment_id: 1 });

const findingSchema = new Schema<FindingDoc>(
  {
    _id: { type: String, required: true },
    run_id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    provider_account_id: { type: String, required: true },
    kind: { type: String, required: true },
    payment_id: { type: String, default: '' },
    provider_payment_id: { type: String, default: '' },
    ours: { type: Schema.Types.Mixed, default: {} },
    theirs: { type: Schema.Types.Mixed, default: {} },
    fix_result: { type: String, default: '' },
    fixed: { type: Boolean, default: false },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
// ListFindings pages in the order found (created_at, then id), all kinds or one.
findingSchema.index({ run_id: 1, created_at: 1, _id: 1 });
findingSchema.index({ run_id: 1, kind: 1, created_at: 1, _id: 1 });
findingSchema.index({ run_id: 1, provider_account_id: 1, kind: 1 });

export interface ReconciliationModels {
  runs: Model<RunDoc>;
  seen: Model<SeenDoc>;
  findings: Model<FindingDoc>;
}

export function registerReconciliationModels(connection: Connection): ReconciliationModels {
  return {
    runs: connection.model<RunDoc>('ReconciliationRun', runSchema, 'reconciliation_runs'),
    seen: connection.model<SeenDoc>('ReconciliationSeen', seenSchema, 'reconciliation_seen'),
    findings: connection.model<FindingDoc>('ReconciliationFinding', findingSchema, 'reconciliation_findings'),
  };
}
