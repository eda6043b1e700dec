/**
 * The control port (plain HTTP): sandbox set-up and test hooks the real Pagar.me does not have,
 * including the webhook URL that Pagar.me only lets one set in its dashboard. Answers
 * `{error, message}` on failure. Accounts are named by secret key or by account id (`acc_…`).
 */
import { Router, type Express } from 'express';
import { controlPort, payoutControlRoutes, sendControlError as fail, type Logger } from '../../kit';
import { z } from 'zod';
import type { EmulatorState } from './emulator-state';
import type { QrCodeUrl } from './order-json';
import { accountIdFor } from './pagarme-ids';
import { DEFAULT_WEBHOOK_EVENTS, publishTransition } from './webhook-events';
import type { WebhookSender } from './webhook-sender';
import { withdrawalJson } from './withdrawals';
import { applyStatus, recipientJson } from './recipients';
import { dashboardControlRoutes, type DashboardOrderFactory } from './charge-listing';

const secretKey = z.string().regex(/^sk_[A-Za-z0-9_]{4,200}$/, 'secret_key must look like sk_test_… or sk_…');

const accountSchema = z.object({ secret_key: secretKey, name: z.string().min(1).max(64).optional() }).strict();

const webhookSchema = z
  .object({
    account: z.string().min(1),
    url: z.string().url().refine((u) => /^https?:/.test(u), 'url must be http(s)'),
    events: z.array(z.string().regex(/^[a-z_]+\.[a-z_]+$/)).min(1).optional(),
  })
  .strict();

/** The control shape every emulator with subaccounts shares. */
const subaccountStatusSchema = z.object({ status: z.enum(['active', 'refused', 'blocked']), reason: z.string().min(1).max(500).optional() }).strict();

const dashboardRefundSchema = z.object({ amount: z.number().int().min(1).optional() }).strict();

const payBodySchema = z.object({ payer_name: z.string().min(1).max(100).optional() }).passthrough();

/** A fault target: an account id as is, a secret key as the account it names (registered or not). */
const faultScope = (account: string) => (account.startsWith('acc_') ? account : accountIdFor(account));

export function controlApp(state: EmulatorState, sender: WebhookSender, qrCodeUrl: QrCodeUrl, logger: Logger, dashboardOrder?: DashboardOrderFactory): Express {
  const routes = Router();
  // Reconciliation (charge-listing.ts): charges made in the dashboard, statuses changed without a webhook.
  if (dashboardOrder) routes.use(dashboardControlRoutes(state, dashboardOrder, logger));
  // Balance and withdrawals (withdrawals.ts): the kit's shared routes, the account named by secret
  // key or id; a recipient created by API by its id (`rp_…`, its own balance).
  routes.use(payoutControlRoutes(state.withdrawals, 'account', (account) => state.resolveAccount(account)?.id ?? state.recipient(account)?.id, withdrawalJson));

  // Pagar.me's KYC / credentialing of a recipient created by API finishing, then `recipient.updated`.
  routes.post('/__control/subaccounts/:id/status', (req, res) => {
    const parsed = subaccountStatusSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const recipient = state.recipient(req.params['id'] ?? '');
    if (!recipient) return fail(res, 404, 'recipient_not_found', `no recipient ${req.params['id'] ?? ''} created by API`);
    applyStatus(recipient, parsed.data.status, parsed.data.reason, state.now());
    const webhook = sender.send(recipient.accountId, 'recipient.updated', recipientJson(recipient), []);
    logger.info({ account: recipient.accountId, recipient: recipient.id, status: recipient.status, webhook }, 'recipient status set');
    res.status(200).json({ ...recipientJson(recipient), webhook_scheduled: webhook });
  });
  routes.post('/__control/accounts', (req, res) => {
    const parsed = accountSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { account, created } = state.registerAccount(parsed.data);
    logger.info({ account: account.id, mode: account.mode, created }, 'sandbox account registered');
    res.status(created ? 201 : 200).json({ account_id: account.id, name: account.name, mode: account.mode });
  });

  routes.post('/__control/webhook', (req, res) => {
    const parsed = webhookSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const account = state.resolveAccount(parsed.data.account);
    if (!account) return fail(res, 404, 'account_not_found', 'no sandbox account with this key or id');
    const events = parsed.data.events ?? DEFAULT_WEBHOOK_EVENTS;
    state.setWebhook(account.id, { url: parsed.data.url, events });
    logger.info({ account: account.id, url: new URL(parsed.data.url).pathname, events }, 'webhook configured');
    res.status(200).json({ account_id: account.id, events });
  });

  routes.post('/__control/charges/:id/pay', (req, res) => {
    const parsed = payBodySchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const id = req.params['id'] ?? '';
    const order = state.findAnywhere(id);
    if (!order) return fail(res, 404, 'charge_not_found', `no charge or order ${id}`);
    if (order.charge.status !== 'pending') return fail(res, 409, 'charge_not_payable', `charge is ${order.charge.status}`);
    state.settle(order, parsed.data.payer_name);
    const webhooks = publishTransition(sender, order, 'paid', qrCodeUrl);
    logger.info({ account: order.accountId, charge: order.charge.id, webhooks }, 'charge paid');
    res.status(200).json({ charge_id: order.charge.id, order_id: order.id, status: order.charge.status, webhooks_scheduled: webhooks });
  });

  // A card chargeback (the cardholder's bank in reality): a paid card charge turns `chargedback`
  // and `charge.chargedback` is sent. Pagar.me's API shows no contest or outcome, so there is
  // nothing here to decide it (pagarme.chargebacks.ts in the providers service says the same).
  routes.post('/__control/charges/:id/chargeback', (req, res) => {
    const order = state.findAnywhere(req.params['id'] ?? '');
    if (!order) return fail(res, 404, 'charge_not_found', `no charge or order ${req.params['id'] ?? ''}`);
    if (!order.charge.transaction.card) return fail(res, 409, 'chargeback_refused', 'only card charges are charged back');
    if (order.charge.status !== 'paid') return fail(res, 409, 'chargeback_refused', `charge is ${order.charge.status}, not paid`);
    order.charge.status = 'chargedback';
    order.charge.updatedAt = state.now();
    const webhooks = publishTransition(sender, order, 'chargedback', qrCodeUrl);
    logger.info({ account: order.accountId, charge: order.charge.id, webhooks }, 'charge charged back');
    res.status(200).json({ charge_id: order.charge.id, order_id: order.id, status: order.charge.status, webhooks_scheduled: webhooks });
  });

  // A refund made "in the dashboard", where Pagar.me collects the boleto payer's bank account itself.
  routes.post('/__control/charges/:id/refund', (req, res) => {
    const parsed = dashboardRefundSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const order = state.findAnywhere(req.params['id'] ?? '');
    if (!order) return fail(res, 404, 'charge_not_found', `no charge or order ${req.params['id'] ?? ''}`);
    try {
      const { transition, refund } = state.refund(order, { ...(parsed.data.amount === undefined ? {} : { amount: parsed.data.amount }), bankAccount: true });
      const webhooks = publishTransition(sender, order, transition, qrCodeUrl);
      res.status(200).json({ charge_id: order.charge.id, transaction_id: refund.id, amount: refund.amount, status: order.charge.status, canceled_amount: order.charge.canceledAmount, webhooks_scheduled: webhooks });
    } catch (err) {
      fail(res, 409, 'refund_refused', (err as Error).message);
    }
  });

  return controlPort(routes, {
    logger,
    stats: () => state.stats(),
    deliveries: () => state.listDeliveries(),
    reset: () => state.reset(),
    faults: { registry: state.faults, param: 'account', scopeOf: faultScope },
  });
}
