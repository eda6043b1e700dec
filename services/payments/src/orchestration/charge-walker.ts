import { createHash } from 'node:crypto';
import { chargeStatusFromProto, isVaultToken, modeFromName, type common, type providers as providersContract, type routing } from '@orquestra/contracts';
import { AppError, GrpcStatus, newId, RpcError, type RpcClient } from '@orquestra/platform';
import type { Logger } from 'pino';
import { toProtoPaymentCustomer } from '../db/payment-customer.mapper';
import type { PaymentDoc } from '../db/payment.model';
import { walkCandidates, type ChargeAnswer, type WalkOptions, type WalkResult } from '../domain/failover-walk';
import { assertRoomForFee } from '../domain/splits';
import { needsHostedCheckout, vaultCardRoute } from './method-input';
import type { OrphanCharges } from './orphan-charges';

export type Candidate = routing.Candidate;
export type Charge = providersContract.Charge;
export type ChargeWalk = WalkResult<Candidate, Charge>;

export interface ChargeWalkerDeps {
  routing: Pick<RpcClient<typeof routing.RoutingServiceService>, 'route'>;
  providers: Pick<RpcClient<typeof providersContract.ProvidersServiceService>, 'createCharge'>;
  orphans: Pick<OrphanCharges, 'record'>;
  logger: Logger;
  providerCallDeadlineMs: number;
}

/**
 * The I/O around the failover walk (domain/failover-walk.ts): routing's candidates, and each
 * try as one providers CreateCharge whose failures become answers the walk decides on. Used by
 * creation and by the buyer's choice on the payment page alike.
 */
export class ChargeWalker {
  constructor(private readonly deps: ChargeWalkerDeps) {}

  /** Routing's ordered candidates for a payment awaiting its method (its method, amount, metadata, customer, forced account). */
  async candidatesFor(draft: PaymentDoc, requestId: string): Promise<Candidate[]> {
    const caller: common.Caller = { merchant_id: draft.merchant_id, mode: modeFromName(draft.mode), key_id: draft.source_key_id, restricted: false, request_id: requestId };
    const { candidates } = await this.deps.routing.route(
      { caller, method: draft.method, amount: draft.amount, metadata: draft.metadata, customer: toProtoPaymentCustomer(draft.customer), forced_account_id: draft.requested_account_id ?? '', hosted_checkout: needsHostedCheckout(draft.method, draft.card), ...vaultCardRoute(draft.card), payment_id: draft._id },
      { requestId },
    );
    return candidates;
  }

  /** `options`: a resumed create's earlier account, and the key's naming of each account (domain/failover-walk.ts). */
  async walk(draft: PaymentDoc, candidates: Candidate[], expiresInMinutes: number, requestId: string, options: WalkOptions = {}): Promise<ChargeWalk> {
    // A split pins the payment to one account (payment-splits.ts): its remainder must cover that account's fee.
    if (draft.splits?.length && candidates[0]) {
      assertRoomForFee(draft.amount, draft.splits, candidates[0].fees.find((rule) => rule.method === draft.method));
    }
    const request = (candidate: Candidate) => chargeRequest(draft, candidate, expiresInMinutes);
    const walked = await walkCandidates(candidates, draft.method, {
      tryCharge: (candidate) => this.tryCharge(request(candidate), requestId),
      recordOrphan: (candidate) => this.deps.orphans.record(draft._id, request(candidate)),
      newAttemptId: () => newId('attempt'),
      now: () => Date.now(),
    }, options);
    if (!walked.charged && walked.errorCode === 'all_providers_failed' && !walked.inputError) {
      this.deps.logger.warn({ payment_id: draft._id, attempts: walked.attempts.map((a) => `${a.provider_account_id}:${a.failure_code}`) }, 'every provider account failed');
    }
    return walked;
  }

  private async tryCharge(request: providersContract.CreateChargeRequest, requestId: string): Promise<ChargeAnswer<Charge>> {
    try {
      const { charge } = await this.deps.providers.createCharge(request, { requestId, deadlineMs: this.deps.providerCallDeadlineMs });
      if (!charge) throw new AppError('provider_error');
      return {
        kind: 'created',
        charge,
        state: chargeStatusFromProto(charge.status),
        providerPaymentId: charge.provider_payment_id,
        // Attempts store '' for no failure, like every other string a stored payment does not have.
        failureCode: charge.failure_code ?? '',
        failureReason: charge.failure_reason ?? '',
      };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const deadlineExceeded = error instanceof RpcError && error.grpcStatus === GrpcStatus.DEADLINE_EXCEEDED;
      return { kind: 'refused', code: error.code, message: error.message, deadlineExceeded, ...(error.param ? { param: error.param } : {}) };
    }
  }
}

/**
 * The providers request for one try. Its idempotency key is stable per (payment, account), so a
 * repeated create at the same account never charges twice. A method chosen on the payment page
 * keys by method too: a Pix that failed at an account and a boleto chosen next at the same
 * account are different charges.
 */
export function chargeRequest(draft: PaymentDoc, candidate: Candidate, expiresInMinutes: number): providersContract.CreateChargeRequest {
  const idempotencyKey =
    draft.requested_account_id === undefined
      ? `${draft._id}:${candidate.account_id}`
      : // A card typed on the payment page is one try per token: a buyer who tries again with another
        // card after an error must not meet the first card's charge under the same key.
        draft.method === 'card' && isVaultToken(draft.card?.token)
        ? `${draft._id}:${draft.method}:${createHash('sha256').update(draft.card?.token ?? '').digest('hex').slice(0, 12)}:${candidate.account_id}`
        : `${draft._id}:${draft.method}:${candidate.account_id}`;
  return {
    merchant_id: draft.merchant_id,
    mode: modeFromName(draft.mode),
    account_id: candidate.account_id,
    payment_id: draft._id,
    method: draft.method,
    amount: draft.amount,
    customer: toProtoPaymentCustomer(draft.customer),
    expires_in_seconds: expiresInMinutes * 60,
    description: draft.description,
    metadata: draft.metadata,
    idempotency_key: idempotencyKey,
    ...(draft.card
      ? { card: { token: draft.card.token, id: draft.card.id ?? '', installments: draft.card.installments, brand: draft.card.brand, without_cvc: draft.card.without_cvc === true } }
      : {}),
    splits: (draft.splits ?? []).map((split) => ({ subaccount_id: split.subaccount_id, split_target: split.split_target, amount: split.amount })),
  };
}
