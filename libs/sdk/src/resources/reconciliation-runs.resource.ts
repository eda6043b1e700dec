import type { Query } from '../http/transport';
import type { List } from '../types/common.types';
import type {
  CreateReconciliationRunParams,
  ListReconciliationFindingsParams,
  ListReconciliationRunsParams,
  ReconciliationFinding,
  ReconciliationFindingKind,
  ReconciliationRun,
} from '../types/reconciliation.types';
import { Resource, segment } from './resource';

/**
 * /v1/reconciliation-runs (full keys only): compares, for a period, each provider account's own
 * charge list with Orquestra's payments. A run works in the background: poll `retrieve` until its
 * status is completed or failed, or wait for the `reconciliation_run.completed` event.
 */
export class ReconciliationRunsResource extends Resource {
  /** Starts a run (answers it queued). Not retried on a lost answer: list the runs before starting another. */
  create(params: CreateReconciliationRunParams): Promise<ReconciliationRun> {
    return this.call({ method: 'POST', path: '/v1/reconciliation-runs', body: params });
  }

  retrieve(id: string): Promise<ReconciliationRun> {
    return this.call({ method: 'GET', path: `/v1/reconciliation-runs/${segment(id)}` });
  }

  /** One page, newest first. */
  list(params: ListReconciliationRunsParams = {}): Promise<List<ReconciliationRun>> {
    return this.call({ method: 'GET', path: '/v1/reconciliation-runs', query: params as Query });
  }

  listAll(params: ListReconciliationRunsParams = {}): AsyncGenerator<ReconciliationRun> {
    return this.paginate<ReconciliationRun, ListReconciliationRunsParams>('/v1/reconciliation-runs', params);
  }

  /** One page of the run's differences (matched charges are only counted in the run's reports). */
  listFindings(id: string, params: ListReconciliationFindingsParams = {}): Promise<List<ReconciliationFinding>> {
    return this.call({ method: 'GET', path: `/v1/reconciliation-runs/${segment(id)}/findings`, query: params as Query });
  }

  listAllFindings(id: string, params: ListReconciliationFindingsParams = {}): AsyncGenerator<ReconciliationFinding> {
    return this.paginate<ReconciliationFinding, ListReconciliationFindingsParams>(`/v1/reconciliation-runs/${segment(id)}/findings`, params);
  }

  /**
   * Every finding as CSV text (RFC 4180, a header row, one row per differing field; cells that a
   * spreadsheet would run as formulas carry a leading apostrophe).
   */
  async findingsCsv(id: string, params: { kind?: ReconciliationFindingKind } = {}): Promise<string> {
    const text = await this.call<unknown>({ method: 'GET', path: `/v1/reconciliation-runs/${segment(id)}/findings.csv`, query: params as Query });
    if (typeof text !== 'string') throw new Error('Orquestra: a resposta de findings.csv não é um CSV.');
    return text;
  }
}
