/**
 * `GET /api/v1/account/`, `POST /api/v1/payment`, `POST /api/v1/payment/approve`,
 * `GET /api/v1/payment/:id` (payments.ts), and their control routes:
 * - `POST /__control/balance {account, credit_cents}`: credits (negative: debits) the AppID's account;
 * - `POST /__control/payments/behaviour {account, outcome?: paid|failed|hold, settle_ms?,
 *   failure_reason?, answer?: normal|lost, answer_delay_ms?}`: how the account's next approvals go
 *   (`lost`: carried out, the answer held `answer_delay_ms` or never); `DELETE …/behaviour {account}`;
 * - `POST /__control/payments/:correlationID/settle {status: paid|failed, failure_reason?}`.
 */
import { Router } from 'express';
import { z } from 'zod';
import { sendControlError as fail, type Logger, type Timers } from '../../kit';
import { accountOf } from './auth';
import type { EmulatorState } from './emulator-state';
import { ALIAS_TYPES, paymentJson, type PaymentSettler } from './payments';
import { chargeRefunds } from './refunds';
import { wooviErrors } from './woovi-errors';
import { accountIdFor } from './woovi-ids';

/** Paid charges (value − fee − refunds not rejected) plus the payment book (credits less approved payments). */
export function balanceOf(state: EmulatorState, accountId: string): number {
  let cents = state.payments.movedCents(accountId);
  for (const charge of state.listCharges(accountId)) {
    if (charge.status !== 'COMPLETED') continue;
    const refunded = chargeRefunds(charge).filter((r) => r.status !== 'REJECTED').reduce((sum, r) => sum + r.value, 0);
    cents += charge.value - charge.fee - refunded;
  }
  return cents;
}

const paymentSchema = z.object({
  value: z.number({ required_error: 'value é obrigatório' }).int('value deve ser um inteiro em centavos').positive('value deve ser positivo'),
  destinationAlias: z.string({ required_error: 'destinationAlias é obrigatório' }).min(1, 'destinationAlias é obrigatório').max(140),
  destinationAliasType: z.enum(ALIAS_TYPES as [string, ...string[]], { errorMap: () => ({ message: 'destinationAliasType inválido' }) }),
  correlationID: z.string({ required_error: 'correlationID é obrigatório' }).min(1, 'correlationID é obrigatório').max(100),
  comment: z.string().max(140, 'comment deve ter até 140 caracteres').optional(),
});
const approveSchema = z.object({ correlationID: z.string({ required_error: 'correlationID é obrigatório' }).min(1, 'correlationID é obrigatório') });

export function paymentRoutes(state: EmulatorState, settler: PaymentSettler, lostAnswers: Timers): Router {
  const router = Router();

  router.get('/account', (_req, res) => {
    const accountId = accountOf(res);
    const available = balanceOf(state, accountId);
    res.status(200).json({ accounts: [{ accountId, isDefault: true, balance: { total: available, blocked: 0, available } }] });
  });

  router.post('/payment', (req, res) => {
    const parsed = paymentSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw wooviErrors.invalid(parsed.error.issues[0]?.message ?? 'Requisição inválida');
    const accountId = accountOf(res);
    const { value, destinationAlias, destinationAliasType, correlationID, comment } = parsed.data;
    const payment = state.payments.create({ accountId, value, destinationAlias, destinationAliasType: destinationAliasType as (typeof ALIAS_TYPES)[number], correlationID, comment: comment ?? '' });
    if (payment.value !== value || payment.destinationAlias !== destinationAlias) throw wooviErrors.invalid('Já existe um pagamento com esse correlationID');
    res.status(200).json(paymentJson(payment));
  });

  router.post('/payment/approve', (req, res) => {
    const parsed = approveSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw wooviErrors.invalid(parsed.error.issues[0]?.message ?? 'Requisição inválida');
    const accountId = accountOf(res);
    const payment = state.payments.get(accountId, parsed.data.correlationID);
    const behaviour = state.payments.behaviourOf(accountId);
    const approving = payment.status === 'CREATED';
    settler.approve(payment, balanceOf(state, accountId), behaviour);
    const answer = paymentJson(payment);
    if (!approving || behaviour?.answer !== 'lost') return res.status(200).json(answer);
    // Sent, answer lost: the answer as made now, held past the client's timeout, or never sent (closed on stop).
    if (behaviour.answerDelayMs !== undefined) lostAnswers.after(behaviour.answerDelayMs, () => res.status(200).json(answer));
  });

  router.get('/payment/:id', (req, res) => {
    res.status(200).json(paymentJson(state.payments.get(accountOf(res), req.params['id'] ?? '')));
  });

  return router;
}

const creditSchema = z.object({ account: z.string().min(1), credit_cents: z.number().int() }).strict();
const behaviourSchema = z
  .object({
    account: z.string().min(1),
    outcome: z.enum(['paid', 'failed', 'hold']).optional(),
    settle_ms: z.number().int().min(0).optional(),
    failure_reason: z.string().min(1).max(200).optional(),
    answer: z.enum(['normal', 'lost']).optional(),
    answer_delay_ms: z.number().int().min(0).optional(),
  })
  .strict();
const clearSchema = z.object({ account: z.string().min(1) }).strict();
const settleSchema = z.object({ status: z.enum(['paid', 'failed']), failure_reason: z.string().min(1).max(200).optional() }).strict();

export function paymentControlRoutes(state: EmulatorState, settler: PaymentSettler, logger: Logger): Router {
  const routes = Router();

  routes.post('/__control/balance', (req, res) => {
    const parsed = creditSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const accountId = accountIdFor(parsed.data.account);
    state.payments.credit(accountId, parsed.data.credit_cents);
    logger.info({ account: accountId, credit_cents: parsed.data.credit_cents }, 'balance credited');
    res.status(200).json({ account_id: accountId, balance_cents: balanceOf(state, accountId) });
  });

  routes.post('/__control/payments/behaviour', (req, res) => {
    const parsed = behaviourSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { account, outcome, settle_ms, failure_reason, answer, answer_delay_ms } = parsed.data;
    const accountId = accountIdFor(account);
    state.payments.setBehaviour(accountId, {
      outcome: outcome ?? 'paid',
      answer: answer ?? 'normal',
      ...(settle_ms !== undefined ? { settleMs: settle_ms } : {}),
      ...(failure_reason ? { failureReason: failure_reason } : {}),
      ...(answer_delay_ms !== undefined ? { answerDelayMs: answer_delay_ms } : {}),
    });
    res.status(200).json({ account_id: accountId, behaviour: state.payments.behaviourOf(accountId) });
  });

  routes.delete('/__control/payments/behaviour', (req, res) => {
    const parsed = clearSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    state.payments.setBehaviour(accountIdFor(parsed.data.account), undefined);
    res.status(204).end();
  });

  routes.post('/__control/payments/:id/settle', (req, res) => {
    const parsed = settleSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const payment = state.payments.find(req.params['id'] ?? '');
    if (!payment) return fail(res, 404, 'payment_not_found', `no payment ${req.params['id'] ?? ''}`);
    if (!settler.settle(payment, parsed.data.status, parsed.data.failure_reason)) return fail(res, 409, 'payment_not_approved', `payment is ${payment.status}`);
    res.status(200).json(paymentJson(payment));
  });

  return routes;
}
