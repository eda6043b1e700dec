/**
 * `GET /recipients`, `GET /recipients/default`, `GET /recipients/:id`, `GET /recipients/:id/balance`,
 * `POST /recipients/:id/withdrawals` (with `idempotency-key`), `GET /recipients/:id/withdrawals[/:wid]`
 * (withdrawals.ts), and their control routes:
 * - `POST /__control/balance {account, credit_cents}`: credits (negative: debits) the account (secret key or `acc_…`);
 * - `POST /__control/withdrawals/behaviour {account, outcome?: paid|failed|hold, settle_ms?,
 *   failure_reason?, answer?: normal|lost, answer_delay_ms?}`; `DELETE …/behaviour {account}`;
 * - `POST /__control/withdrawals/:id/settle {status: paid|failed, failure_reason?}`.
 */
import { Router } from 'express';
import { z } from 'zod';
import { sendControlError as fail, type Logger, type Timers } from '../../kit';
import type { EmulatorState } from './emulator-state';
import { idempotentReplay } from './idempotency';
import { PagarmeApiError, pagarmeErrors } from './pagarme-errors';
import { accountIdFor, recipientIdFor } from './pagarme-ids';
import { DEFAULT_BANK_ACCOUNT, withdrawalJson, type WithdrawalSettler } from './withdrawals';

const accountOf = (res: { locals: Record<string, unknown> }) => res.locals['accountId'] as string;

/** Paid charges less what was refunded of them, plus the withdrawal book (credits less withdrawals). */
export function availableOf(state: EmulatorState, accountId: string): number {
  let cents = state.withdrawals.movedCents(accountId);
  for (const order of state.listOrders(accountId)) {
    const charge = order.charge;
    if (!charge.paidAt) continue;
    cents += (charge.paidAmount ?? charge.amount) - (charge.canceledAmount ?? 0);
  }
  return cents;
}

function recipientJson(state: EmulatorState, accountId: string) {
  return {
    id: recipientIdFor(accountId),
    name: state.accountName(accountId),
    email: 'financeiro@orquestra.example',
    document: DEFAULT_BANK_ACCOUNT.holder_document,
    type: 'company',
    status: 'active',
    default_bank_account: { id: 'ba_default', ...DEFAULT_BANK_ACCOUNT },
    transfer_settings: { transfer_enabled: false, transfer_interval: 'Daily', transfer_day: 0 },
  };
}

const positiveInt = (value: unknown, fallback: number, max: number) => Math.min(Math.max(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : fallback, 1), max);
const withdrawSchema = z.object({ amount: z.number().int().positive(), metadata: z.record(z.string()).optional() });

export function withdrawalRoutes(state: EmulatorState, settler: WithdrawalSettler, options: { feeCents: number }, lostAnswers: Timers): Router {
  const router = Router();
  /** The account's own recipient, or 404 as Pagar.me answers another account's. */
  const ownRecipient = (accountId: string, id: unknown): string => {
    const own = recipientIdFor(accountId);
    if (id !== own) throw new PagarmeApiError(404, { message: 'Recipient not found.' });
    return own;
  };

  router.get('/recipients', (_req, res) => {
    res.status(200).json({ data: [recipientJson(state, accountOf(res))], paging: { total: 1 } });
  });

  router.get('/recipients/default', (_req, res) => {
    res.status(200).json(recipientJson(state, accountOf(res)));
  });

  router.get('/recipients/:id', (req, res) => {
    ownRecipient(accountOf(res), req.params['id']);
    res.status(200).json(recipientJson(state, accountOf(res)));
  });

  router.get('/recipients/:id/balance', (req, res) => {
    const accountId = accountOf(res);
    ownRecipient(accountId, req.params['id']);
    res.status(200).json({
      currency: 'BRL',
      available_amount: availableOf(state, accountId),
      waiting_funds_amount: 0,
      transferred_amount: state.withdrawals.transferredCents(accountId),
      recipient: recipientJson(state, accountId),
    });
  });

  router.post('/recipients/:id/withdrawals', idempotentReplay(state), (req, res) => {
    const accountId = accountOf(res);
    const recipientId = ownRecipient(accountId, req.params['id']);
    const parsed = withdrawSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw pagarmeErrors.invalid({ [parsed.error.issues[0]?.path.join('.') || 'amount']: [parsed.error.issues[0]?.message ?? 'invalid'] }, req.body);
    const withdrawal = state.withdrawals.create({ accountId, recipientId, amount: parsed.data.amount, fee: options.feeCents, metadata: parsed.data.metadata ?? {} }, availableOf(state, accountId));
    const behaviour = state.withdrawals.behaviourOf(accountId);
    settler.schedule(withdrawal, behaviour);
    const answer = withdrawalJson(withdrawal);
    if (behaviour?.answer !== 'lost') return res.status(200).json(answer);
    // Made, answer lost: the key already replays it; the answer as made now is held past the client's timeout, or never sent.
    const key = res.locals['idempotencyKey'];
    if (typeof key === 'string') state.remember(accountId, key, 200, answer);
    if (behaviour.answerDelayMs !== undefined) lostAnswers.after(behaviour.answerDelayMs, () => res.status(200).json(answer));
  });

  router.get('/recipients/:id/withdrawals', (req, res) => {
    const accountId = accountOf(res);
    ownRecipient(accountId, req.params['id']);
    const page = positiveInt(req.query['page'], 1, 1_000_000);
    const size = positiveInt(req.query['size'], 10, 100);
    const all = state.withdrawals.list(accountId);
    res.status(200).json({ data: all.slice((page - 1) * size, page * size).map(withdrawalJson), paging: { total: all.length } });
  });

  router.get('/recipients/:id/withdrawals/:wid', (req, res) => {
    const accountId = accountOf(res);
    ownRecipient(accountId, req.params['id']);
    res.status(200).json(withdrawalJson(state.withdrawals.get(accountId, req.params['wid'] ?? '')));
  });

  return router;
}

const scope = (account: string) => (account.startsWith('acc_') ? account : accountIdFor(account));
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

export function withdrawalControlRoutes(state: EmulatorState, settler: WithdrawalSettler, logger: Logger): Router {
  const routes = Router();

  routes.post('/__control/balance', (req, res) => {
    const parsed = creditSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const accountId = scope(parsed.data.account);
    state.withdrawals.credit(accountId, parsed.data.credit_cents);
    logger.info({ account: accountId, credit_cents: parsed.data.credit_cents }, 'balance credited');
    res.status(200).json({ account_id: accountId, recipient_id: recipientIdFor(accountId), available_amount: availableOf(state, accountId) });
  });

  routes.post('/__control/withdrawals/behaviour', (req, res) => {
    const parsed = behaviourSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { account, outcome, settle_ms, failure_reason, answer, answer_delay_ms } = parsed.data;
    const accountId = scope(account);
    state.withdrawals.setBehaviour(accountId, {
      outcome: outcome ?? 'paid',
      answer: answer ?? 'normal',
      ...(settle_ms !== undefined ? { settleMs: settle_ms } : {}),
      ...(failure_reason ? { failureReason: failure_reason } : {}),
      ...(answer_delay_ms !== undefined ? { answerDelayMs: answer_delay_ms } : {}),
    });
    res.status(200).json({ account_id: accountId, behaviour: state.withdrawals.behaviourOf(accountId) });
  });

  routes.delete('/__control/withdrawals/behaviour', (req, res) => {
    const parsed = clearSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    state.withdrawals.setBehaviour(scope(parsed.data.account), undefined);
    res.status(204).end();
  });

  routes.post('/__control/withdrawals/:id/settle', (req, res) => {
    const parsed = settleSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const withdrawal = state.withdrawals.find(req.params['id'] ?? '');
    if (!withdrawal) return fail(res, 404, 'withdrawal_not_found', `no withdrawal ${req.params['id'] ?? ''}`);
    if (!settler.settle(withdrawal, parsed.data.status, parsed.data.failure_reason)) return fail(res, 409, 'withdrawal_finished', `withdrawal is ${withdrawal.status}`);
    res.status(200).json(withdrawalJson(withdrawal));
  });

  return routes;
}
