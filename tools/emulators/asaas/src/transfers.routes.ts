/**
 * `GET /v3/finance/balance`, `POST /v3/transfers`, `GET /v3/transfers`, `GET /v3/transfers/:id`
 * (transfers.ts), and their control routes:
 * - `POST /__control/balance {account, credit_cents}`: credits (or, negative, debits) the account;
 * - `POST /__control/transfers/behaviour {account, outcome?: paid|failed|hold, settle_ms?,
 *   failure_reason?, answer?: normal|lost, answer_delay_ms?}`: how the account's next transfers go
 *   (`lost`: made, the answer held `answer_delay_ms` or never); `DELETE …/behaviour {account}` ends it;
 * - `POST /__control/transfers/:id/settle {status: paid|failed, failure_reason?}`: finishes a
 *   transfer still PENDING or BANK_PROCESSING.
 */
import { Router } from 'express';
import { z } from 'zod';
import { sendControlError as fail, Timers, type Logger } from '../../kit';
import { accountOf } from './access-token';
import { asaasErrors } from './asaas-errors';
import { accountIdFor } from './asaas-ids';
import { listJson, pageOf } from './asaas-json';
import type { EmulatorState } from './emulator-state';
import { sendJson } from './json-body';
import { Reais, reaisTextToCents } from './money-json';
import { asBody, optionalString, requiredString } from './request-fields';
import { PIX_KEY_TYPES, transferJson, type PixKeyType, type TransferSettler } from './transfers';

export interface TransferRoutesOptions {
  /** Fee of a Pix transfer, in cents (default 0: Asaas's first Pix transfers of a month are free). */
  transferFeeCents: number;
}

export function transferRoutes(state: EmulatorState, settler: TransferSettler, options: TransferRoutesOptions, lostAnswers: Timers): Router {
  const router = Router();

  router.get('/finance/balance', (_req, res) => {
    sendJson(res, 200, { balance: new Reais(state.balanceCents(accountOf(res).id)) });
  });

  router.post('/transfers', (req, res) => {
    const account = accountOf(res);
    const body = asBody(req.body);
    const raw = body['value'];
    const valueCents = typeof raw === 'string' ? reaisTextToCents(raw) : undefined;
    if (valueCents === undefined || valueCents <= 0) throw asaasErrors.invalid('value', 'O valor da transferência deve ser maior que zero.');
    if (body['bankAccount'] !== undefined) throw asaasErrors.invalid('bankAccount', 'Transferência para conta bancária não suportada pelo emulador: informe pixAddressKey.');
    const pixAddressKey = requiredString(body, 'pixAddressKey', 140);
    const pixAddressKeyType = requiredString(body, 'pixAddressKeyType', 10) as PixKeyType;
    if (!PIX_KEY_TYPES.includes(pixAddressKeyType)) throw asaasErrors.invalid('pixAddressKeyType', 'O tipo de chave Pix informado é inválido.');
    const description = optionalString(body, 'description', 140);
    const externalReference = optionalString(body, 'externalReference', 255);
    const transfer = state.transfers.create(
      {
        accountId: account.id,
        valueCents,
        feeCents: options.transferFeeCents,
        pixAddressKey,
        pixAddressKeyType,
        ...(description ? { description } : {}),
        ...(externalReference ? { externalReference } : {}),
      },
      state.balanceCents(account.id),
    );
    const behaviour = state.transfers.behaviourOf(account.id);
    settler.schedule(transfer, behaviour);
    const answer = transferJson(transfer);
    if (behaviour?.answer !== 'lost') return sendJson(res, 200, answer);
    // Made, answer lost: the answer as made now, held past the client's timeout, or never sent (closed on stop).
    if (behaviour.answerDelayMs !== undefined) lostAnswers.after(behaviour.answerDelayMs, () => sendJson(res, 200, answer));
  });

  router.get('/transfers', (req, res) => {
    sendJson(res, 200, listJson(state.transfers.list(accountOf(res).id), pageOf(req.query), transferJson));
  });

  router.get('/transfers/:id', (req, res) => {
    sendJson(res, 200, transferJson(state.transfers.get(accountOf(res).id, req.params['id'] ?? '')));
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

export function transferControlRoutes(state: EmulatorState, settler: TransferSettler, logger: Logger): Router {
  const routes = Router();

  routes.post('/__control/balance', (req, res) => {
    const parsed = creditSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const account = accountIdFor(parsed.data.account);
    state.transfers.credit(account, parsed.data.credit_cents);
    logger.info({ account, credit_cents: parsed.data.credit_cents }, 'balance credited');
    res.status(200).json({ account, balance_cents: state.balanceCents(account) });
  });

  routes.post('/__control/transfers/behaviour', (req, res) => {
    const parsed = behaviourSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { account: apiKey, outcome, settle_ms, failure_reason, answer, answer_delay_ms } = parsed.data;
    const account = accountIdFor(apiKey);
    state.transfers.setBehaviour(account, {
      outcome: outcome ?? 'paid',
      answer: answer ?? 'normal',
      ...(settle_ms !== undefined ? { settleMs: settle_ms } : {}),
      ...(failure_reason ? { failureReason: failure_reason } : {}),
      ...(answer_delay_ms !== undefined ? { answerDelayMs: answer_delay_ms } : {}),
    });
    res.status(200).json({ account, behaviour: state.transfers.behaviourOf(account) });
  });

  routes.delete('/__control/transfers/behaviour', (req, res) => {
    const parsed = clearSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    state.transfers.setBehaviour(accountIdFor(parsed.data.account), undefined);
    res.status(204).end();
  });

  routes.post('/__control/transfers/:id/settle', (req, res) => {
    const parsed = settleSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const transfer = state.transfers.find(req.params['id'] ?? '');
    if (!transfer) return fail(res, 404, 'transfer_not_found', `no transfer ${req.params['id'] ?? ''}`);
    if (!settler.settle(transfer, parsed.data.status, parsed.data.failure_reason)) return fail(res, 409, 'transfer_finished', `transfer is ${transfer.status}`);
    res.status(200).json({ id: transfer.id, status: transfer.status, failReason: transfer.failReason ?? null });
  });

  return routes;
}
