import { customerToProto, toPublicSubscription, type common, type subscriptions } from '@orquestra/contracts';
import { SUBSCRIPTION_FREQUENCIES, type CreateSubscriptionInput } from '../schemas/create-subscription.schema';
import {
  SUBSCRIPTION_STATUSES,
  type SubscriptionDetailJson,
  type SubscriptionJson,
  type SubscriptionListJson,
} from '../schemas/subscription.response.schema';
import { oneOf } from './narrow';
import { toPaymentJson } from './payment.mapper';

/** A subscription as the public API shows it (§2), without its cycles (lists, create, cancel, simulate). */
export function toSubscriptionJson(subscription: subscriptions.Subscription): SubscriptionJson {
  const shown = toPublicSubscription(subscription, { withPayments: false });
  return {
    ...shown,
    status: oneOf(SUBSCRIPTION_STATUSES, shown.status, 'subscription.status'),
    frequency: oneOf(SUBSCRIPTION_FREQUENCIES, shown.frequency, 'subscription.frequency'),
  };
}

/**
 * One subscription as GET /v1/subscriptions/{id} shows it: with its cycles, each shown as every
 * payment answer of this API shows a payment (the enums the document promises narrowed).
 */
export function toSubscriptionDetailJson(subscription: subscriptions.Subscription): SubscriptionDetailJson {
  return { ...toSubscriptionJson(subscription), payments: subscription.payments.map(toPaymentJson) };
}

export function toSubscriptionListJson(response: subscriptions.ListSubscriptionsResponse): SubscriptionListJson {
  return { object: 'list', data: response.data.map(toSubscriptionJson), has_more: response.has_more };
}

export interface CreateSubscriptionContext {
  caller: common.Caller;
  idempotencyKey: string | undefined;
  requestHash: string;
}

/** Validated public body → CreateSubscription request; optional fields stay absent (proto3 optional). */
export function toCreateSubscriptionRequest(
  input: CreateSubscriptionInput,
  context: CreateSubscriptionContext,
): subscriptions.CreateSubscriptionRequest {
  return {
    caller: context.caller,
    idempotency_key: context.idempotencyKey ?? '',
    request_hash: context.requestHash,
    customer: customerToProto(input.customer),
    frequency: input.frequency,
    // null and omitted both mean a variable amount.
    ...(input.amount !== undefined && input.amount !== null ? { amount: input.amount } : {}),
    ...(input.first_amount !== undefined ? { first_amount: input.first_amount } : {}),
    description: input.description ?? '',
    ...(input.start_date !== undefined ? { start_date: input.start_date } : {}),
    ...(input.end_date !== undefined ? { end_date: input.end_date } : {}),
    ...(input.retry !== undefined ? { retry: input.retry } : {}),
    metadata: { ...input.metadata },
    tracking: Object.fromEntries(
      Object.entries(input.tracking ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    ...(input.provider_account_id !== undefined ? { provider_account_id: input.provider_account_id } : {}),
  };
}
