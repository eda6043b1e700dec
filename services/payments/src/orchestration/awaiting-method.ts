import { AppError, LockManager, type ErrorCode } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { PaymentDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import type { PaymentCreator } from './create-payment';

/** How the buyer reads each method (Portuguese messages). */
const METHOD_LABELS: Record<string, string> = { pix: 'Pix', boleto: 'boleto', card: 'cartão' };
export const methodLabel = (method: string): string => METHOD_LABELS[method] ?? method;

/** A second click waits for the first choice's walk (inside the gateway's 30 s deadline). */
const CHOICE_LOCK_WAIT_MS = 25_000;
/** Longer than any walk: the lease only matters if the holder died. */
const CHOICE_LOCK_LEASE_MS = 120_000;
/** Statuses that mean "the buyer's method was taken": a repeated choice of it answers the payment. */
const CHOSEN = new Set(['pending', 'processing', 'succeeded', 'partially_refunded', 'refunded', 'failed']);

export interface AwaitingMethodDeps {
  store: PaymentStore;
  creator: PaymentCreator;
  locks: LockManager;
  logger: Logger;
  /** Pix validity once the buyer chooses Pix (expires_in_minutes bounded the choice, not the Pix). */
  defaultPixExpiresMinutes: number;
}

/**
 * Payments created without a method (status requires_method): the buyer's choice on the payment
 * page, and their cancel and expiry. All three hold one lock per payment (`…:method`), so a choice
 * being charged is never canceled or expired half-way, and a double click charges once: the second
 * request waits, then finds the method taken and answers the same payment.
 */
export class AwaitingMethodPayments {
  constructor(private readonly deps: AwaitingMethodDeps) {}

  static lockName(paymentId: string): string {
    return `${LockManager.documentLock('payments', paymentId)}:method`;
  }

  /** The buyer picks `method`: the same failover walk as a creation with that method, then requires_method → pending. */
  async choose(paymentId: string, method: string, requestId: string): Promise<PaymentDoc> {
    return this.withChoiceLock(paymentId, CHOICE_LOCK_WAIT_MS, async () => {
      const payment = await this.deps.store.model.findById(paymentId).lean<PaymentDoc>();
      if (!payment) throw new AppError('not_found', { param: 'id', message: 'Pagamento não encontrado. Confira o link recebido.' });
      if (payment.status !== 'requires_method') {
        if (payment.method === method && CHOSEN.has(payment.status)) return payment;
        throw new AppError('payment_not_awaiting_method', { param: 'method' });
      }
      if (this.isPastExpiry(payment)) {
        await this.expireLocked(payment);
        throw new AppError('payment_not_awaiting_method', {
          param: 'method',
          message: 'O prazo para escolher a forma de pagamento terminou. Peça um novo link de pagamento a quem fez a cobrança.',
        });
      }
      const offer = await this.deps.creator.methods.offer(payment, requestId);
      if (!offer.methods.includes(method)) {
        throw new AppError('method_not_available', {
          param: 'method',
          message: `A forma de pagamento ${methodLabel(method)} não está disponível para este pagamento. Escolha uma das opções oferecidas: ${offer.methods.map(methodLabel).join(', ') || 'nenhuma no momento'}.`,
        });
      }
      return this.charge(payment, method, requestId);
    });
  }

  private async charge(payment: PaymentDoc, method: string, requestId: string): Promise<PaymentDoc> {
    const { creator, store } = this.deps;
    const draft: PaymentDoc = { ...payment, method, requested_account_id: payment.requested_account_id ?? '' };
    const candidates = await creator.candidatesFor(draft, requestId);
    const walked = await creator.walk(draft, candidates, this.deps.defaultPixExpiresMinutes, requestId);
    if (!walked.charged) {
      // Nothing was charged (or an uncertain charge is being removed in the background): the
      // payment stays requires_method, so the buyer can try again or pick another method.
      await store.recordAttempts(payment._id, walked.attempts);
      // A refusal of the request itself (e.g. data the method needs) is answered as it is.
      if (walked.inputError) throw walked.inputError;
      const code: ErrorCode = walked.errorCode;
      throw new AppError(code, { message: 'Não foi possível gerar a cobrança agora. Tente novamente em instantes ou escolha outra forma de pagamento.' });
    }
    const charged = creator.chargedPayment({ ...draft, attempts: [...payment.attempts, ...walked.attempts] }, walked.charged.candidate, walked.charged.charge);
    const to = charged.status === 'failed' ? 'failed' : 'pending';
    const changes: Partial<PaymentDoc> = {
      method,
      provider: charged.provider,
      provider_account_id: charged.provider_account_id,
      provider_payment_id: charged.provider_payment_id,
      fee: charged.fee,
      net: charged.net,
      expires_at: charged.expires_at,
      next_action: charged.next_action,
      failure_code: charged.failure_code,
      failure_reason: charged.failure_reason,
      attempts: charged.attempts,
      due_at: charged.due_at,
    };
    const updated = await store.transition(payment, to, to === 'failed' ? 'payment.failed' : 'payment.pending', changes, store.attemptEvents(payment, walked.attempts));
    if (updated) return updated;
    // Only a holder whose lease ran out gets here (cancel and expiry wait for this lock).
    this.deps.logger.error({ payment_id: payment._id, provider_payment_id: charged.provider_payment_id }, 'payment changed while its chosen method was charged');
    throw new AppError('payment_not_awaiting_method', { param: 'method' });
  }

  /** POST cancel of a requires_method payment: nothing to undo at a provider. Null when a choice won meanwhile. */
  async cancel(paymentId: string): Promise<PaymentDoc | null> {
    return this.withChoiceLock(paymentId, 15_000, async () => {
      const fresh = await this.deps.store.model.findById(paymentId).lean<PaymentDoc>();
      if (!fresh || fresh.status !== 'requires_method') return null;
      return this.deps.store.transition(fresh, 'canceled', 'payment.canceled', { due_at: null, next_action: null });
    });
  }

  /**
   * Due work: the time to choose ran out. Skipped (and retried by the worker) while a choice is
   * being charged; if that choice wins, the payment is pending and has a Pix expiry of its own.
   */
  async expire(payment: PaymentDoc): Promise<void> {
    const lock = await this.deps.locks.tryAcquire(AwaitingMethodPayments.lockName(payment._id), CHOICE_LOCK_LEASE_MS);
    if (!lock) return;
    try {
      const fresh = await this.deps.store.model.findById(payment._id).lean<PaymentDoc>();
      if (fresh && fresh.status === 'requires_method' && this.isPastExpiry(fresh)) await this.expireLocked(fresh);
    } finally {
      await this.deps.locks.release(lock).catch(() => undefined);
    }
  }

  isPastExpiry(payment: PaymentDoc, now = Date.now()): boolean {
    return payment.expires_at !== null && new Date(payment.expires_at).getTime() <= now;
  }

  private async expireLocked(payment: PaymentDoc): Promise<void> {
    const canceled = await this.deps.store.transition(payment, 'canceled', 'payment.canceled', {
      due_at: null,
      next_action: null,
      failure_code: 'expired',
      failure_reason: 'O prazo para escolher a forma de pagamento terminou.',
    });
    if (canceled) this.deps.logger.info({ payment_id: payment._id }, 'payment awaiting a method expired and was canceled');
  }

  private async withChoiceLock<T>(paymentId: string, waitMs: number, work: () => Promise<T>): Promise<T> {
    const lock = await this.deps.locks.acquire(AwaitingMethodPayments.lockName(paymentId), { waitMs, leaseMs: CHOICE_LOCK_LEASE_MS }).catch((error: Error) => {
      throw new AppError('service_unavailable', { message: 'Este pagamento está sendo processado. Aguarde alguns segundos e recarregue a página.', cause: error });
    });
    try {
      return await work();
    } finally {
      await this.deps.locks.release(lock).catch(() => undefined);
    }
  }
}
