/**
 * `GET /charges/:id` and `DELETE /charges/:id` (cancel a pending charge, refund a paid one), behind
 * the secret-key check; and `GET /transactions/:id/qrcode`, the public PNG that `qr_code_url`
 * points to (browsers load it in an <img>, so it takes no key).
 */
import { Router } from 'express';
import { z } from 'zod';
import { qrCodePng } from '../../kit';
import type { EmulatorState } from './emulator-state';
import { idempotentReplay } from './idempotency';
import { chargeJson, refundTransactionJson, transactionJson, type QrCodeUrl } from './order-json';
import { accountOf } from './orders.routes';
import { pagarmeErrors } from './pagarme-errors';
import { publishTransition } from './webhook-events';
import type { WebhookSender } from './webhook-sender';

const cancelSchema = z
  .object({
    amount: z.number().int().min(1).optional(),
    operation_reference: z.string().min(1).max(256).optional(),
    // CreateBankAccountRefundingDTO: needed to refund a paid boleto; only its presence matters here.
    bank_account: z.object({ holder_name: z.string().min(1), holder_document: z.string().min(11), bank: z.string().min(3), branch_number: z.string().min(1), account_number: z.string().min(1), account_check_digit: z.string().min(1), type: z.enum(['checking', 'savings']) }).passthrough().optional(),
  })
  .passthrough();

export function chargeRoutes(state: EmulatorState, sender: WebhookSender, qrCodeUrl: QrCodeUrl): Router {
  const router = Router();

  router.get('/charges/:id', (req, res) => {
    res.status(200).json(chargeJson(state.getChargeOrder(accountOf(res), req.params['id'] ?? ''), qrCodeUrl));
  });

  router.delete('/charges/:id', idempotentReplay(state), (req, res) => {
    const order = state.getChargeOrder(accountOf(res), String(req.params['id'] ?? ''));
    const body = cancelSchema.safeParse(req.body ?? {});
    if (!body.success) throw pagarmeErrors.invalid({ 'charge.amount': ['The amount field is invalid.'] }, req.body);
    if (order.charge.status === 'paid' || order.charge.status === 'overpaid') {
      const { transition } = state.refund(order, {
        ...(body.data.amount === undefined ? {} : { amount: body.data.amount }),
        ...(body.data.operation_reference ? { operationReference: body.data.operation_reference } : {}),
        bankAccount: body.data.bank_account !== undefined,
      });
      publishTransition(sender, order, transition, qrCodeUrl);
      res.status(200).json(chargeJson(order, qrCodeUrl));
      return;
    }
    if (body.data.amount !== undefined && body.data.amount !== order.charge.amount) {
      throw pagarmeErrors.invalid({ 'charge.amount': ['A pending charge is canceled whole.'] }, req.body);
    }
    const transition = state.cancel(order);
    publishTransition(sender, order, transition, qrCodeUrl);
    res.status(200).json(chargeJson(order, qrCodeUrl));
  });

  // The charge's transactions: the payment's, then one per refund (cancel operation), newest last.
  router.get('/charges/:id/transactions', (req, res) => {
    const order = state.getChargeOrder(accountOf(res), req.params['id'] ?? '');
    const data = [transactionJson(order.charge.transaction, order.charge.amount, qrCodeUrl), ...(order.charge.refunds ?? []).map((r) => refundTransactionJson(r, order))];
    res.status(200).json({ data, paging: { total: data.length } });
  });

  return router;
}

export function qrCodeImageRoutes(state: EmulatorState): Router {
  const router = Router();
  router.get('/transactions/:id/qrcode', async (req, res) => {
    const order = state.findByTransaction(req.params['id'] ?? '');
    if (!order) throw pagarmeErrors.transactionNotFound();
    res.status(200).type('image/png').send(await qrCodePng(order.charge.transaction.qrCode));
  });
  return router;
}
