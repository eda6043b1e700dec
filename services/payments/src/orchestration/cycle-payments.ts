import { modeFromName, modeName, type payments, type providers as providersContract } from '@orquestra/contracts';
import { AppError, GrpcStatus, isDuplicateKeyError, newId, RpcError, type RpcClient } from '@orquestra/platform';
import type { Logger } from 'pino';
import { attemptEvents } from '../db/payment-events';
import type { AttemptDoc, PaymentDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import { cycleChargeRefusal } from '../domain/cycle-charges';
import { cycleChargeView, recurrenceAccountRef, type CycleChargeApplier } from './cycle-charge-state';
import { assertCycleRequest, cyclePaymentDraft, isSameCycle } from './cycle-payment-draft';

export interface CyclePaymentsDeps {
  store: PaymentStore;
  providers: Pick<RpcClient<typeof providersContract.ProvidersServiceService>, 'getAccount' | 'createCycleCharge'>;
  cycleCharges: Pick<CycleChargeApplier, 'apply'>;
  logger: Logger;
  providerCallDeadlineMs: number;
  /**
   * Reads an adopted charge once at the provider and applies it (PaymentSync.sync): its reports
   * may have come, and been given up, before this payment existed (a paid approval charge).
   */
  readBack?: (payment: PaymentDoc, requestId: string) => Promise<PaymentDoc>;
}

/**
 * CreateCyclePayment (internal, the subscriptions service): one Pix Automático cycle as a
 * payment. Idempotent on the caller's payment id: the payment is inserted under it (the unique
 * insert decides who creates), then its charge is sent by whoever holds the send's claim (the
 * inserter, or a repeat after a send that ended without an answer), and providers
 * CreateCycleCharge is idempotent on the payment id too, so no path ever makes a second charge.
 */
export class CyclePayments {
  constructor(private readonly deps: CyclePaymentsDeps) {}

  async create(request: payments.CreateCyclePaymentRequest, requestId: string): Promise<{ payment: PaymentDoc; created: boolean }> {
    assertCycleRequest(request);
    const { store } = this.deps;
    const existing = await store.findById(request.payment_id);
    if (existing) return { payment: await this.repeat(existing, request, requestId), created: false };

    const account = await this.account(request, requestId);
    const now = new Date();
    const draft = cyclePaymentDraft(request, account, now, this.claimUntil(now));
    const adopted = Boolean(request.provider_charge_id);
    let stored: PaymentDoc;
    try {
      // An adopted charge exists already: the payment starts pending on it.
      stored = await store.insertWithEvents(draft, adopted ? ['payment.created', 'payment.pending'] : ['payment.created']);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      // Another call with this payment id inserted first: its payment is the answer.
      const winner = await store.findById(request.payment_id);
      if (!winner) throw error;
      return { payment: await this.repeat(winner, request, requestId), created: false };
    }
    if (adopted) return { payment: await this.readBack(stored, requestId), created: true };
    return { payment: await this.send(stored, request, requestId), created: true };
  }

  /** The adopted charge as the provider has it now; on failure the payment stays as stored (its next report moves it). */
  private async readBack(stored: PaymentDoc, requestId: string): Promise<PaymentDoc> {
    if (!this.deps.readBack) return stored;
    try {
      return await this.deps.readBack(stored, requestId);
    } catch (error) {
      this.deps.logger.warn({ payment_id: stored._id, err: (error as Error).message }, 'adopted charge not read back; its next report moves it');
      return stored;
    }
  }

  /**
   * A call with a payment id already stored answers that payment. When its charge was never
   * recorded and no send is running (the last one ended without the provider's answer), this
   * call sends it again: same payment id, so the provider answers the charge it may have made.
   */
  private async repeat(stored: PaymentDoc, request: payments.CreateCyclePaymentRequest, requestId: string): Promise<PaymentDoc> {
    if (!isSameCycle(stored, request)) {
      throw new AppError('idempotency_conflict', { param: 'payment_id', message: `O pagamento ${stored._id} já existe e não é este ciclo desta assinatura.` });
    }
    if (stored.status !== 'pending' || stored.provider_payment_id) return stored;
    const now = new Date();
    const claimed = await this.deps.store.claimCycleCharge(stored._id, this.claimUntil(now), now);
    // Another call is sending it right now: its payment, as it is, is the answer.
    if (!claimed) return (await this.deps.store.findById(stored._id)) ?? stored;
    return this.send(claimed, request, requestId);
  }

  /**
   * Sends the cycle's charge for a payment whose send this call holds, and records the answer
   * with one conditional write: the charge id (payment.pending), or the refusal (payment.failed).
   * A send without an answer leaves the payment pending without a charge and fails the call.
   */
  private async send(claimed: PaymentDoc, request: payments.CreateCyclePaymentRequest, requestId: string): Promise<PaymentDoc> {
    const { store } = this.deps;
    const started = Date.now();
    const attempt = (fields: Pick<AttemptDoc, 'outcome'> & Partial<AttemptDoc>): AttemptDoc => ({
      id: newId('attempt'),
      provider_account_id: claimed.provider_account_id,
      provider: claimed.provider,
      failure_code: '',
      failure_reason: '',
      latency_ms: Date.now() - started,
      provider_payment_id: '',
      created_at: new Date(started),
      ...fields,
    });
    let charge: providersContract.CycleCharge;
    try {
      const answer = await this.deps.providers.createCycleCharge(
        {
          account: recurrenceAccountRef(claimed),
          provider_recurrence_id: request.provider_recurrence_id,
          payment_id: claimed._id,
          amount: claimed.amount,
          due_date: request.due_date,
          description: claimed.description,
        },
        { requestId, deadlineMs: this.deps.providerCallDeadlineMs },
      );
      if (!answer.charge) throw new AppError('provider_error');
      charge = answer.charge;
    } catch (error) {
      const appError = error instanceof AppError ? error : new AppError('internal', { cause: error });
      const deadlineExceeded = error instanceof RpcError && error.grpcStatus === GrpcStatus.DEADLINE_EXCEEDED;
      if (cycleChargeRefusal(appError.code, deadlineExceeded) === 'failed') {
        const tried = attempt({ outcome: 'failed', failure_code: appError.code, failure_reason: appError.message });
        const failed = await store.transition(
          claimed,
          'failed',
          'payment.failed',
          { failure_code: appError.code, failure_reason: appError.message, cycle_charge_until: null, attempts: [...claimed.attempts, tried] },
          attemptEvents(claimed, [tried]),
          { cycle_charge_until: claimed.cycle_charge_until ?? null },
        );
        return failed ?? (await this.current(claimed));
      }
      this.deps.logger.warn({ payment_id: claimed._id, code: appError.code, deadline_exceeded: deadlineExceeded }, 'cycle charge sent without an answer; the payment waits for the caller to retry');
      await store.releaseCycleCharge(claimed, attempt({ outcome: 'uncertain', failure_code: appError.code, failure_reason: appError.message }));
      throw error;
    }
    const recorded = await store.recordCycleCharge(claimed, charge.provider_charge_id, attempt({ outcome: 'succeeded', provider_payment_id: charge.provider_charge_id }));
    if (!recorded) return this.current(claimed);
    // A charge answered already final (a retried send after the debit day): applied at once.
    const changed = await this.deps.cycleCharges.apply(recorded, cycleChargeView(charge));
    return changed ? this.current(claimed) : recorded;
  }

  /** The provider account of the subscription: the payment's provider code and the fee schedule. */
  private async account(request: payments.CreateCyclePaymentRequest, requestId: string): Promise<providersContract.ProviderAccount> {
    const { account } = await this.deps.providers.getAccount({ merchant_id: request.merchant_id, mode: modeFromName(modeName(request.mode)), account_id: request.provider_account_id }, { requestId }).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found') {
        throw new AppError('parameter_invalid', { param: 'provider_account_id', message: `A conta de provedor ${request.provider_account_id} não existe neste modo.` });
      }
      throw error;
    });
    if (!account) throw new AppError('internal');
    return account;
  }

  private async current(payment: PaymentDoc): Promise<PaymentDoc> {
    return (await this.deps.store.findById(payment._id)) ?? payment;
  }

  /** The end of a send's claim: longer than any provider call, so only a dead send is taken over. */
  private claimUntil(now: Date): Date {
    return new Date(now.getTime() + 2 * this.deps.providerCallDeadlineMs);
  }
}
