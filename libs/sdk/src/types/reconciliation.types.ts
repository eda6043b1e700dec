import type { Mode, PageParams } from './common.types';

export type ReconciliationRunStatus = 'queued' | 'running' | 'completed' | 'failed';
export type ReconciliationAccountStatus = 'pending' | 'running' | 'done' | 'unsupported' | 'failed';
/**
 * `missing_at_provider`: Orquestra has the payment, the provider did not list it;
 * `unknown_to_orquestra`: the provider has a charge Orquestra never made (made in its dashboard);
 * the other four: both sides have it and disagree on the status, amount, fee or refunded amount.
 */
export type ReconciliationFindingKind =
  | 'missing_at_provider'
  | 'unknown_to_orquestra'
  | 'status_difference'
  | 'amount_difference'
  | 'fee_difference'
  | 'refund_difference';

/** What a run found at one provider account. */
export interface ReconciliationAccountReport {
  provider_account_id: string;
  provider: string;
  status: ReconciliationAccountStatus;
  /** Charges the provider listed for the period. */
  listed: number;
  /** Charges on which both sides agree. */
  matched: number;
  missing_at_provider: number;
  unknown_to_orquestra: number;
  status_differences: number;
  amount_differences: number;
  fee_differences: number;
  refund_differences: number;
  /** Status differences resolved by a sync (`fix: true`). */
  fixed: number;
  /** Portuguese, when `status` is failed. */
  error: string | null;
  /**
   * Portuguese: what the provider's list left out or could not tell even though the account was
   * compared (an Efí account without the API Cobranças has its Pix checked and its boletos not); empty when nothing.
   */
  notes: string[];
}

/** A comparison of each provider account's own charge list with Orquestra's payments, for a period. */
export interface ReconciliationRun {
  id: string;
  object: 'reconciliation_run';
  mode: Mode;
  status: ReconciliationRunStatus;
  /** RFC 3339, included. */
  start: string;
  /** RFC 3339, not included. */
  end: string;
  fix: boolean;
  accounts: ReconciliationAccountReport[];
  created_at: string;
  completed_at: string | null;
  /** Portuguese, when `status` is failed. */
  failure_reason: string | null;
}

/** One difference, with both sides' values as text (amounts in cents). */
export interface ReconciliationFinding {
  id: string;
  object: 'reconciliation_finding';
  run_id: string;
  provider_account_id: string;
  kind: ReconciliationFindingKind;
  /** null for a charge unknown to Orquestra. */
  payment_id: string | null;
  provider_payment_id: string;
  ours: Record<string, string>;
  theirs: Record<string, string>;
  /** With `fix: true` on a status difference: what the sync did (Portuguese). */
  fix_result: string | null;
  created_at: string;
}

export interface CreateReconciliationRunParams {
  /** Included: `YYYY-MM-DD` (00:00 in São Paulo that day) or an RFC 3339 date-time with offset. */
  start: string;
  /**
   * Not included, and not in the future (only ended periods are reconciled): `YYYY-MM-DD` (00:00 in
   * São Paulo that day, so November is `start: '2026-11-01', end: '2026-12-01'`) or an RFC 3339
   * date-time with offset. At most 93 days after `start`.
   */
  end: string;
  /** Resolve each status difference by syncing the payment with the provider. */
  fix?: boolean;
}

export type ListReconciliationRunsParams = PageParams;

export interface ListReconciliationFindingsParams extends PageParams {
  kind?: ReconciliationFindingKind;
}
