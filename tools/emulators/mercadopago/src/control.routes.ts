/**
 * The control port (plain HTTP): sandbox set-up and test hooks the real Mercado Pago does not have
 * (its dashboard and test buyers do these jobs), plus the `ticket_url` page. Answers
 * `{error, message}` on failure. `account` always means the account's access token.
 */
import { Router, type Express } from 'express';
import { controlPort, escapeHtml, sendControlError as fail, type Logger } from '../../kit';
import { z } from 'zod';
import { dashboardRoutes, type DashboardOptions } from './dashboard.routes';
import type { EmulatorState } from './emulator-state';
import { centsToText } from './mp-format';
import { createRefund, type RefundSettler } from './refunds';
import { chargebackJson, decideChargeback, openChargeback } from './chargebacks';
import type { WebhookSender } from './webhook-sender';

const accountSchema = z.object({ access_token: z.string().min(1), webhook_secret: z.string().min(1).optional() }).strict();

const webhookSchema = z.object({ account: z.string().min(1), url: z.string().url() }).strict();

const openChargebackSchema = z.object({ amount_cents: z.number().int().min(1).optional(), reason: z.string().min(1).max(100).optional() }).strict();

const decideChargebackSchema = z.object({ outcome: z.enum(['won', 'lost']) }).strict();

const dashboardRefundSchema = z.object({ amount_cents: z.number().int().min(1).optional() }).strict();

export function controlApp(state: EmulatorState, sender: WebhookSender, logger: Logger, settler: RefundSettler, dashboard?: DashboardOptions): Express {
  const routes = Router();
  // Payments made and changed in Mercado Pago's dashboard (dashboard.routes.ts).
  if (dashboard) routes.use(dashboardRoutes(state, dashboard));
  routes.post('/__control/accounts', (req, res) => {
    const parsed = accountSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { created, account } = state.registerAccount(parsed.data);
    logger.info({ user_id: account.userId, created }, 'sandbox account registered');
    // The secret is echoed only when the emulator generated it (the caller has no other way to learn it).
    res.status(created ? 201 : 200).json({
      user_id: account.userId,
      pix_key: account.pixKey,
      ...(parsed.data.webhook_secret === undefined ? { webhook_secret: account.webhookSecret } : {}),
    });
  });

  routes.post('/__control/webhook', (req, res) => {
    const parsed = webhookSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const account = state.accountForToken(parsed.data.account);
    if (!account) return fail(res, 404, 'account_not_found', 'unknown access token');
    account.dashboardWebhookUrl = parsed.data.url;
    res.status(200).json({ user_id: account.userId, url_configured: true });
  });

  routes.post('/__control/charges/:id/pay', (req, res) => {
    const raw = req.params['id'] ?? '';
    const payment = /^\d{1,19}$/.test(raw) ? state.findPayment(Number(raw)) : undefined;
    if (!payment) return fail(res, 404, 'charge_not_found', `no payment ${raw}`);
    // Pending Pix and boleto, or a card under review (`in_process`, test cardholder CONT).
    if (payment.status !== 'pending' && payment.status !== 'in_process') return fail(res, 409, 'charge_not_payable', `payment is ${payment.status}/${payment.statusDetail}`);
    state.approvePayment(payment);
    const scheduled = sender.notify(payment, 'payment.updated');
    logger.info({ user_id: payment.userId, payment: payment.id, webhook: scheduled }, 'payment approved');
    res.status(200).json({ id: payment.id, status: payment.status, status_detail: payment.statusDetail, webhook: scheduled ? 'scheduled' : 'no_url' });
  });

  // Target of `ticket_url`: a bare page with the QR code, like Mercado Pago's Pix ticket page.
  // A refund made "in the dashboard" (not through our API): settles and notifies like any other.
  routes.post('/__control/charges/:id/refund', (req, res) => {
    const parsed = dashboardRefundSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const raw = req.params['id'];
    const payment = /^\d{1,19}$/.test(raw) ? state.findPayment(Number(raw)) : undefined;
    if (!payment) return fail(res, 404, 'charge_not_found', `no payment ${raw}`);
    try {
      const { refund } = createRefund(payment, parsed.data.amount_cents, `dashboard-${Date.now()}-${Math.random()}`, 'admin', state.now());
      settler.schedule(payment, refund);
      res.status(200).json({ id: refund.id, payment_id: payment.id, status: refund.status, amount_cents: refund.amountCents });
    } catch (err) {
      fail(res, 409, 'refund_refused', (err as Error).message);
    }
  });

  // A card chargeback (the cardholder's bank in reality): opened on an approved card payment, then
  // decided; each change sends the `chargebacks` notification (chargebacks.ts).
  routes.post('/__control/charges/:id/chargeback', (req, res) => {
    const parsed = openChargebackSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const raw = req.params['id'];
    const payment = /^\d{1,19}$/.test(raw) ? state.findPayment(Number(raw)) : undefined;
    if (!payment) return fail(res, 404, 'charge_not_found', `no payment ${raw}`);
    try {
      const chargeback = openChargeback(payment, { amountCents: parsed.data.amount_cents, reason: parsed.data.reason }, state.now());
      const scheduled = sender.notifyChargeback(payment, chargeback, 'created');
      logger.info({ user_id: payment.userId, payment: payment.id, chargeback: chargeback.id, webhook: scheduled }, 'chargeback opened');
      res.status(201).json({ ...chargebackJson(chargeback), webhook: scheduled ? 'scheduled' : 'no_url' });
    } catch (err) {
      fail(res, 409, 'chargeback_refused', (err as Error).message);
    }
  });

  routes.post('/__control/chargebacks/:id/decide', (req, res) => {
    const parsed = decideChargebackSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const found = state.findChargeback(req.params['id']);
    if (!found) return fail(res, 404, 'chargeback_not_found', `no chargeback ${req.params['id']}`);
    try {
      const chargeback = decideChargeback(found.chargeback, parsed.data.outcome, state.now());
      const scheduled = sender.notifyChargeback(found.payment, chargeback, 'updated');
      logger.info({ user_id: found.payment.userId, chargeback: chargeback.id, outcome: parsed.data.outcome, webhook: scheduled }, 'chargeback decided');
      res.status(200).json({ ...chargebackJson(chargeback), webhook: scheduled ? 'scheduled' : 'no_url' });
    } catch (err) {
      fail(res, 409, 'chargeback_decided', (err as Error).message);
    }
  });

  // Target of a boleto's `external_resource_url`: the voucher with its linha digitável.
  routes.get('/payments/:id/boleto', (req, res) => {
    const raw = req.params['id'] ?? '';
    const payment = /^\d{1,19}$/.test(raw) ? state.findPayment(Number(raw)) : undefined;
    if (!payment?.boleto) return fail(res, 404, 'charge_not_found', 'unknown boleto');
    res
      .status(200)
      .type('html')
      .send(
        `<!doctype html><meta charset="utf-8"><title>Boleto ${payment.id}</title>` +
          `<h1>R$ ${centsToText(payment.request.amountCents)}</h1><p>Status: ${payment.status}</p><p><code>${escapeHtml(payment.boleto.digitableLine)}</code></p>`,
      );
  });

  routes.get('/payments/:id/ticket', (req, res) => {
    const raw = req.params['id'] ?? '';
    const payment = /^\d{1,19}$/.test(raw) ? state.findPayment(Number(raw)) : undefined;
    if (!payment) return fail(res, 404, 'charge_not_found', 'unknown payment');
    res
      .status(200)
      .type('html')
      .send(
        `<!doctype html><meta charset="utf-8"><title>Pix ${payment.id}</title>` +
          `<h1>R$ ${centsToText(payment.request.amountCents)}</h1><p>Status: ${payment.status}</p>` +
          `<img alt="QR Code Pix" src="data:image/png;base64,${payment.qrCodeBase64}"><p><code>${escapeHtml(payment.qrCode)}</code></p>`,
      );
  });

  return controlPort(routes, {
    logger,
    stats: () => state.stats(),
    deliveries: () => state.listDeliveries(),
    reset: () => state.reset(),
    faults: { registry: state.faults, param: 'account', shown: (scope) => (scope ? 'account' : 'global') },
  });
}
