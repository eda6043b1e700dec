import { modeName, type common, type payouts } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import { toProtoPayout } from '../db/payout.mapper';
import type { CallerScope } from '../db/payout.store';
import type { PayoutsService } from '../use-cases/payouts.service';
import { toProtoSubaccount, type SubaccountsService } from '../use-cases/subaccounts.service';
import type { WithdrawalsService } from '../use-cases/withdrawals.service';

/** Restricted keys never reach payouts (spec §5.4: they cannot pay out); the gateway refuses them first. */
export function scopeOf(caller: common.Caller | undefined): CallerScope {
  if (!caller || !caller.merchant_id) throw new AppError('unauthenticated');
  if (caller.restricted) throw new AppError('restricted_key');
  return { merchantId: caller.merchant_id, mode: modeName(caller.mode) };
}

const required = (id: string): string => {
  if (!id) throw new AppError('parameter_missing', { param: 'id' });
  return id;
};

/** Thin: the caller's scope and the request's fields to the use cases, their answer to the message. */
export function payoutsHandlers(service: PayoutsService, subaccounts: SubaccountsService, withdrawals: WithdrawalsService): Handlers<typeof payouts.PayoutsServiceService> {
  return {
    async getBalances(request) {
      return service.balances(scopeOf(request.caller));
    },

    async createPayout(request) {
      const scope = scopeOf(request.caller);
      const { payout, replayed } = await service.create({
        scope,
        keyId: request.caller?.key_id ?? '',
        idempotencyKey: request.idempotency_key,
        requestHash: request.request_hash,
        providerAccountId: request.provider_account_id,
        amount: request.amount,
        destination: { type: request.destination?.type ?? '', destinationId: request.destination?.destination_id ?? '' },
        description: request.description,
        metadata: request.metadata,
      });
      return { payout: toProtoPayout(payout), replayed };
    },

    async listPayouts(request) {
      const page = await service.list(scopeOf(request.caller), {
        status: request.status,
        providerAccountId: request.provider_account_id,
        limit: request.limit,
        startingAfter: request.starting_after,
      });
      return { data: page.data.map(toProtoPayout), has_more: page.hasMore };
    },

    async getPayout(request) {
      return { payout: toProtoPayout(await service.get(scopeOf(request.caller), required(request.payout_id))) };
    },

    async syncPayout(request) {
      return { payout: toProtoPayout(await service.sync(scopeOf(request.caller), required(request.payout_id))) };
    },

    async listPayoutDestinations(request) {
      return { data: await service.destinations(scopeOf(request.caller)) };
    },

    async createSubaccount(request) {
      const { subaccount, replayed } = await subaccounts.create(scopeOf(request.caller), request.caller?.key_id ?? '', request);
      return { subaccount: toProtoSubaccount(subaccount), replayed };
    },

    async listSubaccounts(request) {
      const page = await subaccounts.list(scopeOf(request.caller), {
        status: request.status,
        providerAccountId: request.provider_account_id,
        q: request.q,
        limit: request.limit,
        startingAfter: request.starting_after,
      });
      return { data: page.data.map(toProtoSubaccount), has_more: page.hasMore };
    },

    async getSubaccount(request) {
      return { subaccount: toProtoSubaccount(await subaccounts.get(scopeOf(request.caller), required(request.subaccount_id))) };
    },

    async updateSubaccount(request) {
      const updated = await subaccounts.update(scopeOf(request.caller), required(request.subaccount_id), {
        ...(request.name !== undefined ? { name: request.name } : {}),
        ...(request.metadata_set ? { metadata: request.metadata } : {}),
      });
      return { subaccount: toProtoSubaccount(updated) };
    },

    async syncSubaccount(request) {
      return { subaccount: toProtoSubaccount(await subaccounts.sync(scopeOf(request.caller), required(request.subaccount_id))) };
    },

    async createSubaccountOnboardingLink(request) {
      return subaccounts.onboardingLink(scopeOf(request.caller), required(request.subaccount_id));
    },

    async getSubaccountBalance(request) {
      return subaccounts.balance(scopeOf(request.caller), required(request.subaccount_id));
    },

    async resolveSplits(request) {
      return { subaccounts: await subaccounts.resolveSplits(scopeOf(request.caller), request.subaccount_ids) };
    },

    async createWithdrawal(request) {
      const { payout, replayed } = await withdrawals.create({
        scope: scopeOf(request.caller),
        keyId: request.caller?.key_id ?? '',
        idempotencyKey: request.idempotency_key,
        requestHash: request.request_hash,
        subaccountId: required(request.subaccount_id),
        amount: request.amount,
        description: request.description,
        metadata: request.metadata,
      });
      return { payout: toProtoPayout(payout), replayed };
    },

    async listWithdrawals(request) {
      const page = await withdrawals.list(scopeOf(request.caller), required(request.subaccount_id), { limit: request.limit, startingAfter: request.starting_after });
      return { data: page.data.map(toProtoPayout), has_more: page.hasMore };
    },
  };
}
