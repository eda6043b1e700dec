import type { Query } from '../http/transport';
import type { List } from '../types/common.types';
import type {
  CreateSubaccountParams,
  ListSubaccountsParams,
  Subaccount,
  SubaccountBalance,
  SubaccountDetail,
  SubaccountOnboardingLink,
  UpdateSubaccountParams,
} from '../types/subaccount.types';
import { Resource, segment, type IdempotentCallOptions } from './resource';
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
  create(params: CreateSubaccountParams, options: IdempotentCallOptions = {}): Promise<Subaccount> {
    return this.call({ method: 'POST', path: '/v1/subaccounts', body: params, idempotencyKey: options.idempotencyKey ?? true });
  }

  retrieve(id: string): Promise<SubaccountDetail> {
    return this.call({ method: 'GET', path: `/v1/subaccounts/${segment(id)}` });
  }

  /** One page, newest first. */
  list(params: ListSubaccountsParams = {}): Promise<List<Subaccount>> {
    return this.call({ method: 'GET', path: '/v1/subaccounts', query: params as Query });
  }

  /** Every subaccount matching the filters, fetching pages as you iterate. */
  listAll(params: ListSubaccountsParams = {}): AsyncGenerator<Subaccount> {
    return this.paginate<Subaccount, ListSubaccountsParams>('/v1/subaccounts', params);
  }

  /** Changes name and metadata in the service only (never at the provider). */
  update(id: string, params: UpdateSubaccountParams): Promise<Subaccount> {
    return this.call({ method: 'PATCH', path: `/v1/subaccounts/${segment(id)}`, body: params });
  }

  /** Asks the provider for the subaccount's status now and answers the subaccount as it is after that. */
  sync(id: string): Promise<Subaccount> {
    return this.call({ method: 'POST', path: `/v1/subaccounts/${segment(id)}/sync` });
  }

  /** A link where the holder completes the provider's identity verification (providers with identity onboarding). */
  onboardingLink(id: string): Promise<SubaccountOnboardingLink> {
    return this.call({ method: 'POST', path: `/v1/subaccounts/${segment(id)}/onboarding-link` });
  }

  /** The subaccount's balance, read at the provider now. */
  balance(id: string): Promise<SubaccountBalance> {
    return this.call({ method: 'GET', path: `/v1/subaccounts/${segment(id)}/balance` });
  }
}
