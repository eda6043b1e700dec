import { disputes as disputesContract, type common } from '@orquestra/contracts';
import type { Handlers } from '@orquestra/platform';
import { toProtoDispute } from '../db/dispute.mapper';
import type { DisputesService } from '../orchestration/disputes.service';
import { scopeOf } from './payments.handlers';

type DisputeHandlers = Handlers<typeof disputesContract.DisputesServiceService>;

export function disputesHandlers(disputes: DisputesService): DisputeHandlers {
  const scope = (caller: common.Caller | undefined) => scopeOf(caller);
  return {
    async simulateDispute(request) {
      const dispute = await disputes.simulate(request.payment_id, scope(request.caller), { amount: request.amount, reason: request.reason });
      return { dispute: toProtoDispute(dispute) };
    },
    async listDisputes(request) {
      const { disputes: found, hasMore } = await disputes.list(scope(request.caller), {
        status: request.status,
        paymentId: request.payment_id,
        limit: request.limit > 0 ? Math.min(request.limit, 100) : 10,
        startingAfter: request.starting_after,
      });
      return { disputes: found.map(toProtoDispute), has_more: hasMore };
    },
    async getDispute(request) {
      return { dispute: toProtoDispute(await disputes.get(request.dispute_id, scope(request.caller))) };
    },
    async submitEvidence(request) {
      const dispute = await disputes.submitEvidence(request.dispute_id, scope(request.caller), { text: request.text, urls: request.urls });
      return { dispute: toProtoDispute(dispute) };
    },
  };
}
