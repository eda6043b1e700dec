import type { Query } from '../http/transport';
import type { List } from '../types/common.types';
import type { Dispute, ListDisputesParams } from '../types/dispute.types';
import { Resource, segment } from './resource';

/** /v1/disputes: MED (Pix) and chargebacks (card). */
export class DisputesResource extends Resource {
  list(params: ListDisputesParams = {}): Promise<List<Dispute>> {
    return this.call({ method: 'GET', path: '/v1/disputes', query: params as Query });
  }

  retrieve(id: string): Promise<Dispute> {
    return this.call({ method: 'GET', path: `/v1/disputes/${segment(id)}` });
  }

  /** Answers an open dispute (providers that take evidence by API only). */
  submitEvidence(id: string, params: { text: string; urls?: string[] }): Promise<Dispute> {
    return this.call({ method: 'POST', path: `/v1/disputes/${segment(id)}/evidence`, body: params });
  }
}
