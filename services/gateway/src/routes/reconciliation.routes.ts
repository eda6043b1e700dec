import { AppError, isAppError } from '@orquestra/platform';
import { Router, type Request, type Response } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { FINDINGS_CSV_HEADER, findingCsvLines } from '../mappers/reconciliation-csv.mapper';
import {
  toReconciliationFindingJson,
  toReconciliationFindingListJson,
  toReconciliationRunJson,
  toReconciliationRunListJson,
} from '../mappers/reconciliation.mapper';
import {
  CreateReconciliationRunSchema,
  FindingsCsvQuerySchema,
  ListFindingsQuerySchema,
  ListReconciliationRunsQuerySchema,
  RECONCILIATION_FIELD_HINTS,
  ReconciliationRunIdSchema,
} from '../schemas/reconciliation.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { aboutPathId, pathIdOf } from './path-id';

/** Findings asked of the payments service per page while writing the CSV (its maximum). */
export const CSV_PAGE_SIZE = 1000;

const runIdOf = (req: Request): string => pathIdOf(req, ReconciliationRunIdSchema);

/**
 * A findings call: an unknown run is the path's `id` (aboutPathId), but a `starting_after` that is
 * not a finding of this run keeps its own param, so the caller knows it is the cursor that is wrong.
 */
async function aboutRunFindings<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isAppError(error) && error.param === 'starting_after') throw error;
    return aboutPathId(() => Promise.reject(error));
  }
}

/** Resolves when the response can take more bytes, false when the client went away meanwhile. */
function drained(res: Response): Promise<boolean> {
  // Already gone: 'close' was emitted before anyone listened, and 'drain' will never come.
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const done = (open: boolean) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(open);
    };
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

/**
 * /v1/reconciliation-runs (§4 "Other endpoints", docs/reconciliation.md): a run compares, for a
 * period, each provider account's own charge list with Orquestra's payments, in the payments
 * service, as due work. Full keys only: the comparison shows every payment of the merchant and
 * `fix` changes payments, neither of which a charge bot's key may do.
 */
export function reconciliationRoutes(context: RouteContext): Router {
  const { clients, authenticate, logger } = context;
  const router = Router();
  const fullKeyOnly = requireFullKey();

  router.post('/reconciliation-runs', authenticate, fullKeyOnly, jsonBodyMiddleware(), async (req, res) => {
    const input = parseOrThrow(CreateReconciliationRunSchema, req.body, 'body', RECONCILIATION_FIELD_HINTS);
    const response = await clients.reconciliation.createRun(
      { caller: callerOf(res), start: input.start.toISOString(), end: input.end.toISOString(), fix: input.fix ?? false },
      rpcOptions(res),
    );
    if (!response.run) throw new AppError('internal', { message: 'CreateRun answered without a run' });
    res.status(201).setHeader('Location', `/v1/reconciliation-runs/${response.run.id}`).json(toReconciliationRunJson(response.run));
  });

  router.get('/reconciliation-runs', authenticate, fullKeyOnly, async (req, res) => {
    const query = parseOrThrow(ListReconciliationRunsQuerySchema, req.query, 'query', RECONCILIATION_FIELD_HINTS);
    const response = await clients.reconciliation.listRuns(
      { caller: callerOf(res), limit: query.limit, starting_after: query.starting_after ?? '' },
      rpcOptions(res),
    );
    res.json(toReconciliationRunListJson(response));
  });

  router.get('/reconciliation-runs/:id', authenticate, fullKeyOnly, async (req, res) => {
    const runId = runIdOf(req);
    const response = await aboutPathId(() => clients.reconciliation.getRun({ caller: callerOf(res), run_id: runId }, rpcOptions(res)));
    if (!response.run) throw new AppError('not_found', { param: 'id' });
    res.json(toReconciliationRunJson(response.run));
  });

  router.get('/reconciliation-runs/:id/findings', authenticate, fullKeyOnly, async (req, res) => {
    const runId = runIdOf(req);
    const query = parseOrThrow(ListFindingsQuerySchema, req.query, 'query', RECONCILIATION_FIELD_HINTS);
    const response = await aboutRunFindings(() =>
      clients.reconciliation.listFindings(
        { caller: callerOf(res), run_id: runId, limit: query.limit, starting_after: query.starting_after ?? '', kind: query.kind ?? '' },
        rpcOptions(res),
      ),
    );
    res.json(toReconciliationFindingListJson(response));
  });

  // The whole list, written page by page as the payments service answers, so a run with a
  // hundred thousand findings never sits in the gateway's memory.
  router.get('/reconciliation-runs/:id/findings.csv', authenticate, fullKeyOnly, async (req, res) => {
    const runId = runIdOf(req);
    const query = parseOrThrow(FindingsCsvQuerySchema, req.query, 'query', RECONCILIATION_FIELD_HINTS);
    const caller = callerOf(res);
    // The run first: an unknown id is a 404 in JSON, never an empty file.
    const run = await aboutPathId(() => clients.reconciliation.getRun({ caller, run_id: runId }, rpcOptions(res)));
    if (!run.run) throw new AppError('not_found', { param: 'id' });
    const page = (startingAfter: string) =>
      aboutPathId(() =>
        clients.reconciliation.listFindings(
          { caller, run_id: runId, limit: CSV_PAGE_SIZE, starting_after: startingAfter, kind: query.kind ?? '' },
          rpcOptions(res),
        ),
      );
    // The first page before any byte: a failure now is still a clean JSON error.
    let response = await page('');
    res
      .status(200)
      .setHeader('Content-Type', 'text/csv; charset=utf-8')
      .setHeader('Content-Disposition', `attachment; filename="reconciliation-${runId}-findings.csv"`)
      .setHeader('Cache-Control', 'no-store');
    try {
      let chunk = FINDINGS_CSV_HEADER;
      for (;;) {
        chunk += response.findings.map((finding) => findingCsvLines(toReconciliationFindingJson(finding))).join('');
        // One write per page; wait while the client is slower than the service (back-pressure).
        const open = !res.destroyed && (res.write(chunk) || (await drained(res)));
        const last = response.findings[response.findings.length - 1];
        if (!open) return;
        if (!response.has_more || !last) break;
        chunk = '';
        response = await page(last.id);
      }
      res.end();
    } catch (error) {
      // Headers and part of the file are out: a JSON error cannot follow. Cutting the connection
      // (no final chunk) tells the client the download is incomplete instead of handing it a
      // file that looks whole.
      logger.warn({ request_id: res.locals.requestId, run_id: runId, err: error instanceof Error ? error.message : String(error) }, 'findings CSV cut short');
      res.destroy();
    }
  });

  return router;
}
