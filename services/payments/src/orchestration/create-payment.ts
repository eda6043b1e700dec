import { modeName, type common, type payments, type routing } from '@orquestra/contracts';
import { AppError, isDuplicateKeyError, newId, type RpcClient } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { PaymentDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import { creationEvents } from '../domain/charge-outcome';
import type { PaymentLinks } from '../domain/payment-links';
import { DEFAULT_METHOD_CHOICE_MINUTES, type AvailableMethods } from './available-methods';
import { chargedPayment } from './charged-payment';
import type { Candidate, ChargeWalker } from './charge-walker';
import { IdempotencyGuard } from '../db/idempotency.guard';
import { assertMethodInput, needsHostedCheckout, vaultCardRoute } from './method-input';
import { paymentDraft } from './payment-draft';
import type { PaymentSplits } from './payment-splits';

export interface CreatePaymentDeps {
  store: PaymentStore;
  idempotency: IdempotencyGuard;
  routing: Pick<RpcClient<typeof routing.RoutingServiceService>, 'route'>;
  walker: ChargeWalker;
  methods: AvailableMethods;
  splits: Pick<PaymentSplits, 'resolve'>;
  links: PaymentLinks;
  logger: Logger;
  defaultPixExpiresMinutes: number;
  /** Time the buyer has to choose when `method` is omitted and expires_in_minutes too (payment page). */
  defaultMethodChoiceMinutes?: number;
  /** Days after an unpaid boleto's due date before it is canceled (late compensation; see charged-payment.ts). */
  boletoCancelAfterDays?: number;
}

/**
 * Creates a payment (the use case: it sequences the steps and persists). Claims the
 * Idempotency-Key, asks routing for the ordered candidates, drafts the payment, walks the
 * candidates until one account creates the charge (charge-walker.ts, domain/failover-walk.ts),
 * derives the payment from that charge (charged-payment.ts) and stores it once, complete, with
 * its attempts and first events. When no account creates one, only the failed creation is kept
 * (its attempts) and the key is released for a later retry (nothing was charged).
 */
/** Routing's answer asked before the key's claim: its candidates, or its refusal (thrown after the claim). */
type Routed = { candidates: Candidate[] } | { error: unknown };

/**
 * How the charge walk starts: candidates routed already (or routing asked in the walk); a resumed
 * create's earlier owner's account (asked first); the account the key's record names now.
 */
interface WalkStart {
  routed: Routed | undefined;
  earlierAccount: string;
  named: string;
  /** The key's owner token (IdempotencyGuard.claim), '' without a key. */
  owner: string;
}

export class PaymentCreator {
  constructor(private readonly deps: CreatePaymentDeps) {}

  async create(request: payments.CreatePaymentRequest, requestId: string): Promise<{ payment: PaymentDoc; replayed: boolean }> {
    const caller = request.caller;
    if (!caller) throw new AppError('unauthenticated');
    const mode = modeName(caller.mode);
    // No method: the buyer chooses on payment_url (status requires_method, see awaiting-method.ts).
    assertMethodInput(request);

    let paymentId = newId('payment');
    const key = request.idempotency_key;
    const recordId = key ? IdempotencyGuard.recordId(caller.merchant_id, mode, key) : '';
    // A keyed create that charges now (a method and no splits: a split's account comes from its
    // subaccounts, read after the claim) asks routing before claiming the key, so the claim itself
    // names the first account the walk asks, with no write of its own (IdempotencyRecordDoc.trying).
    // A routing refusal waits until after the claim: a replay of the key is answered first,
    // whatever routing says now.
    const preRouted: Routed | undefined =
      key && request.method && request.splits.length === 0
        ? await this.route(request, caller, undefined, paymentId, requestId).then((candidates) => ({ candidates }), (error: unknown) => ({ error }))
        : undefined;
    const firstAccount = preRouted && 'candidates' in preRouted ? (preRouted.candidates[0]?.account_id ?? '') : '';
    let walk: WalkStart = { routed: preRouted, earlierAccount: '', named: firstAccount, owner: '' };
    if (key) {
      const claim = await this.deps.idempotency.claim(recordId, request.request_hash, paymentId, Date.now() + 30_000, firstAccount);
      if (claim.kind === 'replay') {
        // The record is this merchant's (its id carries merchant and mode): its payment is theirs.
        const payment = await this.deps.store.findById(claim.paymentId);
        if (!payment) throw new AppError('internal');
        return { payment, replayed: true };
      }
      paymentId = claim.paymentId;
      walk.owner = claim.owner;
      // Resumed under the earlier owner's payment id: routed again with that id (a weighted rule's
      // draw is fixed by it), asking the account the earlier owner was asking first.
      if (claim.resumed) walk = { routed: undefined, earlierAccount: claim.earlierAccount, named: claim.earlierAccount, owner: claim.owner };
      if (claim.resumed) {
        // The earlier owner of this key died or timed out: if it stored the payment, that is the answer.
        const stored = await this.deps.store.findById(paymentId);
        if (stored) {
          await this.deps.idempotency.complete(recordId, claim.owner);
          return { payment: stored, replayed: true };
        }
      }
    }
    const { owner } = walk;

    const releaseLease = key ? this.deps.idempotency.holdLease(recordId, owner) : () => undefined;
    const progress = { charged: false };
    try {
      // After the key's claim: a retry of a created split payment is its replay, whatever became
      // of its subaccounts since. A refusal creates nothing and releases the key.
      const split = await this.deps.splits.resolve(request, caller, requestId);
      const payment = request.method
        ? await this.createCharged(request, caller, mode, paymentId, requestId, split, progress, walk)
        : await this.createAwaitingMethod(request, caller, mode, paymentId, requestId, split);
      if (key) await this.deps.idempotency.complete(recordId, owner);
      return { payment, replayed: false };
    } catch (error) {
      // An owner presumed dead that was only slow, racing its successor under the same payment id:
      // the provider found the one charge by its idempotency key, and the first insert won.
      const stored = key && isDuplicateKeyError(error) ? await this.deps.store.findById(paymentId) : null;
      if (stored) {
        await this.deps.idempotency.complete(recordId, owner);
        return { payment: stored, replayed: true };
      }
      const appError = error instanceof AppError ? error : new AppError('internal', { cause: error });
      // Charged but not stored (the store failed the insert): the retry must find this charge. An
      // owner whose key was taken over writes nothing (fail is conditional on its token).
      if (key) await this.deps.idempotency.fail(recordId, owner, appError, progress.charged).catch(() => undefined);
      throw error;
    } finally {
      releaseLease();
    }
  }

  private async createCharged(
    request: payments.CreatePaymentRequest,
    caller: common.Caller,
    mode: 'test' | 'live',
    paymentId: string,
    requestId: string,
    split: ResolvedSplit,
    progress: { charged: boolean },
    walk: WalkStart,
  ): Promise<PaymentDoc> {
    if (walk.routed && 'error' in walk.routed) throw walk.routed.error;
    const candidates = walk.routed?.candidates ?? (await this.route(request, caller, split, paymentId, requestId));
    const draft = withSplits(paymentDraft(request, caller, mode, paymentId), split);

    // Provider calls first, outside persistence; the payment is stored once, complete, so a
    // failure anywhere leaves nothing half-created.
    const recordId = request.idempotency_key ? IdempotencyGuard.recordId(caller.merchant_id, mode, request.idempotency_key) : '';
    let named = walk.named;
    const walked = await this.deps.walker.walk(draft, candidates, request.expires_in_minutes || this.deps.defaultPixExpiresMinutes, requestId, {
      earlierAccount: walk.earlierAccount,
      // The key's record names each account before it is asked (one write per failover; the
      // first account was named by the claim), so a successor of a dead owner knows where to look.
      ...(recordId
        ? {
            beforeTry: async (candidate) => {
              if (candidate.account_id === named) return;
              await this.deps.idempotency.noteTry(recordId, walk.owner, candidate.account_id);
              named = candidate.account_id;
            },
          }
        : {}),
    });
    if (walked.charged) {
      progress.charged = true;
      const payment = chargedPayment({ ...draft, attempts: walked.attempts }, walked.charged.candidate, walked.charged.charge, {
        qrCodeUrl: (id) => this.deps.links.qrCodeUrl(id),
        boletoCancelAfterDays: this.deps.boletoCancelAfterDays,
      });
      return this.deps.store.insertWithEvents(payment, creationEvents(payment.status));
    }
    await this.deps.store.recordFailedCreation(draft, walked.attempts, walked.errorCode).catch((error: Error) =>
      this.deps.logger.error({ payment_id: paymentId, err: error.message }, 'could not record the failed creation'),
    );
    const input = walked.inputError;
    throw input ? new AppError(input.code, { message: input.message, param: input.param }) : new AppError(walked.errorCode);
  }

  /** Routing's ordered candidates for the charge (a weighted rule's draw fixed by the payment id). */
  private async route(request: payments.CreatePaymentRequest, caller: common.Caller, split: ResolvedSplit, paymentId: string, requestId: string): Promise<Candidate[]> {
    const { candidates } = await this.deps.routing.route(
      {
        caller,
        method: request.method,
        amount: request.amount,
        metadata: request.metadata,
        customer: request.customer,
        forced_account_id: split?.accountId ?? request.provider_account_id,
        hosted_checkout: needsHostedCheckout(request.method, request.card),
        ...vaultCardRoute(request.card),
        // A resumed create (same payment id) draws the same account of a weighted rule.
        payment_id: paymentId,
      },
      { requestId },
    );
    return candidates;
  }

  /**
   * `method` omitted: the payment is stored at once in `requires_method`, with no provider charge,
   * until the buyer picks a method on payment_url (or `expires_at` passes: due work cancels it).
   * Refused when no method at all could be charged now, with routing's own error (bot rule 5).
   */
  private async createAwaitingMethod(request: payments.CreatePaymentRequest, caller: common.Caller, mode: 'test' | 'live', paymentId: string, requestId: string, split: ResolvedSplit): Promise<PaymentDoc> {
    // The account the buyer's charge will be walked at (forced, or the subaccounts' for a split): only its methods are offered.
    const requestedAccountId = split?.accountId ?? request.provider_account_id;
    const draft = { ...withSplits(paymentDraft(request, caller, mode, paymentId), split), requested_account_id: requestedAccountId };
    const offer = await this.deps.methods.offer(draft, requestId);
    if (offer.methods.length === 0) throw offer.firstError ?? new AppError('no_eligible_account', { param: 'method' });
    const minutes = request.expires_in_minutes || this.deps.defaultMethodChoiceMinutes || DEFAULT_METHOD_CHOICE_MINUTES;
    const expiresAt = new Date(draft.created_at.getTime() + minutes * 60_000);
    return this.deps.store.insertWithEvents(
      { ...draft, method: '', status: 'requires_method', expires_at: expiresAt, due_at: expiresAt },
      ['payment.created'],
    );
  }
}

type ResolvedSplit = Awaited<ReturnType<PaymentSplits['resolve']>>;

/** The draft with its split parts, pinned to the subaccounts' account by the routing request. */
function withSplits(draft: PaymentDoc, split: ResolvedSplit): PaymentDoc {
  return split ? { ...draft, splits: split.splits } : draft;
}
