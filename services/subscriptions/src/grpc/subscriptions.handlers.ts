import { modeName, type common, type subscriptions } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import { toProtoSubscription } from '../db/subscription.mapper';
import type { CallerScope } from '../db/subscription.store';
import type { CyclesService } from '../use-cases/cycles.service';
import type { SubscriptionsService } from '../use-cases/subscriptions.service';

export function scopeOf(caller: common.Caller | undefined): CallerScope {
  if (!caller || !caller.merchant_id) throw new AppError('unauthenticated');
  return {
    merchantId: caller.merchant_id,
    mode: modeName(caller.mode),
    // A restricted key sees only the subscriptions it created.
    ...(caller.restricted ? { restrictedKeyId: caller.key_id } : {}),
  };
}

const required = (id: string): string => {
  if (!id) throw new AppError('parameter_missing', { param: 'id' });
  return id;
};

/** Thin: the caller's scope and the request's fields to the use cases, their answer to the message. */
export function subscriptionsHandlers(service: SubscriptionsService, cycles: CyclesService): Handlers<typeof subscriptions.SubscriptionsServiceService> {
  return {
    async createSubscription(request) {
      const scope = scopeOf(request.caller);
      const { subscription, replayed } = await service.create({
        scope,
        keyId: request.caller?.key_id ?? '',
        idempotencyKey: request.idempotency_key,
        requestHash: request.request_hash,
        customer: request.customer,
        frequency: request.frequency,
        ...(request.amount !== undefined ? { amount: request.amount } : {}),
        ...(request.first_amount !== undefined ? { firstAmount: request.first_amount } : {}),
        description: request.description,
        ...(request.start_date !== undefined ? { startDate: request.start_date } : {}),
        ...(request.end_date !== undefined ? { endDate: request.end_date } : {}),
        ...(request.retry !== undefined ? { retry: request.retry } : {}),
        metadata: request.metadata,
        tracking: request.tracking,
        ...(request.provider_account_id ? { providerAccountId: request.provider_account_id } : {}),
      });
      return { subscription: toProtoSubscription(subscription), replayed };
    },

    async listSubscriptions(request) {
      const page = await service.list(scopeOf(request.caller), {
        limit: request.limit,
        ...(request.status !== undefined ? { status: request.status } : {}),
        ...(request.starting_after ? { startingAfter: request.starting_after } : {}),
      });
      return { data: page.data.map(toProtoSubscription), has_more: page.hasMore };
    },

    async getSubscription(request) {
      const doc = await service.get(scopeOf(request.caller), required(request.subscription_id));
      return { subscription: { ...toProtoSubscription(doc), payments: await cycles.paymentsOf(doc) } };
    },

    async cancelSubscription(request) {
      return { subscription: toProtoSubscription(await service.cancel(scopeOf(request.caller), required(request.subscription_id))) };
    },

    async chargeSubscription(request) {
      const { payment, replayed } = await cycles.charge(required(request.subscription_id), {
        scope: scopeOf(request.caller),
        ...(request.amount !== undefined ? { amount: request.amount } : {}),
        ...(request.due_date !== undefined ? { dueDate: request.due_date } : {}),
        idempotencyKey: request.idempotency_key,
        requestHash: request.request_hash,
      });
      return { payment, replayed };
    },

    async simulateSubscription(request) {
      return { subscription: toProtoSubscription(await service.simulate(scopeOf(request.caller), required(request.subscription_id))) };
    },
  };
}
