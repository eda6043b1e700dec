import type { RequestOptions, WithLastResponse } from '../http/transport';
import type { Payment } from '../types/payment.types';
import type {
  ChargeSubscriptionParams,
  CreateSubscriptionParams,
  ListSubscriptionsParams,
  Subscription,
  SubscriptionDetail,
} from '../types/subscription.types';
import { Resource, segment, type ListPromise } from './resource';

/** /v1/subscriptions (automatic recurring Pix). */
export class SubscriptionsResource extends Resource {
  /**
   * Creates a subscription, pending until the payer approves `approval.qr_code` in the bank app.
   * An Idempotency-Key is always sent (yours, or a fresh UUID reused on every retry), so a retried
   * create never makes a second subscription.
   */
  create(params: CreateSubscriptionParams, options: RequestOptions = {}): Promise<WithLastResponse<Subscription>> {
    return this.call({ method: 'POST', path: '/v1/subscriptions', body: params, idempotencyKey: true }, options);
  }

  /** One subscription with its cycles (payments). */
  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<SubscriptionDetail>> {
    return this.call({ method: 'GET', path: `/v1/subscriptions/${segment(id)}` }, options);
  }

  /** One page, newest first. */
  list(params: ListSubscriptionsParams = {}, options?: RequestOptions): ListPromise<Subscription> {
    return this.pageList<Subscription>('/v1/subscriptions', params, options);
  }

  /** Every subscription matching the filter, fetching pages as you iterate. */
  listAll(params: ListSubscriptionsParams = {}, options?: RequestOptions): AsyncGenerator<Subscription> {
    return this.paginate<Subscription>('/v1/subscriptions', params, options);
  }

  /**
   * Charges the cycle `due_date` falls in (one charge per cycle) and answers its payment, pending
   * until the payer's bank debits it. Needed for variable amounts; fixed amounts are charged by the
   * service on schedule. Idempotency-Key as on create, so a retry never charges a cycle twice.
   */
  charge(id: string, params: ChargeSubscriptionParams = {}, options: RequestOptions = {}): Promise<WithLastResponse<Payment>> {
    return this.call({ method: 'POST', path: `/v1/subscriptions/${segment(id)}/charge`, body: params, idempotencyKey: true }, options);
  }

  /** Cancels the subscription: no further cycle is charged. Not retried automatically. */
  cancel(id: string, options?: RequestOptions): Promise<WithLastResponse<Subscription>> {
    return this.call({ method: 'POST', path: `/v1/subscriptions/${segment(id)}/cancel` }, options);
  }

  /** Test mode: approves the pending subscription as the payer's bank would (pending → active). */
  simulate(id: string, options?: RequestOptions): Promise<WithLastResponse<Subscription>> {
    return this.call({ method: 'POST', path: `/v1/subscriptions/${segment(id)}/simulate` }, options);
  }
}
