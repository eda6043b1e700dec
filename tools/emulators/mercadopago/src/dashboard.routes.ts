/**
 * Control routes that act "in Mercado Pago's dashboard", behind the integrator's back, so
 * reconciliation can meet differences on purpose (issue 18):
 * - `POST /__control/dashboard-charges` makes a payment the integrator never asked for (no
 *   `external_reference`, no `notification_url`), at any status and creation time;
 * - `POST /__control/charges/:id/status` moves a payment to another status WITHOUT a notification.
 * Statuses are named the same way on every emulator (pending, paid, canceled, expired, refunded,
 * failed) and become Mercado Pago ones here: pending (in_process for a card), approved/accredited,
 * cancelled/by_collector, cancelled/expired, refunded/refunded (an approved refund of what was left,
 * source `admin`), rejected/cc_rejected_other_reason.
 */
import { Router } from 'express';
import { z } from 'zod';
import { DASHBOARD_STATUSES, dashboardChargeSchema, newBoleto, qrCodePngBase64, reachDashboardStatus, sendControlError as fail, staticBrCode, type Merchant } from '../../kit';
import type { EmulatorState, StoredPayment } from './emulator-state';
import { paymentJson } from './payment-json';
import { approveRefund, createRefund, refundableCents } from './refunds';

export interface DashboardOptions {
  merchant: Merchant;
  /** Base of `ticket_url` and boleto PDFs (the control port). */
  ticketBase: () => string;
}

const STATUSES = DASHBOARD_STATUSES;
type DashboardStatus = (typeof STATUSES)[number];

/** `account` is the account's access token. */
const createSchema = dashboardChargeSchema(STATUSES);

const statusSchema = z.object({ status: z.enum(STATUSES) }).strict();

const PENDING = ['pending', 'in_process'];

/** Moves `payment` to `target` with no notification; a message when the move is not possible. */
function movePayment(state: EmulatorState, payment: StoredPayment, target: DashboardStatus): string | undefined {
  const now = state.now();
  switch (target) {
    case 'pending':
      return PENDING.includes(payment.status) ? undefined : `a payment ${payment.status} cannot become pending again`;
    case 'paid':
      if (!PENDING.includes(payment.status)) return `payment is ${payment.status}, only pending or in_process can be approved`;
      state.approvePayment(payment);
      return undefined;
    case 'canceled':
    case 'expired':
    case 'failed':
      if (!PENDING.includes(payment.status)) return `payment is ${payment.status}, only pending or in_process can be ${target}`;
      payment.status = target === 'failed' ? 'rejected' : 'cancelled';
      payment.statusDetail = target === 'failed' ? 'cc_rejected_other_reason' : target === 'expired' ? 'expired' : 'by_collector';
      payment.updatedAt = now;
      return undefined;
    case 'refunded': {
      if (payment.status !== 'approved') return `payment is ${payment.status}, only approved can be refunded`;
      if (refundableCents(payment) <= 0) return 'nothing left to refund';
      const { refund } = createRefund(payment, undefined, `dashboard-status-${payment.id}-${now.getTime()}`, 'admin', now);
      approveRefund(payment, refund, now);
      return undefined;
    }
  }
}

export function dashboardRoutes(state: EmulatorState, options: DashboardOptions): Router {
  const routes = Router();

  routes.post('/__control/dashboard-charges', async (req, res) => {
    const parsed = createSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { amount, method, status } = parsed.data;
    const account = state.accountForToken(parsed.data.account);
    if (!account) return fail(res, 404, 'account_not_found', 'unknown access token');
    const createdAt = parsed.data.created_at ? new Date(parsed.data.created_at) : state.now();
    const id = state.allocatePaymentId();
    const payment: StoredPayment = {
      id,
      userId: account.userId,
      request: {
        kind: method,
        paymentMethodId: method === 'pix' ? 'pix' : method === 'boleto' ? 'bolbradesco' : 'master',
        amountCents: amount,
        payer: { email: 'comprador.painel@example.com' },
        ...(method === 'card' ? { installments: 1 } : {}),
        // Open for a day from its creation, as a dashboard payment link would be.
        expiresAt: new Date(Math.max(createdAt.getTime(), state.now().getTime()) + 86_400_000),
        metadata: {},
      },
      status: method === 'card' ? 'in_process' : 'pending',
      statusDetail: method === 'card' ? 'pending_contingency' : method === 'boleto' ? 'pending_waiting_payment' : 'pending_waiting_transfer',
      createdAt,
      updatedAt: createdAt,
      qrCode: '',
      qrCodeBase64: '',
      ticketUrl: '',
    };
    if (method === 'pix') {
      payment.qrCode = staticBrCode({ pixKey: account.pixKey, amountCents: amount, txid: `mpqrinter${id}`, merchant: options.merchant });
      payment.qrCodeBase64 = await qrCodePngBase64(payment.qrCode);
      payment.ticketUrl = `${options.ticketBase()}/payments/${id}/ticket?caller_id=${account.userId}`;
    } else if (method === 'boleto') {
      const { barcode, digitableLine } = newBoleto(amount, new Date(payment.request.expiresAt.getTime() - 3 * 3_600_000).toISOString().slice(0, 10), '237');
      payment.boleto = { barcode, digitableLine, pdfUrl: `${options.ticketBase()}/payments/${id}/boleto?caller_id=${account.userId}` };
    } else {
      payment.card = { firstSix: '503143', lastFour: '6351', expMonth: 11, expYear: 2030, holderName: 'APRO' };
    }
    state.createPayment(payment, `dashboard:${id}`);
    reachDashboardStatus(status, (target) => movePayment(state, payment, target));
    res.status(201).json(paymentJson(payment));
  });

  routes.post('/__control/charges/:id/status', (req, res) => {
    const parsed = statusSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const raw = req.params['id'] ?? '';
    const payment = /^\d{1,19}$/.test(raw) ? state.findPayment(Number(raw)) : undefined;
    if (!payment) return fail(res, 404, 'charge_not_found', `no payment ${raw}`);
    const refused = movePayment(state, payment, parsed.data.status);
    if (refused) return fail(res, 409, 'status_change_refused', refused);
    res.status(200).json(paymentJson(payment));
  });

  return routes;
}
