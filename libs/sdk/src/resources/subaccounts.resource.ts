import type { RequestOptions, WithLastResponse } from '../http/transport';
import type {
  CreateSubaccountParams,
  ListSubaccountsParams,
  Subaccount,
  SubaccountBalance,
  SubaccountDetail,
  SubaccountOnboardingLink,
  UpdateSubaccountParams,
} from '../types/subaccount.types';
import { Resource, segment, type ListPromise } from './resource';
import { SubaccountWithdrawalsResource } from './subaccount-withdrawals.resource';

/** /v1/subaccounts: sellers' accounts that split payments pay into (full keys only). */
export class SubaccountsResource extends Resource {
  /** /v1/subaccounts/{id}/withdrawals: money out of a subaccount to its own destination. */
  readonly withdrawals = new SubaccountWithdrawalsResource(this.transport);

  /**
   * Registers a subaccount at the connected account's provider; it starts pending while the
   * provider analyses it. An Idempotency-Key is always sent (yours, or a fresh UUID reused on
   * every retry), so a retried create never registers the seller twice.
   */
  create(params: CreateSubaccountParams, options: RequestOptions = {}): Promise<WithLastResponse<Subaccount>> {
    return this.call({ method: 'POST', path: '/v1/subaccounts', body: params, idempotencyKey: true }, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<SubaccountDetail>> {
    return this.call({ method: 'GET', path: `/v1/subaccounts/${segment(id)}` }, options);
  }

  /** One page, newest first. */
  list(params: ListSubaccountsParams = {}, options?: RequestOptions): ListPromise<Subaccount> {
    return this.pageList<Subaccount>('/v1/subaccounts', params, options);
  }

  /** Every subaccount matching the filters, fetching pages as you iterate. */
  listAll(params: ListSubaccountsParams = {}, options?: RequestOptions): AsyncGenerator<Subaccount> {
    return this.paginate<Subaccount>('/v1/subaccounts', params, options);
  }

  /** Changes name and metadata in the service only (never at the provider). */
  update(id: string, params: UpdateSubaccountParams, options?: RequestOptions): Promise<WithLastResponse<Subaccount>> {
    return this.call({ method: 'PATCH', path: `/v1/subaccounts/${segment(id)}`, body: params }, options);
  }

  /** Asks the provider for the subaccount's status now and answers the subaccount as it is after that. */
  sync(id: string, options?: RequestOptions): Promise<WithLastResponse<Subaccount>> {
    return this.call({ method: 'POST', path: `/v1/subaccounts/${segment(id)}/sync` }, options);
  }

  /** A link where the holder completes the provider's identity verification (providers with identity onboarding). */
  onboardingLink(id: string, options?: RequestOptions): Promise<WithLastResponse<SubaccountOnboardingLink>> {
    return this.call({ method: 'POST', path: `/v1/subaccounts/${segment(id)}/onboarding-link` }, options);
  }

  /** The subaccount's balance, read at the provider now. */
  balance(id: string, options?: RequestOptions): Promise<WithLastResponse<SubaccountBalance>> {
    return this.call({ method: 'GET', path: `/v1/subaccounts/${segment(id)}/balance` }, options);
  }
}
