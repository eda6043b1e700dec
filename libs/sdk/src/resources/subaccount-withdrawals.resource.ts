import type { RequestOptions, WithLastResponse } from '../http/transport';
import type { CreateWithdrawalParams, ListWithdrawalsParams, Payout } from '../types/payout.types';
import { Resource, segment, type ListPromise } from './resource';

/**
 * /v1/subaccounts/{id}/withdrawals (full keys only; the subaccount must be active and the owner
 * must turn payouts by API on). A withdrawal is a Payout with `subaccount_id` and destination
 * `{ type: 'subaccount' }`: it follows the same events (payout.*) and `payouts.retrieve`/`sync`.
 */
export class SubaccountWithdrawalsResource extends Resource {
  /**
   * Withdraws from the subaccount to its own destination. The API requires an Idempotency-Key and
   * this always sends one (yours, or a fresh UUID reused on every retry), so a retried withdrawal
   * never leaves twice. With `uncertain: true`, do not create another: follow this one.
   */
  create(subaccountId: string, params: CreateWithdrawalParams, options: RequestOptions = {}): Promise<WithLastResponse<Payout>> {
    return this.call({ method: 'POST', path: pathOf(subaccountId), body: params, idempotencyKey: true }, options);
  }

  /** One page of the subaccount's withdrawals, newest first. */
  list(subaccountId: string, params: ListWithdrawalsParams = {}, options?: RequestOptions): ListPromise<Payout> {
    return this.pageList<Payout>(pathOf(subaccountId), params, options);
  }

  /** Every withdrawal of the subaccount, fetching pages as you iterate. */
  listAll(subaccountId: string, params: ListWithdrawalsParams = {}, options?: RequestOptions): AsyncGenerator<Payout> {
    return this.paginate<Payout>(pathOf(subaccountId), params, options);
  }
}

const pathOf = (subaccountId: string): string => `/v1/subaccounts/${segment(subaccountId)}/withdrawals`;
