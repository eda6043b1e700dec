import type { RequestOptions, WithLastResponse } from '../http/transport';
import type { BalanceList, CreatePayoutParams, ListPayoutsParams, Payout, PayoutDestinationList } from '../types/payout.types';
import { Resource, segment, type ListPromise } from './resource';

/** /v1/payouts: money out of a provider account (full keys only; the owner must turn payouts by API on). */
export class PayoutsResource extends Resource {
  /**
   * Creates a payout. The API requires an Idempotency-Key and this always sends one (yours, or a
   * fresh UUID reused on every retry), so a retried create never pays twice. When the answer has
   * `uncertain: true`, do not create another: follow this one (`retrieve`, `sync`, or the events).
   */
  create(params: CreatePayoutParams, options: RequestOptions = {}): Promise<WithLastResponse<Payout>> {
    return this.call({ method: 'POST', path: '/v1/payouts', body: params, idempotencyKey: true }, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<Payout>> {
    return this.call({ method: 'GET', path: `/v1/payouts/${segment(id)}` }, options);
  }

  /** One page, newest first. */
  list(params: ListPayoutsParams = {}, options?: RequestOptions): ListPromise<Payout> {
    return this.pageList<Payout>('/v1/payouts', params, options);
  }

  /** Every payout matching the filters, fetching pages as you iterate. */
  listAll(params: ListPayoutsParams = {}, options?: RequestOptions): AsyncGenerator<Payout> {
    return this.paginate<Payout>('/v1/payouts', params, options);
  }

  /** Asks the provider for the payout's state now and answers the payout as it is after that. */
  sync(id: string, options?: RequestOptions): Promise<WithLastResponse<Payout>> {
    return this.call({ method: 'POST', path: `/v1/payouts/${segment(id)}/sync` }, options);
  }
}

/** /v1/balances (full keys only). */
export class BalancesResource extends Resource {
  /** Each active provider account of the key's mode with its balance, and whether payouts by API are on. */
  list(options?: RequestOptions): Promise<WithLastResponse<BalanceList>> {
    return this.call({ method: 'GET', path: '/v1/balances' }, options);
  }
}

/** /v1/payout-destinations (full keys only): the saved Pix keys, created only by the account owner. */
export class PayoutDestinationsResource extends Resource {
  list(options?: RequestOptions): Promise<WithLastResponse<PayoutDestinationList>> {
    return this.call({ method: 'GET', path: '/v1/payout-destinations' }, options);
  }
}
