import type { RequestOptions, WithLastResponse } from '../http/transport';
import type { Dispute, ListDisputesParams } from '../types/dispute.types';
import { Resource, segment, type ListPromise } from './resource';

/** /v1/disputes: MED (Pix) and chargebacks (card). */
export class DisputesResource extends Resource {
  list(params: ListDisputesParams = {}, options?: RequestOptions): ListPromise<Dispute> {
    return this.pageList<Dispute>('/v1/disputes', params, options);
  }

  /** Every dispute matching the filters, fetching pages as you iterate. */
  listAll(params: ListDisputesParams = {}, options?: RequestOptions): AsyncGenerator<Dispute> {
    return this.paginate<Dispute>('/v1/disputes', params, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<Dispute>> {
    return this.call({ method: 'GET', path: `/v1/disputes/${segment(id)}` }, options);
  }

  /** Answers an open dispute (providers that take evidence by API only). */
  submitEvidence(id: string, params: { text: string; urls?: string[] }, options?: RequestOptions): Promise<WithLastResponse<Dispute>> {
    return this.call({ method: 'POST', path: `/v1/disputes/${segment(id)}/evidence`, body: params }, options);
  }
}
