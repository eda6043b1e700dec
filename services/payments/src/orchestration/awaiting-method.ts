import { randomUUID } from 'node:crypto';
import { isVaultToken } from '@orquestra/contracts';
import { AppError, type ErrorCode } from '@orquestra/platform';
import type { Logger } from 'pino';
import { attemptEvents } from '../db/payment-events';
import { methodChoiceHeldBy, noMethodChoice, type PaymentGuard } from '../db/payment-filters';
import type { PaymentDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import type { PaymentLinks } from '../domain/payment-links';
import type { AvailableMethods } from './available-methods';
import type { ChargeWalker } from './charge-walker';
import { chargedPayment } from './charged-payment';

/** The card the page's card fields tokenized (only its `tok_…`: the card data went to the vault). */
export interface ChosenCard {
  token: string;
}

/** How the buyer reads each method (Portuguese messages). */
const METHOD_LABELS: Record<string, string> = { pix: 'Pix', boleto: 'boleto', card: 'cartão' };
export const methodLabel = (method: string): string => METHOD_LABELS[method] ?? method;

/** A second click waits for the first choice's walk (inside the gateway's 30 s deadline). */
const CHOICE_WAIT_MS = 25_000;
/** A cancel waits for a choice being charged, then cancels (or answers the charged payment). */
const CANCEL_WAIT_MS = 15_000;
/** Longer than any walk: `until` only matters if the holder died. */
const CHOICE_LEASE_MS = 120_000;
/** How often a waiting request looks whether the choice being charged has ended. */
const CHOICE_POLL_MS = 100;
/** Statuses that mean "the buyer's method was taken": a repeated choice of it answers the payment. */
const CHOSEN = new Set(['pending', 'processing', 'succeeded', 'partially_refunded', 'refunded', 'failed']);

function choiceActive(payment: PaymentDoc, now = Date.now()): boolean {
  return Boolean(payment.method_choice && new Date(payment.method_choice.until).getTime() > now);
}

export interface AwaitingMethodDeps {
  store: PaymentStore;
  walker: ChargeWalker;
  methods: AvailableMethods;
  links: PaymentLinks;
  logger: Logger;
  /** Days after an unpaid boleto's due date before it is canceled (charged-payment.ts). */
  boletoCancelAfterDays?: number;
  /** Pix validity once the buyer chooses Pix (expires_in_minutes bounded the choice, not the Pix). */
  defaultPixExpiresMinutes: number;
}

/**
 * Payments created without a method (status requires_method): the buyer's choice on the payment
 * page, and their cancel and expiry. A choice is claimed on the payment itself (`method_choice`,
 * one conditional write) before its charge walk, and cancel and expiry write only while no choice
 * is claimed, so a choice being charged is never canceled or expired half-way, and a double click
 * charges once: the second request waits, then finds the method taken and answers the same payment.
 */
export class AwaitingMethodPayments {
  constructor(private readonly deps: AwaitingMethodDeps) {}

  /**
   * The buyer picks `method`: the same failover walk as a creation with that method, then
   * requires_method → pending (or failed: a card declined). A card with `card.token` (the card
   * fields' `tok_…`) is charged as a vault card; a card without one goes to a hosted checkout.
   */
  async choose(paymentId: string, method: string, requestId: string, card?: ChosenCard): Promise<PaymentDoc> {
    const { store } = this.deps;
    if (card && method !== 'card') {
      throw new AppError('parameter_invalid', { param: 'card', message: 'Envie card somente com a forma de pagamento cartão (method card).' });
    }
    if (card && !isVaultToken(card.token)) {
      throw new AppError('parameter_invalid', {
        param: 'card.token',
        message: 'card.token deve ser o token (tok_…) devolvido pelos campos de cartão desta página. Digite o cartão novamente.',
      });
    }
    const deadline = Date.now() + CHOICE_WAIT_MS;
    for (;;) {
      const now = new Date();
      const choice = { id: randomUUID(), method, until: new Date(now.getTime() + CHOICE_LEASE_MS) };
      const claimed = await store.claimMethodChoice(paymentId, choice, now);
      if (claimed) {
        try {
          return await this.chooseClaimed(claimed, method, choice.id, requestId, card);
        } finally {
          // Ends a choice that charged nothing (a charged one ended with its transition).
          await store.releaseMethodChoice(paymentId, choice.id).catch(() => undefined);
        }
      }
      const payment = await store.findById(paymentId);
      if (!payment) throw new AppError('not_found', { param: 'id', message: 'Pagamento não encontrado. Confira o link recebido.' });
      if (payment.status !== 'requires_method') {
        if (payment.method === method && CHOSEN.has(payment.status)) return payment;
        throw new AppError('payment_not_awaiting_method', { param: 'method' });
      }
      await this.waitForChoice(deadline);
    }
  }

  private async chooseClaimed(payment: PaymentDoc, method: string, choiceId: string, requestId: string, card: ChosenCard | undefined): Promise<PaymentDoc> {
    if (this.isPastExpiry(payment)) {
      await this.cancelExpired(payment, methodChoiceHeldBy(choiceId));
      throw new AppError('payment_not_awaiting_method', {
        param: 'method',
        message: 'O prazo para escolher a forma de pagamento terminou. Peça um novo link de pagamento a quem fez a cobrança.',
      });
    }
    const offer = await this.deps.methods.offer(payment, requestId);
    if (!offer.methods.includes(method)) {
      throw new AppError('method_not_available', {
        param: 'method',
        message: `A forma de pagamento ${methodLabel(method)} não está disponível para este pagamento. Escolha uma das opções oferecidas: ${offer.methods.map(methodLabel).join(', ') || 'nenhuma no momento'}.`,
      });
    }
    if (card && !offer.vaultCards) {
      throw new AppError('method_not_available', {
        param: 'card.token',
        message: 'Este pagamento não aceita cartão digitado nesta página no momento. Recarregue a página e escolha outra forma de pagamento.',
      });
    }
    return this.charge(payment, method, choiceId, requestId, card);
  }

  private async charge(payment: PaymentDoc, method: string, choiceId: string, requestId: string, card: ChosenCard | undefined): Promise<PaymentDoc> {
    const { walker, store } = this.deps;
    const draft: PaymentDoc = {
      ...payment,
      method,
      requested_account_id: payment.requested_account_id ?? '',
      // The card fields' tok_: any account that charges vault cards may take it (one installment on the page).
      ...(card ? { card: { token: card.token, installments: 1, brand: '' } } : {}),
    };
    const candidates = await walker.candidatesFor(draft, requestId);
    const walked = await walker.walk(draft, candidates, this.deps.defaultPixExpiresMinutes, requestId);
    if (!walked.charged) {
      // Nothing was charged (or an uncertain charge is being removed in the background): the
      // payment stays requires_method, so the buyer can try again or pick another method.
      await store.recordAttempts(payment, walked.attempts);
      // A refusal of the request itself (e.g. data the method needs) is answered as it is.
      const input = walked.inputError;
      if (input) throw new AppError(input.code, { message: input.message, param: input.param });
      const code: ErrorCode = walked.errorCode;
      throw new AppError(code, { message: 'Não foi possível gerar a cobrança agora. Tente novamente em instantes ou escolha outra forma de pagamento.' });
    }
    const charged = chargedPayment({ ...draft, attempts: [...payment.attempts, ...walked.attempts] }, walked.charged.candidate, walked.charged.charge, {
      qrCodeUrl: (id) => this.deps.links.qrCodeUrl(id),
      boletoCancelAfterDays: this.deps.boletoCancelAfterDays,
    });
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
      method_choice: null,
      ...(draft.card ? { card: draft.card } : {}),
    };
    const updated = await store.transition(payment, to, to === 'failed' ? 'payment.failed' : 'payment.pending', changes, attemptEvents(payment, walked.attempts), methodChoiceHeldBy(choiceId));
    if (updated && charged.status === 'succeeded') {
      // A card paid at once (the card fields' tok_): requires_method → pending is the choice, then
      // the payment is paid (docs/payment-states.md keeps requires_method → succeeded out of the table).
      const paid = await store.transition(updated, 'succeeded', 'payment.succeeded', { paid_at: charged.paid_at, due_at: null });
      return paid ?? (await store.findById(payment._id)) ?? updated;
    }
    if (updated) return updated;
    // Only a holder whose claim ran out gets here (cancel and expiry wait while a choice is claimed).
    this.deps.logger.error({ payment_id: payment._id, provider_payment_id: charged.provider_payment_id }, 'payment changed while its chosen method was charged');
    throw new AppError('payment_not_awaiting_method', { param: 'method' });
  }

  /** POST cancel of a requires_method payment: nothing to undo at a provider. Null when a choice won meanwhile. */
  async cancel(paymentId: string): Promise<PaymentDoc | null> {
    const deadline = Date.now() + CANCEL_WAIT_MS;
    for (;;) {
      const fresh = await this.deps.store.findById(paymentId);
      if (!fresh || fresh.status !== 'requires_method') return null;
      if (choiceActive(fresh)) {
        await this.waitForChoice(deadline);
        continue;
      }
      const canceled = await this.deps.store.transition(fresh, 'canceled', 'payment.canceled', { due_at: null, next_action: null, method_choice: null }, [], noMethodChoice(new Date()));
      if (canceled) return canceled;
      // A choice was claimed (or the payment moved on) between the read and the write: look again.
    }
  }

  /**
   * The time to choose ran out (due work, or the payment page finding it first). Nothing is
   * written while a choice is being charged: the worker tries again when its claim ends, and if
   * that choice wins, the payment is pending and has a Pix expiry of its own.
   */
  async expire(payment: PaymentDoc): Promise<void> {
    if (payment.status !== 'requires_method' || !this.isPastExpiry(payment)) return;
    await this.cancelExpired(payment, noMethodChoice(new Date()));
  }

  isPastExpiry(payment: PaymentDoc, now = Date.now()): boolean {
    return payment.expires_at !== null && new Date(payment.expires_at).getTime() <= now;
  }

  private async cancelExpired(payment: PaymentDoc, guard: PaymentGuard): Promise<void> {
    const canceled = await this.deps.store.transition(
      payment,
      'canceled',
      'payment.canceled',
      { due_at: null, next_action: null, method_choice: null, failure_code: 'expired', failure_reason: 'O prazo para escolher a forma de pagamento terminou.' },
      [],
      guard,
    );
    if (canceled) this.deps.logger.info({ payment_id: payment._id }, 'payment awaiting a method expired and was canceled');
  }

  private async waitForChoice(deadline: number): Promise<void> {
    if (Date.now() > deadline) {
      throw new AppError('service_unavailable', { message: 'Este pagamento está sendo processado. Aguarde alguns segundos e recarregue a página.' });
    }
    await new Promise((resolve) => setTimeout(resolve, CHOICE_POLL_MS));
  }
}
