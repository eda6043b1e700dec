/**
 * `GET /api/v1/account/`, `POST /api/v1/payment`, `POST /api/v1/payment/approve`,
 * `GET /api/v1/payment/:id` (payments.ts). The control routes are the kit's (payout-book.ts
 * `payoutControlRoutes`, the account named by its AppID in `account`).
 */
import { Router } from 'express';
import { z } from 'zod';
import { InsufficientBalanceError } from '../../kit';
import { accountOf } from './auth';
import type { EmulatorState } from './emulator-state';
import { ALIAS_TYPES, paymentJson, type AliasType } from './payments';
import { wooviErrors } from './woovi-errors';

const paymentSchema = z.object({
  value: z.number({ required_error: 'value é obrigatório' }).int('value deve ser um inteiro em centavos').positive('value deve ser positivo'),
  destinationAlias: z.string({ required_error: 'destinationAlias é obrigatório' }).min(1, 'destinationAlias é obrigatório').max(140),
  destinationAliasType: z.enum(ALIAS_TYPES as [AliasType, ...AliasType[]], { errorMap: () => ({ message: 'destinationAliasType inválido' }) }),
  correlationID: z.string({ required_error: 'correlationID é obrigatório' }).min(1, 'correlationID é obrigatório').max(100),
  comment: z.string().max(140, 'comment deve ter até 140 caracteres').optional(),
});
const approveSchema = z.object({ correlationID: z.string({ required_error: 'correlationID é obrigatório' }).min(1, 'correlationID é obrigatório') });

export function paymentRoutes(state: EmulatorState): Router {
  const router = Router();
  const book = state.payments;
  /** The payment under this correlationID: sent (in the book) or only created. */
  const find = (accountId: string, correlationID: string) => book.findByKey(accountId, correlationID) ?? state.createdPayment(accountId, correlationID);

  router.get('/account', (_req, res) => {
    const accountId = accountOf(res);
    const { available, pending } = book.balance(accountId);
    res.status(200).json({ accounts: [{ accountId, isDefault: true, balance: { total: available + pending, blocked: pending, available } }] });
  });

  router.post('/payment', (req, res) => {
    const parsed = paymentSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw wooviErrors.invalid(parsed.error.issues[0]?.message ?? 'Requisição inválida');
    const accountId = accountOf(res);
    const { value, destinationAlias, destinationAliasType, correlationID, comment } = parsed.data;
    const existing = find(accountId, correlationID);
    const data = existing && 'data' in existing ? existing.data : existing;
    if (data && (data.value !== value || data.destinationAlias !== destinationAlias)) throw wooviErrors.invalid('Já existe um pagamento com esse correlationID');
    // Refused up front when the balance could not pay it (checked again when approved).
    if (!existing && book.balance(accountId).available < value) throw wooviErrors.invalid('Saldo insuficiente para realizar o pagamento');
    const payment = existing ?? state.addCreatedPayment({ accountId, correlationID, value, destinationAlias, destinationAliasType, comment: comment ?? '', createdAt: state.now().toISOString() });
    res.status(200).json(paymentJson(payment));
  });

  router.post('/payment/approve', (req, res) => {
    const parsed = approveSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw wooviErrors.invalid(parsed.error.issues[0]?.message ?? 'Requisição inválida');
    const accountId = accountOf(res);
    const { correlationID } = parsed.data;
    const sent = book.findByKey(accountId, correlationID);
    if (sent) return res.status(200).json(paymentJson(sent));
    const created = state.createdPayment(accountId, correlationID);
    if (!created) throw wooviErrors.invalid('Pagamento não encontrado');
    let payment;
    try {
      // The correlationID is the payment's key and, as the book's id, what the control port settles by.
      payment = book.create(accountId, correlationID, correlationID, created.value, 0, created).transfer;
    } catch (err) {
      if (!(err instanceof InsufficientBalanceError)) throw err;
      throw wooviErrors.invalid('Saldo insuficiente para realizar o pagamento');
    }
    state.dropCreatedPayment(accountId, correlationID);
    const withheld = book.takeWithheld(accountId);
    // Sent; its answer never arrives (the connection closes after the delay).
    if (withheld) return book.withhold(res, withheld);
    res.status(200).json(paymentJson(payment));
  });

  router.get('/payment/:id', (req, res) => {
    const payment = find(accountOf(res), req.params['id'] ?? '');
    if (!payment) throw wooviErrors.invalid('Pagamento não encontrado');
    res.status(200).json(paymentJson(payment));
  });

  return router;
}
