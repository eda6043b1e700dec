/**
 * The control port (plain HTTP): sandbox set-up and test hooks the real Asaas does not have, in
 * the shape every emulator shares. Accounts are named by their API key in requests and by a hash
 * of it (`acct_…`) in answers and stats, so the key never leaves in an answer. Answers
 * `{error, message}` on failure.
 */
import { Router, type Express } from 'express';
import { z } from 'zod';
import { accountIdFor } from './asaas-ids';
import { paymentJson } from './asaas-json';
import { dashboardRoutes, type DashboardOptions } from './dashboard.routes';
import type { EmulatorState, StoredPayment } from './emulator-state';
import { ChargebackRefused, decideChargeback, openChargeback, redeliverChargeback } from './chargebacks';
import { applyCard, cardPayable } from './invoice-checkout';
import { invoicePageRoutes } from './invoice-page';
import { bankSlipRoutes } from './boleto';
import { TEST_CARDS } from './test-cards';
import { controlPort, faultSettingsShape, payoutControlRoutes, sendControlError as fail, type Logger } from '../../kit';
import { activateByPayment, pixAutomaticControlRoutes, type PixAutomaticDeps } from './pix-automatic.routes';
import { createRefund, type RefundSettler } from './refunds';
import { spDate } from './sao-paulo-time';
import type { WebhookSender } from './webhook-sender';
import { transferJson } from './transfers';
import { statusFor, statusJson } from './subaccounts';

const accountSchema = z.object({ api_key: z.string().min(1).max(512) }).strict();

const faultSchema = z
  .object({
    /** The API key of the account the faults apply to; global without it. */
    account: z.string().min(1).optional(),
    /** `create_payment`: only `POST /v3/payments` (the lookups before it still answer). */
    only: z.literal('create_payment').optional(),
    ...faultSettingsShape,
  })
  .strict();

const paySchema = z.object({ account: z.string().optional() }).strict();

const declineSchema = z.object({ event: z.enum(['PAYMENT_CREDIT_CARD_CAPTURE_REFUSED', 'PAYMENT_REPROVED_BY_RISK_ANALYSIS']).optional() }).strict();

const chargebackSchema = z.object({ reason: z.string().min(1).max(100).optional() }).strict();
const chargebackDecisionSchema = z.object({ decision: z.enum(['dispute', 'won', 'lost']) }).strict();

/** The control shape every emulator with subaccounts shares; `reason` is not kept (Asaas answers no reason). */
const subaccountStatusSchema = z.object({ status: z.enum(['active', 'refused', 'blocked']), reason: z.string().max(500).optional() }).strict();

const dashboardRefundSchema = z.object({ value_cents: z.number().int().min(1).optional(), description: z.string().max(500).optional() }).strict();

export function controlApp(
  state: EmulatorState,
  sender: WebhookSender,
  invoiceBase: () => string,
  logger: Logger,
  settler: RefundSettler,
  pixAutomatic: { deps: PixAutomaticDeps; tick: () => void },
  /** Charges made and changed in Asaas's dashboard (dashboard.routes.ts). */
  dashboard?: DashboardOptions,
): Express {
  const routes = Router();
  const json = (p: StoredPayment) => paymentJson(p, invoiceBase());
  if (dashboard) routes.use(dashboardRoutes(state, dashboard, json));
  routes.post('/__control/accounts', (req, res) => {
    const parsed = accountSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { account, created } = state.registerAccount(parsed.data);
    logger.info({ account: account.id, created }, 'sandbox account registered');
    res.status(created ? 201 : 200).json({ account: account.id, walletId: account.walletId });
  });

  // An estorno made in Asaas's dashboard (not through our API): settles and notifies like any other.
  routes.post('/__control/charges/:id/refund', (req, res) => {
    const parsed = dashboardRefundSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const payment = state.findPayment(req.params['id'] ?? '');
    if (!payment) return fail(res, 404, 'charge_not_found', `no charge ${req.params['id'] ?? ''}`);
    try {
      const refund = createRefund(payment, parsed.data.value_cents, parsed.data.description, state.now());
      settler.schedule(payment, refund, json);
      res.status(200).json({ id: payment.id, status: payment.status, value_cents: refund.valueCents });
    } catch (err) {
      fail(res, 409, 'refund_refused', (err as Error).message);
    }
  });

  routes.post('/__control/charges/:id/pay', (req, res) => {
    const parsed = paySchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const id = req.params['id'] ?? '';
    const payment = state.findPayment(id);
    const owner = parsed.data.account ? accountIdFor(parsed.data.account) : undefined;
    if (!payment || (owner && payment.accountId !== owner)) return fail(res, 404, 'charge_not_found', `no charge ${id}`);
    if (payment.deleted || (payment.status !== 'PENDING' && payment.status !== 'OVERDUE')) {
      return fail(res, 409, 'charge_not_payable', `charge is ${payment.deleted ? 'deleted' : payment.status}`);
    }
    // A Pix Automático cycle is debited on its due date, not before.
    if (payment.pixAutomaticAuthorizationId && payment.dueDate > spDate(state.now())) return fail(res, 409, 'not_due', `the debit is scheduled for ${payment.dueDate}`);
    if (payment.billingType === 'CREDIT_CARD') {
      // A card charge is paid as if the approved test card were typed on its invoice page.
      applyCard(state, sender, payment, { kind: 'approved', last4: TEST_CARDS.approved[0].slice(-4), brand: 'VISA' }, json);
      logger.info({ account: payment.accountId, payment: id }, 'card charge confirmed');
      return res.status(200).json({ id, status: payment.status });
    }
    state.settlePayment(payment);
    if (payment.pixAutomaticAuthorizationId) {
      // A Pix Automático debit is CONFIRMED on its due date (docs.asaas.com "Fluxos de Webhook").
      payment.status = 'CONFIRMED';
      sender.paymentEvent(payment, 'PAYMENT_CONFIRMED', json);
    } else sender.paymentEvent(payment, 'PAYMENT_RECEIVED', json);
    activateByPayment(pixAutomatic.deps, payment);
    logger.info({ account: payment.accountId, payment: id }, 'charge paid');
    res.status(200).json({ id, status: payment.status, pixTransaction: payment.pixTransactionId });
  });

  // A card refused on the invoice page, without typing it: the charge stays open, the event is sent.
  routes.post('/__control/charges/:id/decline', (req, res) => {
    const parsed = declineSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const payment = state.findPayment(req.params['id'] ?? '');
    if (!payment) return fail(res, 404, 'charge_not_found', `no charge ${req.params['id'] ?? ''}`);
    if (!cardPayable(payment)) return fail(res, 409, 'charge_not_payable', `charge is ${payment.deleted ? 'deleted' : `${payment.billingType} ${payment.status}`}`);
    const event = parsed.data.event ?? 'PAYMENT_CREDIT_CARD_CAPTURE_REFUSED';
    applyCard(state, sender, payment, { kind: 'declined', event, message: 'declined by the control port' }, json);
    res.status(200).json({ id: payment.id, status: payment.status, event });
  });

  // Card chargebacks (chargebacks.ts): open one on a paid card charge, then move or decide it.
  routes.post('/__control/charges/:id/chargeback', (req, res) => {
    const parsed = chargebackSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const payment = state.findPayment(req.params['id'] ?? '');
    if (!payment) return fail(res, 404, 'charge_not_found', `no charge ${req.params['id'] ?? ''}`);
    try {
      openChargeback(sender, payment, parsed.data.reason ?? 'MERCHANDISE_NOT_RECEIVED', json);
    } catch (err) {
      if (err instanceof ChargebackRefused) return fail(res, 409, 'chargeback_refused', err.message);
      throw err;
    }
    logger.info({ account: payment.accountId, payment: payment.id }, 'chargeback opened');
    res.status(200).json(json(payment));
  });

  routes.post('/__control/charges/:id/chargeback/decide', (req, res) => {
    const parsed = chargebackDecisionSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const payment = state.findPayment(req.params['id'] ?? '');
    if (!payment) return fail(res, 404, 'charge_not_found', `no charge ${req.params['id'] ?? ''}`);
    try {
      decideChargeback(sender, payment, parsed.data.decision, json);
    } catch (err) {
      if (err instanceof ChargebackRefused) return fail(res, 409, 'chargeback_refused', err.message);
      throw err;
    }
    logger.info({ account: payment.accountId, payment: payment.id, decision: parsed.data.decision }, 'chargeback moved');
    res.status(200).json(json(payment));
  });

  routes.post('/__control/charges/:id/chargeback/redeliver', (req, res) => {
    const payment = state.findPayment(req.params['id'] ?? '');
    if (!payment) return fail(res, 404, 'charge_not_found', `no charge ${req.params['id'] ?? ''}`);
    try {
      res.status(200).json({ id: payment.id, event_id: redeliverChargeback(sender, payment, json) });
    } catch (err) {
      if (err instanceof ChargebackRefused) return fail(res, 409, 'chargeback_refused', err.message);
      throw err;
    }
  });

  // Asaas's analysis of a subaccount's registration: approved or rejected, then its webhook to the root account.
  routes.post('/__control/subaccounts/:id/status', (req, res) => {
    const parsed = subaccountStatusSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const sub = state.subaccount(req.params['id'] ?? '');
    if (!sub) return fail(res, 404, 'subaccount_not_found', `no subaccount ${req.params['id'] ?? ''}`);
    if (parsed.data.status === 'blocked') return fail(res, 409, 'not_supported', 'Asaas has no blocked account status: use active or refused');
    state.setSubaccountStatus(sub, statusFor(parsed.data.status));
    const event = sub.status.general === 'APPROVED' ? 'ACCOUNT_STATUS_GENERAL_APPROVAL_APPROVED' : 'ACCOUNT_STATUS_GENERAL_APPROVAL_REJECTED';
    sender.accountEvent(sub.parentAccountId, event, 'accountStatus', statusJson(sub.id, sub.status));
    logger.info({ subaccount: sub.id, general: sub.status.general }, 'subaccount status set');
    res.status(200).json(statusJson(sub.id, sub.status));
  });

  routes.use(pixAutomaticControlRoutes(pixAutomatic.deps));
  // Balance and transfers (transfers.ts): the kit's shared routes, the account named by its API key.
  routes.use(payoutControlRoutes(state.transfers, 'account', (apiKey) => state.accountByKey(apiKey)?.id, transferJson));

  routes.post('/__control/faults', (req, res) => {
    const parsed = faultSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { account, only, ...faults } = parsed.data;
    const scope = account ? accountIdFor(account) : undefined;
    (only === 'create_payment' ? state.createFaults : state.faults).set(scope, faults);
    logger.info({ scope: scope ?? 'global', only: only ?? 'all', faults }, 'faults set');
    res.status(200).json({ scope: scope ?? 'global', only: only ?? 'all', faults });
  });

  routes.delete('/__control/faults', (_req, res) => {
    state.faults.clear();
    state.createFaults.clear();
    res.status(204).end();
  });

  return controlPort(routes, {
    logger,
    stats: () => state.stats(),
    deliveries: () => state.webhooks.listDeliveries(),
    reset: () => state.reset(),
    clock: { clock: state.clock, onChange: pixAutomatic.tick },
    // Asaas's hosted invoice pages (invoiceUrl) and boleto slips (bankSlipUrl): public, like sandbox.asaas.com/i/<id> and /b/pdf/<id>.
    pages: Router().use(invoicePageRoutes(state, sender, json, logger), bankSlipRoutes(state)),
  });
}
