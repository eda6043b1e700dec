import { modeFromName, type reconciliation } from '@orquestra/contracts';
import type { AccountCounts, FindingDoc, RunAccountDoc, RunDoc } from './reconciliation.model';

const NO_COUNTS: AccountCounts = {
  listed: 0,
  matched: 0,
  missing_at_provider: 0,
  unknown_to_orquestra: 0,
  status_differences: 0,
  amount_differences: 0,
  fee_differences: 0,
  refund_differences: 0,
  fixed: 0,
};

export function toProtoAccountReport(account: RunAccountDoc): reconciliation.AccountReport {
  return {
    provider_account_id: account.provider_account_id,
    provider: account.provider,
    status: account.status,
    ...(account.counts ?? NO_COUNTS),
    error: account.error,
    notes: account.notes ?? [],
  };
}

export function toProtoRun(run: RunDoc): reconciliation.ReconciliationRun {
  return {
    id: run._id,
    mode: modeFromName(run.mode),
    status: run.status,
    start: run.start.toISOString(),
    end: run.end.toISOString(),
    fix: run.fix,
    accounts: (run.accounts ?? []).map(toProtoAccountReport),
    created_at: run.created_at.toISOString(),
    completed_at: run.completed_at?.toISOString() ?? '',
    failure_reason: run.failure_reason,
  };
}

export function toProtoFinding(finding: FindingDoc): reconciliation.Finding {
  return {
    id: finding._id,
    run_id: finding.run_id,
    provider_account_id: finding.provider_account_id,
    kind: finding.kind,
    payment_id: finding.payment_id,
    provider_payment_id: finding.provider_payment_id,
    ours: finding.ours,
    theirs: finding.theirs,
    fix_result: finding.fix_result,
    created_at: finding.created_at.toISOString(),
  };
}

/** The run's totals over its accounts. */
export function runCounts(run: RunDoc): AccountCounts {
  const total = { ...NO_COUNTS };
  for (const account of run.accounts ?? []) {
    for (const key of Object.keys(total) as Array<keyof AccountCounts>) total[key] += account.counts?.[key] ?? 0;
  }
  return total;
}

/**
 * The run as `reconciliation_run.completed` carries it (data.object; libs/contracts
 * reconciliationRunObjectSchema): the public fields, each account's report and the totals.
 */
export function publicRunObject(run: RunDoc): Record<string, unknown> {
  return {
    id: run._id,
    object: 'reconciliation_run',
    mode: run.mode,
    status: run.status,
    start: run.start.toISOString(),
    end: run.end.toISOString(),
    fix: run.fix,
    accounts: (run.accounts ?? []).map((account) => {
      const { provider_account_id, provider, status, error, notes, ...counts } = toProtoAccountReport(account);
      return { provider_account_id, provider, status, ...counts, error: error || null, notes };
    }),
    counts: runCounts(run),
    created_at: run.created_at.toISOString(),
    completed_at: run.completed_at?.toISOString() ?? null,
  };
}
