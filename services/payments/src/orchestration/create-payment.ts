import { modeFromName, modeName, providers as providersContract, type common, type payments, type routing } from '@orquestra/contracts';
import { AppError, GrpcStatus, newId, RpcError, type RpcClient } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { AttemptDoc, PaymentDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import { failoverDecision } from '../domain/failover-policy';
import { computeFee } from '../domain/fees';
import type { PaymentLinks } from '../domain/payment-links';
import { AvailableMethods, DEFAULT_METHOD_CHOICE_MINUTES } from './available-methods';
import { assertMethodInput, needsHostedCheckout } from './method-input';
import { customerOf } from './payment-customer';
import { errorFromRecord, IdempotencyGuard } from './idempotency.guard';
import type { OrphanCharges } from './orphan-charges';

const { ChargeStatus } = providersContract;

export interface CreatePaymentDeps {
  store: PaymentStore;
  idempotency: IdempotencyGuard;
  routing: RpcClient<typeof routing.RoutingServiceService>;
  providers: RpcClient<typeof providersContract.ProvidersServiceService>;
  links: PaymentLinks;
  orphans: OrphanCharges;
  logger: Logger;
  defaultPixExpiresMinutes: number;
  providerCallDeadlineMs: number;
  /** Time the buyer has to choose when `method` is omitted and expires_in_minutes too (payment page). */
  defaultMethodChoiceMinutes?: number;
  /** Days after an unpaid boleto's due date before it is canceled (late compensation; see chargedPayment). */
  boletoCancelAfterDays?: number;
}

/** How a failover walk ended: the account that took the charge, or every attempt of a walk that charged nowhere. */
export type WalkResult =
  | { charged: { candidate: routing.Candidate; charge: providersContract.Charge }; attempts: AttemptDoc[] }
  | { charged: null; attempts: AttemptDoc[]; errorCode: 'provider_timeout' | 'all_providers_failed'; inputError?: AppError };

type Candidate = routing.Candidate;
type Charge = providersContract.Charge;

/**
 * Creates a payment: claims the Idempotency-Key, asks routing for the ordered candidates, and walks
 * them until one account creates the charge (ARCHITECTURE.md "Failover"). Every try is an attempt.
 * The payment is stored once, complete, when a charge exists; when no account can create one,
 * nothing is stored and the key is released for a later retry (nothing was charged).
 */
export class PaymentCreator {
  /** Which methods routing can take now for a payment (requires_method creation and the payment page). */
  readonly methods: AvailableMethods;

  constructor(private readonly deps: CreatePaymentDeps) {
    this.methods = new AvailableMethods(deps.routing);
  }

  async create(request: payments.CreatePaymentRequest, requestId: string): Promise<{ payment: PaymentDoc; replayed: boolean }> {
    const caller = request.caller;
    if (!caller) throw new AppError('unauthenticated');
    const mode = modeName(caller.mode);
    // No method: the buyer chooses on payment_url (status requires_method, see awaiting-method.ts).
    assertMethodInput(request);

    let paymentId = newId('payment');
    const key = request.idempotency_key;
    const recordId = key ? IdempotencyGuard.recordId(caller.merchant_id, mode, key) : '';
    if (key) {
      const claim = await this.deps.idempotency.claim(recordId, request.request_hash, paymentId, Date.now() + 30_000);
      if (claim.kind === 'replay') {
        const payment = await this.deps.store.model.findById(claim.paymentId).lean<PaymentDoc>();
        if (!payment) throw new AppError('internal');
        return { payment, replayed: true };
      }
      paymentId = claim.paymentId;
    }

    try {
      const payment = request.method
        ? await this.createOwned(request, caller, mode, paymentId, requestId)
        : await this.createAwaitingMethod(request, caller, mode, paymentId, requestId);
      if (key) await this.deps.idempotency.complete(recordId, paymentId);
      return { payment, replayed: false };
    } catch (error) {
      const appError = error instanceof AppError ? error : new AppError('internal', { cause: error });
      if (key) await this.deps.idempotency.fail(recordId, paymentId, appError).catch(() => undefined);
      throw error;
    }
  }

  private async createOwned(
    request: payments.CreatePaymentRequest,
    caller: common.Caller,
    mode: 'test' | 'live',
    paymentId: string,
    requestId: string,
  ): Promise<PaymentDoc> {
    const { candidates } = await this.deps.routing.route(
      {
        caller,
        method: request.method,
        amount: request.amount,
        metadata: request.metadata,
        customer: request.customer,
        forced_account_id: request.provider_account_id,
        hosted_checkout: needsHostedCheckout(request.method, request.card),
      },
      { requestId },
    );
    const draft = this.draftOf(request, caller, mode, paymentId);

    // Provider calls first, outside persistence; the payment is stored once, complete, with its
    // attempts and first event, so a failure anywhere leaves nothing half-created.
    const expiresInMinutes = request.expires_in_minutes || this.deps.defaultPixExpiresMinutes;
    const walked = await this.walk(draft, candidates, expiresInMinutes, requestId);
    if (walked.charged) return this.finish({ ...draft, attempts: walked.attempts }, walked.charged.candidate, walked.charged.charge);
    await this.deps.store.recordFailedCreation(draft, walked.attempts, walked.errorCode).catch((error: Error) =>
      this.deps.logger.error({ payment_id: paymentId, err: error.message }, 'could not record the failed creation'),
    );
    throw walked.inputError ?? new AppError(walked.errorCode);
  }

  /**
   * `method` omitted: the payment is stored at once in `requires_method`, with no provider charge,
   * until the buyer picks a method on payment_url (or `expires_at` passes: due work cancels it).
   * Refused when no method at all could be charged now, with routing's own error (bot rule 5).
   */
  private async createAwaitingMethod(
    request: payments.CreatePaymentRequest,
    caller: common.Caller,
    mode: 'test' | 'live',
    paymentId: string,
    requestId: string,
  ): Promise<PaymentDoc> {
    const draft = this.draftOf(request, caller, mode, paymentId);
    const offer = await this.methods.offer(draft, requestId);
    if (offer.methods.length === 0) throw offer.firstError ?? new AppError('no_eligible_account', { param: 'method' });
    const minutes = request.expires_in_minutes || this.deps.defaultMethodChoiceMinutes || DEFAULT_METHOD_CHOICE_MINUTES;
    const expiresAt = new Date(draft.created_at.getTime() + minutes * 60_000);
    return this.deps.store.insertWithEvents(
      { ...draft, method: '', status: 'requires_method', expires_at: expiresAt, due_at: expiresAt, requested_account_id: request.provider_account_id },
      ['payment.created'],
    );
  }

  /** The payment as it is before any charge: everything the merchant gave, nothing from a provider. */
  private draftOf(request: payments.CreatePaymentRequest, caller: common.Caller, mode: 'test' | 'live', paymentId: string): PaymentDoc {
    const now = new Date();
    const customer = request.customer;
    const address = customer?.address;
    const draft: PaymentDoc = {
      _id: paymentId,
      merchant_id: caller.merchant_id,
      mode,
      source_key_id: caller.key_id,
      method: request.method,
      status: 'pending',
      amount: request.amount,
      amount_refunded: 0,
      currency: 'BRL',
      fee: 0,
      net: request.amount,
      description: request.description,
      customer: {
        name: customer?.name ?? '',
        email: customer?.email ?? '',
        document: customer?.document ?? '',
        phone: customer?.phone ?? '',
        address: address && address.street ? { ...address } : null,
        ip: customer?.ip ?? '',
      },
      metadata: request.metadata,
      tracking: request.tracking,
      provider: '',
      provider_account_id: '',
      provider_payment_id: '',
      next_action: null,
      failure_code: '',
      failure_reason: '',
      end_to_end_id: '',
      expires_at: null,
      paid_at: null,
      attempts: [],
      refunds: [],
      events: [],
      idempotency_key: request.idempotency_key,
      ...(request.card?.token
        ? { card: { token: request.card.token, installments: request.card.installments || 1, brand: request.card.brand } }
        : {}),
      created_at: now,
      updated_at: now,
      outbox: [],
      outbox_since: null,
      due_at: null,
    };
    return draft;
  }

  /** Routing's ordered candidates for `draft` (its method, amount, metadata, customer, forced account). */
  async candidatesFor(draft: PaymentDoc, requestId: string): Promise<Candidate[]> {
    const caller: common.Caller = { merchant_id: draft.merchant_id, mode: modeFromName(draft.mode), key_id: draft.source_key_id, restricted: false, request_id: requestId };
    const { candidates } = await this.deps.routing.route(
      { caller, method: draft.method, amount: draft.amount, metadata: draft.metadata, customer: customerOf(draft), forced_account_id: draft.requested_account_id ?? '', hosted_checkout: needsHostedCheckout(draft.method, draft.card) },
      { requestId },
    );
    return candidates;
  }

  /**
   * The failover walk (ARCHITECTURE.md "Failover"): tries the candidates in order until one account
   * creates the charge. Used by creation and by the buyer's choice on the payment page alike.
   */
  async walk(draft: PaymentDoc, candidates: Candidate[], expiresInMinutes: number, requestId: string): Promise<WalkResult> {
    const attempts: AttemptDoc[] = [];
    for (const candidate of candidates) {
      const outcome = await this.tryCandidate(draft, candidate, expiresInMinutes, requestId);
      attempts.push(outcome.attempt);
      if (outcome.charge) return { charged: { candidate, charge: outcome.charge }, attempts };
      // Not "nothing was charged": the charge may exist and is being resolved in the background.
      if (outcome.stop && outcome.attempt.outcome === 'uncertain') return { charged: null, attempts, errorCode: 'provider_timeout' };
      // The account refused one field of the payment (e.g. a card token it did not mint): say which.
      if (outcome.inputError) return { charged: null, attempts, errorCode: 'all_providers_failed', inputError: outcome.inputError };
      if (outcome.stop) break;
    }
    this.deps.logger.warn({ payment_id: draft._id, attempts: attempts.map((a) => `${a.provider_account_id}:${a.failure_code}`) }, 'every provider account failed');
    return { charged: null, attempts, errorCode: 'all_providers_failed' };
  }

  private async tryCandidate(
    draft: PaymentDoc,
    candidate: Candidate,
    expiresInMinutes: number,
    requestId: string,
  ): Promise<{ attempt: AttemptDoc; charge?: Charge; stop?: boolean; inputError?: AppError }> {
    const started = Date.now();
    const attempt = (fields: Partial<AttemptDoc>): AttemptDoc => ({
      id: newId('attempt'),
      provider_account_id: candidate.account_id,
      provider: candidate.provider,
      outcome: 'failed',
      failure_code: '',
      failure_reason: '',
      latency_ms: Date.now() - started,
      provider_payment_id: '',
      created_at: new Date(started),
      ...fields,
    });
    // Stable per (payment, account): a repeated create at the same account never charges twice.
    // A method chosen on the payment page keys by method too: a Pix that failed at an account and a
    // boleto chosen next at the same account are different charges.
    const idempotencyKey = draft.requested_account_id !== undefined ? `${draft._id}:${draft.method}:${candidate.account_id}` : `${draft._id}:${candidate.account_id}`;
    try {
      const { charge } = await this.deps.providers.createCharge(
        this.chargeRequest(draft, candidate, idempotencyKey, expiresInMinutes),
        { requestId, deadlineMs: this.deps.providerCallDeadlineMs },
      );
      if (!charge) throw new AppError('provider_error');
      if (charge.status === ChargeStatus.CHARGE_STATUS_FAILED) {
        return {
          attempt: attempt({ outcome: 'declined', failure_code: charge.failure_code, failure_reason: charge.failure_reason, provider_payment_id: charge.provider_payment_id }),
          charge,
        };
      }
      return { attempt: attempt({ outcome: 'succeeded', provider_payment_id: charge.provider_payment_id }), charge };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const deadline = error instanceof RpcError && error.grpcStatus === GrpcStatus.DEADLINE_EXCEEDED;
      const decision = failoverDecision(error.code, deadline);
      if (decision === 'uncertain') {
        const request = this.chargeRequest(draft, candidate, idempotencyKey, expiresInMinutes);
        if (draft.method !== 'pix') {
          // A card may have been charged: resolve it at this account before any second charge.
          const resolved = await this.resolveUncertain(request, requestId);
          if (resolved) return { attempt: attempt({ outcome: 'succeeded', provider_payment_id: resolved.provider_payment_id, failure_code: 'resolved_after_timeout' }), charge: resolved };
          await this.deps.orphans.record(draft._id, request);
          return { attempt: attempt({ outcome: 'uncertain', failure_code: error.code, failure_reason: error.message }), stop: true };
        }
        // A Pix charge nobody was shown cannot be paid: move on now, and remove whatever this
        // attempt may have created in the background (due work).
        await this.deps.orphans.record(draft._id, request);
        return { attempt: attempt({ outcome: 'uncertain', failure_code: error.code, failure_reason: error.message }) };
      }
      return {
        attempt: attempt({ outcome: 'failed', failure_code: error.code, failure_reason: error.message }),
        stop: decision === 'stop',
        ...(error.code === 'parameter_invalid' && error.param ? { inputError: error } : {}),
      };
    }
  }

  private chargeRequest(
    draft: PaymentDoc,
    candidate: Candidate,
    idempotencyKey: string,
    expiresInMinutes: number,
  ): providersContract.CreateChargeRequest {
    return {
      merchant_id: draft.merchant_id,
      mode: modeFromName(draft.mode),
      account_id: candidate.account_id,
      payment_id: draft._id,
      method: draft.method,
      amount: draft.amount,
      customer: customerOf(draft),
      expires_in_seconds: expiresInMinutes * 60,
      description: draft.description,
      metadata: draft.metadata,
      idempotency_key: idempotencyKey,
      ...(draft.card ? { card: { token: draft.card.token, id: '', installments: draft.card.installments, brand: draft.card.brand } } : {}),
    };
  }

  /** Asks the account again with the same idempotency key: the existing charge, or none created twice. */
  private async resolveUncertain(request: providersContract.CreateChargeRequest, requestId: string): Promise<Charge | undefined> {
    try {
      const { charge } = await this.deps.providers.createCharge(request, { requestId, deadlineMs: this.deps.providerCallDeadlineMs });
      return charge && charge.status !== ChargeStatus.CHARGE_STATUS_FAILED ? charge : undefined;
    } catch {
      return undefined;
    }
  }

  private async finish(draft: PaymentDoc, candidate: Candidate, charge: Charge): Promise<PaymentDoc> {
    const payment = this.chargedPayment(draft, candidate, charge);
    const events =
      payment.status === 'failed' ? ['payment.created', 'payment.failed'] : payment.status === 'succeeded' ? ['payment.created', 'payment.succeeded'] : ['payment.created'];
    return this.deps.store.insertWithEvents(payment, events);
  }

  /** `draft` once `candidate` created `charge`: pending (or failed on a decline), with its next action and expiry. */
  chargedPayment(draft: PaymentDoc, candidate: Candidate, charge: Charge): PaymentDoc {
    const declined = charge.status === ChargeStatus.CHARGE_STATUS_FAILED;
    // A card approved in the create call itself is paid at once (no webhook needed to learn it).
    const paid = charge.status === ChargeStatus.CHARGE_STATUS_PAID;
    const { fee, net } = computeFee(draft.amount, draft.method, candidate.fees, charge.provider_fee >= 0 ? charge.provider_fee : undefined);
    const expiresAt = charge.expires_at ? new Date(charge.expires_at) : null;
    const action = charge.next_action;
    const payment: PaymentDoc = {
      ...draft,
      status: declined ? 'failed' : paid ? 'succeeded' : 'pending',
      paid_at: paid ? (charge.paid_at ? new Date(charge.paid_at) : new Date()) : null,
      provider: candidate.provider,
      provider_account_id: candidate.account_id,
      provider_payment_id: charge.provider_payment_id,
      fee,
      net,
      expires_at: expiresAt,
      next_action:
        action && !declined && !paid
          ? {
              type: action.type,
              qr_code: action.qr_code,
              qr_code_base64: action.qr_code_base64,
              qr_code_url: action.type === 'pix_qr' ? this.deps.links.qrCodeUrl(draft._id) : '',
              digitable_line: action.digitable_line,
              url: action.url,
            }
          : null,
      failure_code: declined ? charge.failure_code || 'card_declined' : '',
      failure_reason: declined ? charge.failure_reason : '',
      // Pix expiry is due work on the payment itself, at expires_at. A boleto paid on its due date
      // is compensated one to three business days later, so an unpaid one is canceled only
      // `boletoCancelAfterDays` after its due date, and the expiry asks the provider first (a paid
      // one becomes succeeded instead): docs/decisions.md "Boleto and card".
      due_at: declined || paid || !expiresAt ? null : draft.method === 'boleto' ? boletoCancelAt(expiresAt, this.deps.boletoCancelAfterDays) : expiresAt,
    };
    return payment;
  }
}

/** Default: 7 calendar days cover three business days after any due date, Carnival included. */
export const DEFAULT_BOLETO_CANCEL_AFTER_DAYS = 7;

export function boletoCancelAt(dueEnd: Date, days = DEFAULT_BOLETO_CANCEL_AFTER_DAYS): Date {
  return new Date(dueEnd.getTime() + days * 86_400_000);
}

export { errorFromRecord };
