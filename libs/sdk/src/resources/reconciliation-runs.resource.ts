import type { Query, RequestOptions, WithLastResponse } from '../http/transport';
import type {
  CreateReconciliationRunParams,
  ListReconciliationFindingsParams,
  ListReconciliationRunsParams,
  ReconciliationFinding,
  ReconciliationFindingKind,
  ReconciliationRun,
} from '../types/reconciliation.types';
import { Resource, segment, type ListPromise } from './resource';

/**
 * /v1/reconciliation-runs (full keys only): compares, for a period, each provider account's own
 * charge list with Orquestra's payments. A run works in the background: poll `retrieve` until its
 * status is completed or failed, or wait for the `reconciliation_run.completed` event.
 */
export class ReconciliationRunsResource extends Resource {
  /** Starts a run (answers it queued). Not retried on a lost answer: list the runs before starting another. */
  create(params: CreateReconciliationRunParams, options?: RequestOptions): Promise<WithLastResponse<ReconciliationRun>> {
    return this.call({ method: 'POST', path: '/v1/reconciliation-runs', body: params }, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<ReconciliationRun>> {
    return this.call({ method: 'GET', path: `/v1/reconciliation-runs/${segment(id)}` }, options);
  }

  /** One page, newest first. */
  list(params: ListReconciliationRunsParams = {}, options?: RequestOptions): ListPromise<ReconciliationRun> {
    return this.pageList<ReconciliationRun>('/v1/reconciliation-runs', params, options);
  }

  listAll(params: ListReconciliationRunsParams = {}, options?: RequestOptions): AsyncGenerator<ReconciliationRun> {
    return this.paginate<ReconciliationRun>('/v1/reconciliation-runs', params, options);
  }

  /** One page of the run's differences (matched charges are only counted in the run's reports). */
  listFindings(id: string, params: ListReconciliationFindingsParams = {}, options?: RequestOptions): ListPromise<ReconciliationFinding> {
    return this.pageList<ReconciliationFinding>(`/v1/reconciliation-runs/${segment(id)}/findings`, params, options);
  }

  listAllFindings(id: string, params: ListReconciliationFindingsParams = {}, options?: RequestOptions): AsyncGenerator<ReconciliationFinding> {
    return this.paginate<ReconciliationFinding>(`/v1/reconciliation-runs/${segment(id)}/findings`, params, options);
  }

  /**
   * Every finding as CSV text (RFC 4180, a header row, one row per differing field; cells that a
   * spreadsheet would run as formulas carry a leading apostrophe).
   */
  async findingsCsv(id: string, params: { kind?: ReconciliationFindingKind } = {}, options?: RequestOptions): Promise<string> {
    const text = await this.call<unknown>({ method: 'GET', path: `/v1/reconciliation-runs/${segment(id)}/findings.csv`, query: params as Query }, options);
    if (typeof text !== 'string') throw new Error('Orquestra: a resposta de findings.csv não é um CSV.');
    return text;
  }
}
