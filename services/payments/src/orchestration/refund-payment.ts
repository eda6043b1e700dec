import { modeFromName, modeName, type payments, type providers as providersContract } from '@orquestra/contracts';
import { AppError, formatBrl, newId, type ErrorCode, type RpcClient } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { CallerScope } from '../db/payment-filters';
import type { PaymentDoc, RefundDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import { checkRefundRequest, planReports, withTotals, type RefundReport } from '../domain/refunds';
import type { RefundFollowUpRecorder } from '../jobs/refund-follow-ups';
import { IdempotencyGuard } from '../db/idempotency.guard';
import { reportFromProto } from './refund-reports';

/**
 * Errors after which the provider certainly did not refund: the reservation is removed and the
 * error answered. Any other failure (timeout, lost answer) leaves the refund pending: it may exist
 * at the provider, the provider's webhook or a sync settles it, and a retry never refunds twice.
 */
const NOT_REFUNDED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'provider_rejected',
  'refund_not_supported',
  'provider_unavailable',
  'provider_rate_limited',
  'invalid_credentials',
  'not_found',
  'parameter_missing',
  'parameter_invalid',
  'amount_too_small',
]);

export interface PaymentRefundsDeps {
  store: PaymentStore;
  /** A guard of its own: its lease outlasts a refund request (its writes and the provider call). */
  idempotency: IdempotencyGuard;
  providers: RpcClient<typeof providersContract.ProvidersServiceService>;
  logger: Logger;
  providerCallDeadlineMs: number;
  /** Where refunds left pending are followed up until final (absent in tests that do not need it). */
  followUps?: Pick<RefundFollowUpRecorder, 'record'>;
}

export interface RefundResult {
  refund: RefundDoc;
  payment: PaymentDoc;
  replayed: boolean;
}

/**
 * Refunds of a payment. A request first reserves its amount: a pending refund added by one
 * conditional write on the payment's version, checked against what is left in that same read
 * (PaymentStore.changeRefunds), so concurrent partial refunds can never add up to more than was
 * paid. The provider call happens after the reservation, outside any write; webhooks, syncs and
 * other refunds keep updating the payment meanwhile, and its answer is recorded by another
 * conditional write.
 */
export class PaymentRefunds {
  constructor(private readonly deps: PaymentRefundsDeps) {}

  /**
   * How long a reservation may belong to a request still running (its provider call may be
   * retried once); a sync leaves it to that request until then.
   */
  private get requestSpanMs(): number {
    return this.deps.providerCallDeadlineMs * 2 + 10_000;
  }

  async refund(request: payments.RefundPaymentRequest, requestId: string): Promise<RefundResult> {
    const caller = request.caller;
    if (!caller || !caller.merchant_id) throw new AppError('unauthenticated');
    if (caller.restricted) throw new AppError('restricted_key', { message: 'Chaves restritas não podem fazer reembolsos. Use uma chave completa.' });
    const scope: CallerScope = { merchantId: caller.merchant_id, mode: modeName(caller.mode) };
    const refundId = newId('refund');
    const key = request.idempotency_key;
    // Refund keys live beside payment-creation keys, in their own namespace.
    const recordId = key ? IdempotencyGuard.recordId(caller.merchant_id, scope.mode, `refund:${key}`) : '';
    let owner = '';
    if (key) {
      const claim = await this.deps.idempotency.claim(recordId, request.request_hash, refundId, Date.now() + 60_000);
      if (claim.kind === 'replay') {
        const payment = await this.deps.store.findForCaller(request.payment_id, scope);
        const refund = (payment.refunds ?? []).find((r) => r.id === claim.paymentId);
        if (!refund) throw new AppError('internal', { message: `refund ${claim.paymentId} of a replayed key is missing` });
        return { refund, payment, replayed: true };
      }
      owner = claim.owner;
    }
    try {
      const result = await this.refundReserved(request, scope, refundId, requestId);
      // The provider has answered: from here nothing may mark the key failed (a retry with it would
      // take over under a new refund id and refund again). Sync still finds a refund whose
      // follow-up could not be recorded.
      if (result.refund.status === 'pending') {
        await this.deps.followUps?.record(result.refund.id, result.payment).catch((error: Error) =>
          this.deps.logger.error({ refund_id: result.refund.id, err: error.message }, 'could not schedule the refund follow-up; sync will settle it'),
        );
      }
      if (key) await this.deps.idempotency.complete(recordId, owner);
      return result;
    } catch (error) {
      const appError = error instanceof AppError ? error : new AppError('internal', { cause: error });
      if (key) await this.deps.idempotency.fail(recordId, owner, appError).catch(() => undefined);
      throw error;
    }
  }

  private async refundReserved(request: payments.RefundPaymentRequest, scope: CallerScope, refundId: string, requestId: string): Promise<RefundResult> {
    const payment = await this.deps.store.findForCaller(request.payment_id, scope);

    // 1. Reserve: a pending refund counts against what is left from now on (no event yet). The
    // check runs on the read the reservation is written against, again after any lost race.
    let refused: AppError | undefined;
    let amount = 0;
    const reserved = await this.deps.store.changeRefunds(payment._id, (fresh) => {
      const check = checkRefundRequest(fresh, request.amount);
      if (!check.ok) {
        refused = refusal(check.reason, fresh, check.remaining);
        return null;
      }
      refused = undefined;
      amount = check.amount;
      const now = new Date();
      const reservation: RefundDoc = {
        id: refundId,
        amount: check.amount,
        status: 'pending',
        reason: request.reason,
        source: 'service',
        provider_refund_id: '',
        failure_code: '',
        failure_reason: '',
        announced: false,
        created_at: now,
        updated_at: now,
      };
      return { refunds: [...fresh.refunds, reservation], amount_refunded: fresh.amount_refunded, status: fresh.status, events: [] };
    });
    if (refused) throw refused;
    if (!reserved) throw new AppError('not_found', { param: 'id', message: `Pagamento ${payment._id} não encontrado.` });

    // 2. Ask the provider (the reservation holds the amount meanwhile).
    let report: RefundReport;
    try {
      const { refund } = await this.deps.providers.refundCharge(
        {
          ref: { merchant_id: payment.merchant_id, mode: modeFromName(payment.mode), account_id: payment.provider_account_id, provider_payment_id: payment.provider_payment_id },
          refund_key: refundId,
          amount,
          reason: request.reason,
          end_to_end_id: payment.end_to_end_id,
        },
        { requestId, deadlineMs: this.deps.providerCallDeadlineMs },
      );
      if (!refund) throw new AppError('provider_error');
      report = reportFromProto(refund);
    } catch (error) {
      if (error instanceof AppError && NOT_REFUNDED.has(error.code)) {
        // Nothing was refunded: the reservation goes, as if the request had never come.
        await this.deps.store.changeRefunds(payment._id, (fresh) => {
          const mine = fresh.refunds.find((r) => r.id === refundId);
          if (!mine || mine.announced) return null;
          return { refunds: fresh.refunds.filter((r) => r.id !== refundId), amount_refunded: fresh.amount_refunded, status: fresh.status, events: [] };
        });
        throw error;
      }
      // Outcome unknown: keep the refund pending (still reserved) and say so.
      this.deps.logger.warn({ payment_id: payment._id, refund_id: refundId, err: (error as Error).message }, 'refund outcome unknown; left pending');
      const after = await this.deps.store.changeRefunds(payment._id, (fresh) => announce(fresh, refundId));
      return this.result(after, refundId);
    }

    // 3. Record what the provider answered (a webhook may have done it already: no-op then).
    const after = await this.deps.store.changeRefunds(payment._id, (fresh) => planReports(fresh, [{ ...report, refund_key: refundId }], new Date(), () => newId('refund')));
    return this.result(after, refundId);
  }

  private result(payment: PaymentDoc | null, refundId: string): RefundResult {
    const refund = payment?.refunds?.find((r) => r.id === refundId);
    if (!payment || !refund) throw new AppError('internal', { message: `refund ${refundId} vanished` });
    return { refund, payment, replayed: false };
  }

  /** Applies what a provider reports about a payment's refunds (webhook or sync). Idempotent. */
  async applyReports(paymentId: string, reports: RefundReport[]): Promise<boolean> {
    if (reports.length === 0) return false;
    let changed = false;
    await this.deps.store.changeRefunds(paymentId, (fresh) => {
      const plan = planReports(fresh, reports, new Date(), () => newId('refund'));
      changed = plan !== null;
      return plan;
    });
    return changed;
  }

  /**
   * Sync: a refund left pending without the provider's answer (a lost answer, a crash mid-request)
   * is asked for again with the same key, which the provider answers with the existing refund or
   * makes now, never twice. A reservation still young enough to belong to a running request is
   * left to it (that request may yet remove it when the provider refuses it).
   */
  async resume(payment: PaymentDoc, requestId: string): Promise<void> {
    const abandonedBefore = Date.now() - this.requestSpanMs;
    const stuck = (payment.refunds ?? []).filter(
      (r) => r.source === 'service' && r.status === 'pending' && !r.provider_refund_id && (r.announced || new Date(r.created_at).getTime() < abandonedBefore),
    );
    for (const refund of stuck) {
      try {
        const answer = await this.deps.providers.refundCharge(
          {
            ref: { merchant_id: payment.merchant_id, mode: modeFromName(payment.mode), account_id: payment.provider_account_id, provider_payment_id: payment.provider_payment_id },
            refund_key: refund.id,
            amount: refund.amount,
            reason: refund.reason,
            end_to_end_id: payment.end_to_end_id,
          },
          { requestId, deadlineMs: this.deps.providerCallDeadlineMs },
        );
        if (answer.refund) await this.applyReports(payment._id, [{ ...reportFromProto(answer.refund), refund_key: refund.id }]);
      } catch (error) {
        if (error instanceof AppError && error.code === 'provider_rejected') {
          // The provider refuses it (and has no devolução with this id): it failed, its amount is free.
          await this.applyReports(payment._id, [
            { provider_refund_id: '', refund_key: refund.id, amount: refund.amount, status: 'failed', failure_code: 'provider_rejected', failure_reason: error.message },
          ]);
        } else {
          this.deps.logger.warn({ payment_id: payment._id, refund_id: refund.id, err: (error as Error).message }, 'pending refund still unresolved');
        }
      }
    }
  }
}

/** The reservation becomes a refund whose outcome is not known yet (`refund.created`). */
function announce(fresh: PaymentDoc & { refunds: RefundDoc[] }, refundId: string) {
  const mine = fresh.refunds.find((r) => r.id === refundId);
  if (!mine || mine.announced) return null;
  const refunds = fresh.refunds.map((r) => (r.id === refundId ? { ...r, announced: true, updated_at: new Date() } : r));
  return withTotals(fresh, refunds, [{ type: 'refund.created', refundId }]);
}

function refusal(reason: 'not_refundable' | 'too_small' | 'exceeds_remaining', payment: PaymentDoc, remaining: number): AppError {
  switch (reason) {
    case 'not_refundable':
      return new AppError('payment_not_refundable', {
        message:
          payment.status === 'refunded'
            ? 'Este pagamento já foi totalmente reembolsado.'
            : `Este pagamento está ${payment.status} e não pode ser reembolsado. Só pagamentos pagos (succeeded ou partially_refunded) podem ser reembolsados.`,
      });
    case 'too_small':
      return new AppError('amount_too_small', { param: 'amount', message: 'O valor do reembolso (amount) deve ser um número inteiro de centavos maior ou igual a 1.' });
    case 'exceeds_remaining':
      return new AppError('refund_amount_exceeds_remaining', {
        param: 'amount',
        message:
          remaining > 0
            ? `O valor do reembolso é maior que o valor que ainda pode ser reembolsado neste pagamento: ${formatBrl(remaining)} (${remaining} centavos). Informe até ${remaining} ou omita amount para reembolsar todo o restante.`
            : 'Não há mais valor a reembolsar neste pagamento: o valor restante é R$ 0,00 (0 centavos), contando os reembolsos em processamento.',
      });
  }
}
