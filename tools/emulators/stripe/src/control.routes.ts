/**
 * The control port (plain HTTP): sandbox set-up and test hooks the real Stripe does not have, in
 * the shape every Orquestra emulator shares, plus the public pages Stripe hosts for a Pix (QR
 * images and the instructions page). Answers `{error, message}` on failure.
 */
import { Router, type Express, type Response } from 'express';
import { controlPort, escapeHtml, payoutControlRoutes, qrCodePng, qrCodeSvg, sendControlError as fail, type Logger } from '../../kit';
import { z } from 'zod';
import type { EmulatorState } from './emulator-state';
import type { PaymentIntentLifecycle } from './payment-intent-lifecycle';
import type { StoredPaymentIntent } from './payment-intent-model';
import { DISPUTE_REASONS, disputeJson, type DisputeBook } from './disputes';
import { refundJson, type RefundBook } from './refunds';
import { payoutJson, type StripePayoutBook } from './payouts';
import { connectControlRoutes, type ConnectBook, type ConnectEmit } from './connect';
import { dashboardControlRoutes, type Quietly } from './charge-listing';

const accountSchema = z.object({ secret_key: z.string().regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, 'secret_key must look like sk_test_… or sk_live_…') });

const dashboardRefundSchema = z
  .object({ amount: z.number().int().min(1).optional(), reason: z.enum(['duplicate', 'fraudulent', 'requested_by_customer']).optional() })
  .strict();

const settleSchema = z
  .object({ outcome: z.enum(['succeeded', 'failed', 'canceled']).default('succeeded'), failure_reason: z.string().min(1).max(100).optional() })
  .strict();

const openDisputeSchema = z.object({ amount: z.number().int().min(1).optional(), reason: z.enum(DISPUTE_REASONS).optional() }).strict();
const closeDisputeSchema = z.object({ outcome: z.enum(['won', 'lost']) }).strict();
const redeliverDisputeSchema = z.object({ type: z.enum(['charge.dispute.created', 'charge.dispute.updated', 'charge.dispute.closed']).optional() }).strict();

const reais = (centavos: number) => `R$ ${Math.trunc(centavos / 100)},${String(centavos % 100).padStart(2, '0')}`;

export function controlApp(state: EmulatorState, lifecycle: PaymentIntentLifecycle, refunds: RefundBook, disputes: DisputeBook, logger: Logger, payouts?: StripePayoutBook, connect?: { book: ConnectBook; emit: ConnectEmit }, quietly?: Quietly): Express {
  const routes = Router();
  // Reconciliation (charge-listing.ts): charges made in the dashboard, statuses changed without an event.
  if (quietly) routes.use(dashboardControlRoutes({ state, lifecycle, refunds, quietly, logger }));
  // Balance and payouts, by the account's secret key or acct_ id (kit payoutControlRoutes).
  if (payouts) routes.use(payoutControlRoutes(payouts, 'account', (keyOrId) => state.accountForKey(keyOrId)?.id ?? (keyOrId.startsWith('acct_') ? keyOrId : undefined), payoutJson));
  /** The open Pix intent behind a control call, or an answer saying why not. */
  const payablePix = (res: Response, id: string): StoredPaymentIntent | undefined => {
    const pi = state.findIntent(id);
    if (!pi) return void fail(res, 404, 'charge_not_found', `no PaymentIntent ${id}`);
    lifecycle.refresh(pi);
    const type = pi.paymentMethod?.type;
    if (pi.status !== 'requires_action' || (type !== 'pix' && type !== 'boleto')) return void fail(res, 409, 'charge_not_payable', `PaymentIntent is ${pi.status}`);
    return pi;
  };

  routes.post('/__control/accounts', (req, res) => {
    const parsed = accountSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { account, created } = state.registerAccount(parsed.data.secret_key);
    logger.info({ account: account.id, livemode: account.livemode, created }, 'sandbox account registered');
    res.status(created ? 201 : 200).json({ id: account.id, livemode: account.livemode });
  });

  routes.post('/__control/charges/:id/pay', (req, res) => {
    const pi = payablePix(res, req.params['id'] ?? '');
    if (!pi) return;
    lifecycle.payPix(pi);
    const webhooks = state.listDeliveries().filter((d) => d.paymentIntentId === pi.id && d.outcome === 'pending').length;
    logger.info({ account: pi.accountId, paymentIntent: pi.id, webhooks }, `${pi.paymentMethod?.type ?? 'charge'} paid`);
    res.status(200).json({ id: pi.id, status: pi.status, latest_charge: pi.latestCharge?.id, webhooks_scheduled: webhooks });
  });

  routes.post('/__control/charges/:id/expire', (req, res) => {
    const pi = payablePix(res, req.params['id'] ?? '');
    if (!pi) return;
    lifecycle.expire(pi);
    res.status(200).json({ id: pi.id, status: pi.status });
  });

  // A refund made "in the dashboard" (no API request, no metadata): moves and notifies like any other.
  routes.post('/__control/charges/:id/refund', (req, res) => {
    const parsed = dashboardRefundSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const pi = state.findIntent(req.params['id'] ?? '');
    if (!pi) return fail(res, 404, 'charge_not_found', `no PaymentIntent ${req.params['id'] ?? ''}`);
    try {
      const refund = refunds.create(pi, { ...(parsed.data.amount === undefined ? {} : { amount: parsed.data.amount }), reason: parsed.data.reason ?? null, metadata: {} }, {});
      res.status(200).json(refundJson(refund));
    } catch (err) {
      fail(res, 409, 'refund_refused', (err as Error).message);
    }
  });

  // The end of an open refund: a boleto payer who gave bank details (succeeded), a bank that
  // returned it (failed), or a payer who never answered (canceled).
  routes.post('/__control/refunds/:id/settle', (req, res) => {
    const parsed = settleSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const refund = state.findRefund(req.params['id'] ?? '');
    if (!refund) return fail(res, 404, 'refund_not_found', `no refund ${req.params['id'] ?? ''}`);
    if (!refunds.settle(refund, parsed.data.outcome, parsed.data.failure_reason)) return fail(res, 409, 'refund_not_open', `refund is ${refund.status}`);
    res.status(200).json(refundJson(refund));
  });

  // The cardholder's bank disputes a succeeded card PaymentIntent (charge.dispute.created).
  routes.post('/__control/charges/:id/dispute', (req, res) => {
    const parsed = openDisputeSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const pi = state.findIntent(req.params['id'] ?? '');
    if (!pi) return fail(res, 404, 'charge_not_found', `no PaymentIntent ${req.params['id'] ?? ''}`);
    try {
      const dispute = disputes.open(pi, { ...(parsed.data.amount === undefined ? {} : { amount: parsed.data.amount }), ...(parsed.data.reason ? { reason: parsed.data.reason } : {}) });
      res.status(200).json(disputeJson(dispute));
    } catch (err) {
      fail(res, 409, 'not_disputable', (err as Error).message);
    }
  });

  routes.get('/__control/disputes/:id', (req, res) => {
    const dispute = disputes.find(req.params['id'] ?? '');
    if (!dispute) return fail(res, 404, 'dispute_not_found', `no dispute ${req.params['id'] ?? ''}`);
    res.status(200).json(disputeJson(dispute));
  });

  // The bank's decision (charge.dispute.closed; won also charge.dispute.funds_reinstated).
  routes.post('/__control/disputes/:id/close', (req, res) => {
    const parsed = closeDisputeSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const dispute = disputes.find(req.params['id'] ?? '');
    if (!dispute) return fail(res, 404, 'dispute_not_found', `no dispute ${req.params['id'] ?? ''}`);
    if (!disputes.close(dispute, parsed.data.outcome)) return fail(res, 409, 'dispute_closed', `dispute is ${dispute.status}`);
    res.status(200).json(disputeJson(dispute));
  });

  // Stripe's "Resend": the dispute's latest event (or its latest of `type`), same event id.
  routes.post('/__control/disputes/:id/redeliver', (req, res) => {
    const parsed = redeliverDisputeSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const dispute = disputes.find(req.params['id'] ?? '');
    if (!dispute) return fail(res, 404, 'dispute_not_found', `no dispute ${req.params['id'] ?? ''}`);
    const event = disputes.redeliver(dispute, parsed.data.type);
    if (!event) return fail(res, 404, 'event_not_found', 'no such event for this dispute');
    res.status(200).json({ id: event.id, type: event.type });
  });

  // Stripe-hosted Pix pages: `image_url_png`, `image_url_svg` and `hosted_instructions_url`.
  routes.get('/qr/pix/:file', async (req, res) => {
    const match = /^([a-z0-9]+)\.(png|svg)$/.exec(req.params['file'] ?? '');
    const pi = match?.[1] ? state.findByPixToken(match[1]) : undefined;
    if (!match || !pi?.pixQrCode) return fail(res, 404, 'not_found', 'no Pix code on show here');
    if (match[2] === 'png') res.status(200).type('png').send(await qrCodePng(pi.pixQrCode.data));
    else res.status(200).type('image/svg+xml').send(await qrCodeSvg(pi.pixQrCode.data));
  });

  routes.get('/pix/instructions/:token', (req, res) => {
    const pi = state.findByPixToken(req.params['token'] ?? '');
    if (!pi) return fail(res, 404, 'not_found', 'unknown Pix');
    lifecycle.refresh(pi);
    const code = pi.pixQrCode;
    res
      .status(200)
      .type('html')
      .send(
        `<!doctype html><meta charset="utf-8"><title>Pix</title><h1>${reais(pi.amount)}</h1><p>Status: ${escapeHtml(pi.status)}</p>` +
          (code ? `<img alt="QR Code Pix" src="${escapeHtml(code.image_url_svg)}"><p><code>${escapeHtml(code.data)}</code></p>` : ''),
      );
  });

  // Stripe-hosted boleto voucher (`hosted_voucher_url`) and its PDF link.
  routes.get('/boleto/voucher/:token{/:format}', (req, res) => {
    const pi = state.findByBoletoToken(req.params['token'] ?? '');
    if (!pi) return fail(res, 404, 'not_found', 'unknown boleto');
    lifecycle.refresh(pi);
    const line = pi.boletoDetails?.number ?? '';
    const html =
      `<!doctype html><meta charset="utf-8"><title>Boleto</title><h1>${reais(pi.amount)}</h1><p>Status: ${escapeHtml(pi.status)}</p>` +
      (line ? `<p>Linha digitável: <code>${escapeHtml(line)}</code></p>` : '');
    // The "PDF" is the same voucher as text: enough for a link to open in tests and by hand.
    if (req.params['format'] === 'pdf') res.status(200).type('text/plain').send(`Boleto ${reais(pi.amount)} ${line}`);
    else res.status(200).type('html').send(html);
  });

  // Connected accounts: the hosted onboarding page, completing a link, Stripe's verdict (connect.ts).
  if (connect) routes.use(connectControlRoutes(state, connect.book, connect.emit));

  return controlPort(routes, {
    logger,
    stats: () => state.stats(),
    deliveries: () => state.listDeliveries(),
    reset: () => {
      state.reset();
      disputes.reset();
      payouts?.reset();
      connect?.book.reset();
    },
    faults: { registry: state.faults, param: 'account', scopeOf: (account) => state.accountIdFor(account) },
  });
}
