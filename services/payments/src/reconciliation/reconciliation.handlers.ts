import { modeName, type common, type reconciliation } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import { FINDING_KINDS, runPeriod } from './matching';
import { toProtoFinding, toProtoRun } from './reconciliation.mapper';
import type { ReconciliationRuns } from './reconciliation-runs';

/**
 * Full keys only: a run reads every payment of the merchant's mode and every charge of its
 * provider accounts, beyond what a restricted key may see (the payments it created).
 */
function fullKeyScope(caller: common.Caller | undefined) {
  if (!caller || !caller.merchant_id) throw new AppError('unauthenticated');
  if (caller.restricted) throw new AppError('restricted_key');
  return { merchantId: caller.merchant_id, mode: modeName(caller.mode), sourceKeyId: caller.key_id };
}

/** 0 means the default; otherwise within [1, max], else parameter_invalid naming limit. */
function limitOf(limit: number, fallback: number, max: number): number {
  if (limit === 0) return fallback;
  if (!Number.isInteger(limit) || limit < 1 || limit > max) throw new AppError('parameter_invalid', { param: 'limit', message: `limit deve ser um número entre 1 e ${max}.` });
  return limit;
}

export function reconciliationHandlers(runs: ReconciliationRuns, now: () => Date = () => new Date()): Handlers<typeof reconciliation.ReconciliationServiceService> {
  return {
    async createRun(request) {
      const scope = fullKeyScope(request.caller);
      const run = await runs.create(scope, runPeriod(request.start, request.end, now()), request.fix);
      return { run: toProtoRun(run) };
    },

    async listRuns(request) {
      const scope = fullKeyScope(request.caller);
      const found = await runs.list(scope, limitOf(request.limit, 10, 100), request.starting_after);
      return { runs: found.runs.map(toProtoRun), has_more: found.hasMore };
    },

    async getRun(request) {
      return { run: toProtoRun(await runs.find(request.run_id, fullKeyScope(request.caller))) };
    },

    async listFindings(request) {
      const scope = fullKeyScope(request.caller);
      const limit = limitOf(request.limit, 100, 1000);
      if (request.kind && !(FINDING_KINDS as readonly string[]).includes(request.kind)) {
        throw new AppError('parameter_invalid', { param: 'kind', message: `kind deve ser um destes: ${FINDING_KINDS.join(', ')}.` });
      }
      const run = await runs.find(request.run_id, scope);
      const found = await runs.findings(run, limit, request.starting_after, request.kind);
      return { findings: found.findings.map(toProtoFinding), has_more: found.hasMore };
    },
  };
}
