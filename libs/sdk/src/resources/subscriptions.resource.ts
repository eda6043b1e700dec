import type { Query } from '../http/transport';
import type { List } from '../types/common.types';
import type { Payment } from '../types/payment.types';
import type {
  ChargeSubscriptionParams,
  CreateSubscriptionParams,
  ListSubscriptionsParams,
  Subscription,
  SubscriptionDetail,
} from '../types/subscription.types';
import { Resource, segment, type IdempotentCallOptions } from './resource';

/** /v1/subscriptions (automatic recurring Pix). */
export class SubscriptionsResource extends Resource {
  /**
   * Creates a subscription, pending until the payer approves `approval.qr_code` in the bank app.
   * An Idempotency-Key is always sent (yours, or a fresh UUID reused on every retry), so a retried
   * create never makes a second subscription.
   */
  create(params: CreateSubscriptionParams, options: IdempotentCallOptions = {}): Promise<Subscription> {
    return this.call({ method: 'POST', path: '/v1/subscriptions', body: params, idempotencyKey: options.idempotencyKey ?? true });
  }

  /** One subscription with its cycles (payments). */
  retrieve(id: string): Promise<SubscriptionDetail> {
    return this.call({ method: 'GET', path: `/v1/subscriptions/${segment(id)}` });
  }

  /** One page, newest first. */
  list(params: ListSubscriptionsParams = {}): Promise<List<Subscription>> {
    return this.call({ method: 'GET', path: '/v1/subscriptions', query: params as Query });
  }

  /** Every subscription matching the filter, fetching pages as you iterate. */
  listAll(params: ListSubscriptionsParams = {}): AsyncGenerator<Subscription> {
    return this.paginate<Subscription, ListSubscriptionsParams>('/v1/subscriptions', params);
  }

  /**
   * Charges the cycle `due_date` falls in (one charge per cycle) and answers its payment, pending
   * until the payer's bank debits it. Needed for variable amounts; fixed amounts are charged by the
   * service on schedule. Idempotency-Key as on create, so a retry never charges a cycle twice.
   */
  charge(id: string, params: ChargeSubscriptionParams = {}, options: IdempotentCallOptions = {}): Promise<Payment> {
    return this.call({ method: 'POST', path: `/v1/subscriptions/${segment(id)}/charge`, body: params, idempotencyKey: options.idempotencyKey ?? true });
  }

  /** Cancels the subscription: no further cycle is charged. Not retried automatically. */
  cancel(id: string): Promise<Subscription> {
    return this.call({ method: 'POST', path: `/v1/subscriptions/${segment(id)}/cancel` });
  }

  /** Test mode: approves the pending subscription as the payer's bank would (pending → active). */
  simulate(id: string): Promise<Subscription> {
    return this.call({ method: 'POST', path: `/v1/subscriptions/${segment(id)}/simulate` });
  }
}
