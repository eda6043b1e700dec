/**
 * `POST /v1/payments` (Pix, boleto `bolbradesco`, card with a `card_tokens` token),
 * `GET /v1/payments/:id`, `PUT /v1/payments/:id` (cancellation only)
 * and `GET /users/me` (the cheap authenticated read). Mounted behind the access-token check.
 */
import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { newBoleto, qrCodePngBase64, staticBrCode, type Merchant } from '../../kit';
import { accountOf } from './auth';
import type { EmulatorState, StoredPayment } from './emulator-state';
import { mpErrors } from './mp-errors';
import { parsePixPaymentRequest } from './payment-request';
import { paymentJson } from './payment-json';
import type { WebhookSender } from './webhook-sender';

export interface PaymentRoutesOptions {
  merchant: Merchant;
  /** Base URL of the page `ticket_url` points to (the control port); boleto PDFs are served there too. */
  ticketBase: () => string;
}

/** YYYY-MM-DD of an instant in São Paulo (UTC−03:00). */
function saoPauloDate(at: Date): string {
  return new Date(at.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
}

function paymentIdParam(raw: string | undefined): number {
  // Mercado Pago payment ids are numbers; anything else cannot name a payment.
  if (!raw || !/^\d{1,19}$/.test(raw)) throw mpErrors.paymentNotFound();
  return Number(raw);
}

export function paymentRoutes(state: EmulatorState, sender: WebhookSender, options: PaymentRoutesOptions): Router {
  const router = Router();

  router.post('/v1/payments', async (req, res) => {
    const account = accountOf(res);
    const idempotencyKey = req.header('x-idempotency-key')?.trim();
    if (!idempotencyKey) throw mpErrors.idempotencyKeyMissing();
    // A repeated key answers the payment it created, whatever the body (unconfirmed: Mercado Pago
    // does not document a key reused with a different body).
    const existing = state.paymentForKey(account.userId, idempotencyKey);
    if (existing) {
      res.status(201).json(paymentJson(existing));
      return;
    }
    const now = state.now();
    const request = parsePixPaymentRequest(req.body, now);
    const id = state.allocatePaymentId();
    const base: StoredPayment = {
      id,
      userId: account.userId,
      request,
      status: 'pending',
      statusDetail: 'pending_waiting_transfer',
      createdAt: now,
      updatedAt: now,
      qrCode: '',
      qrCodeBase64: '',
      ticketUrl: '',
    };
    let payment: StoredPayment;
    if (request.kind === 'boleto') {
      // Bradesco (237) issues Mercado Pago's boletos: a line whose check digits hold.
      const { barcode, digitableLine } = newBoleto(request.amountCents, saoPauloDate(request.expiresAt), '237');
      payment = { ...base, statusDetail: 'pending_waiting_payment', boleto: { barcode, digitableLine, pdfUrl: `${options.ticketBase()}/payments/${id}/boleto?caller_id=${account.userId}` } };
    } else if (request.kind === 'card') {
      // Another account's, used or unknown token: 400/2006 and no payment (nothing is stored).
      const token = state.spendCardToken(account.userId, request.token ?? '');
      payment = {
        ...base,
        status: token.outcome.status,
        statusDetail: token.outcome.statusDetail,
        card: { firstSix: token.firstSix, lastFour: token.lastFour, expMonth: token.expMonth, expYear: token.expYear, holderName: token.holderName },
      };
      if (token.outcome.status === 'approved') state.approvePayment(payment);
    } else {
      const qrCode = staticBrCode({ pixKey: account.pixKey, amountCents: request.amountCents, txid: `mpqrinter${id}`, merchant: options.merchant });
      payment = {
        ...base,
        qrCode,
        qrCodeBase64: await qrCodePngBase64(qrCode),
        ticketUrl: `${options.ticketBase()}/payments/${id}/ticket?caller_id=${account.userId}&hash=${randomUUID()}`,
      };
    }
    // Between the await above and here another request with the same key may have won.
    const raced = state.paymentForKey(account.userId, idempotencyKey);
    if (raced) {
      res.status(201).json(paymentJson(raced));
      return;
    }
    state.createPayment(payment, idempotencyKey);
    sender.notify(payment, 'payment.created');
    res.status(201).json(paymentJson(payment));
  });

  router.get('/v1/payments/:id', (req, res) => {
    res.status(200).json(paymentJson(state.getPayment(accountOf(res).userId, paymentIdParam(req.params['id']))));
  });

  router.put('/v1/payments/:id', (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    // The emulator implements the one update Pix integrators use: cancelling a pending payment.
    if (body['status'] !== 'cancelled') throw mpErrors.badRequest('The emulator only supports {"status":"cancelled"}');
    const payment = state.cancelPayment(accountOf(res).userId, paymentIdParam(req.params['id']));
    sender.notify(payment, 'payment.updated');
    res.status(200).json(paymentJson(payment));
  });

  router.get('/users/me', (_req, res) => {
    const account = accountOf(res);
    res.status(200).json({
      id: account.userId,
      nickname: `TESTUSER${account.userId}`,
      first_name: 'Test',
      last_name: 'Test',
      email: `test_user_${account.userId}@testuser.com`,
      country_id: 'BR',
      site_id: 'MLB',
      status: { site_status: 'active' },
      tags: ['test_user'],
    });
  });

  return router;
}
