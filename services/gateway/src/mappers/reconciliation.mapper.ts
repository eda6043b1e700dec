import { modeName, type reconciliation } from '@orquestra/contracts';
import { FINDING_KINDS } from '../schemas/reconciliation.schema';
import {
  ACCOUNT_REPORT_STATUSES,
  RECONCILIATION_RUN_STATUSES,
  type ReconciliationFindingJson,
  type ReconciliationFindingListJson,
  type ReconciliationRunJson,
  type ReconciliationRunListJson,
} from '../schemas/reconciliation.response.schema';
import { oneOf } from './narrow';
import { nullIfEmpty } from './nullable';

/** A reconciliation run as the public API shows it; empty proto strings become null. */
export function toReconciliationRunJson(run: reconciliation.ReconciliationRun): ReconciliationRunJson {
  return {
    id: run.id,
    object: 'reconciliation_run',
    mode: modeName(run.mode),
    status: oneOf(RECONCILIATION_RUN_STATUSES, run.status, 'reconciliation_run.status'),
    start: run.start,
    end: run.end,
    fix: run.fix,
    accounts: run.accounts.map((account) => ({
      provider_account_id: account.provider_account_id,
      provider: account.provider,
      status: oneOf(ACCOUNT_REPORT_STATUSES, account.status, 'reconciliation_run.accounts.status'),
      listed: account.listed,
      matched: account.matched,
      missing_at_provider: account.missing_at_provider,
      unknown_to_orquestra: account.unknown_to_orquestra,
      status_differences: account.status_differences,
      amount_differences: account.amount_differences,
      fee_differences: account.fee_differences,
      refund_differences: account.refund_differences,
      fixed: account.fixed,
      error: nullIfEmpty(account.error),
      notes: [...account.notes],
    })),
    created_at: run.created_at,
    completed_at: nullIfEmpty(run.completed_at),
    failure_reason: nullIfEmpty(run.failure_reason),
  };
}

export function toReconciliationRunListJson(response: reconciliation.ListRunsResponse): ReconciliationRunListJson {
  return { object: 'list', data: response.runs.map(toReconciliationRunJson), has_more: response.has_more };
}

export function toReconciliationFindingJson(finding: reconciliation.Finding): ReconciliationFindingJson {
  return {
    id: finding.id,
    object: 'reconciliation_finding',
    run_id: finding.run_id,
    provider_account_id: finding.provider_account_id,
    kind: oneOf(FINDING_KINDS, finding.kind, 'reconciliation_finding.kind'),
    payment_id: nullIfEmpty(finding.payment_id),
    provider_payment_id: finding.provider_payment_id,
    ours: { ...finding.ours },
    theirs: { ...finding.theirs },
    fix_result: nullIfEmpty(finding.fix_result),
    created_at: finding.created_at,
  };
}

export function toReconciliationFindingListJson(response: reconciliation.ListFindingsResponse): ReconciliationFindingListJson {
  return { object: 'list', data: response.findings.map(toReconciliationFindingJson), has_more: response.has_more };
}
