/**
 * The control port (plain HTTP): sandbox set-up and test hooks the real Woovi does not have.
 * Answers `{error, message}` on failure. Accounts are named by their AppID in requests and by a
 * non-secret digest (`account_id`) in answers, stats and logs.
 */
import { randomUUID } from 'node:crypto';
import { Router, type Express } from 'express';
import { controlPort, payoutControlRoutes, sendControlError as fail, type Logger } from '../../kit';
import { z } from 'zod';
import type { ExpiryScheduler } from './charge-expiry';
import type { EmulatorState } from './emulator-state';
import type { SigningKeys } from './signing-keys';
import { disputeControlRoutes, type DisputeBook } from './disputes';
import { beforeChargePaid, onChargePaid, recurringControlRoutes, type RecurringDeps } from './pix-recurring.routes';
import { createRefund, type RefundSettler } from './refunds';
import type { WebhookSender } from './webhook-sender';
import { accountIdFor } from './woovi-ids';
import { paymentJson } from './payments';
import { subaccountControlRoutes, type SubaccountBook } from './subaccounts';
import { dashboardControlRoutes } from './charge-listing';

const accountSchema = z.object({ app_id: z.string().min(1) }).strict();

const payBodySchema = z.object({ account: z.string().optional(), infoPagador: z.string().max(140).optional() }).strict();

export interface ControlDependencies {
  state: EmulatorState;
  sender: WebhookSender;
  expiry: ExpiryScheduler;
  keys: SigningKeys;
  logger: Logger;
  refunds: RefundSettler;
  /** MED disputes (disputes.ts); absent: no dispute control routes. */
  disputes?: DisputeBook;
  /** Pix Automático (pix-recurring.routes.ts) and what the clock moving does to it. */
  recurring: { deps: RecurringDeps; tick: () => void };
  subaccounts: SubaccountBook;
}

const dashboardRefundSchema = z.object({ value: z.number().int().min(1).optional(), comment: z.string().max(140).optional() }).strict();

export function controlApp({ state, sender, expiry, keys, logger, refunds, disputes, recurring, subaccounts }: ControlDependencies): Express {
  const routes = Router();
  // Balance and Pix Out (payments.ts): the kit's shared routes, the account named by its AppID.
  routes.use(payoutControlRoutes(state.payments, 'account', (appId) => state.authenticate(appId), paymentJson));
  routes.get('/__control/public-key', (_req, res) => {
    res.status(200).type('application/x-pem-file').send(keys.publicKeyPem);
  });

  routes.post('/__control/accounts', (req, res) => {
    const parsed = accountSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { accountId, created } = state.registerAccount(parsed.data.app_id);
    logger.info({ account: accountId, created }, 'sandbox account registered');
    res.status(created ? 201 : 200).json({ account_id: accountId });
  });

  routes.post('/__control/charges/:id/pay', (req, res) => {
    const parsed = payBodySchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const id = req.params['id'] ?? '';
    const scope = parsed.data.account ? accountIdFor(parsed.data.account) : undefined;
    const candidates = state.findChargesById(id).filter((c) => !scope || c.accountId === scope);
    const [charge, ...others] = candidates;
    if (!charge) return fail(res, 404, 'charge_not_found', `no charge ${id}`);
    if (others.length > 0) return fail(res, 409, 'ambiguous_id', 'several accounts have this charge id: send account');
    if (charge.status !== 'ACTIVE') return fail(res, 409, 'charge_not_payable', `charge is ${charge.status}`);
    const notDue = beforeChargePaid(state, charge);
    if (notDue) return fail(res, 409, 'not_due', notDue);
    state.settleCharge(charge, parsed.data.infoPagador);
    expiry.cancel(charge);
    const webhooks = sender.notify('OPENPIX:CHARGE_COMPLETED', charge) + sender.notify('OPENPIX:TRANSACTION_RECEIVED', charge);
    onChargePaid(recurring.deps, charge);
    logger.info({ account: charge.accountId, webhooks }, 'charge paid');
    res.status(200).json({ correlationID: charge.correlationID, status: charge.status, endToEndId: charge.pix?.endToEndId, webhooks });
  });

  // A refund made in Woovi's dashboard (not through our API): settles and notifies like any other.
  routes.post('/__control/charges/:id/refund', (req, res) => {
    const parsed = dashboardRefundSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const [charge, ...others] = state.findChargesById(req.params['id'] ?? '');
    if (!charge) return fail(res, 404, 'charge_not_found', `no charge ${req.params['id'] ?? ''}`);
    if (others.length > 0) return fail(res, 409, 'ambiguous_id', 'several accounts have this charge id');
    try {
      const { refund } = createRefund(state, charge, { correlationID: `painel-${randomUUID()}`, ...parsed.data });
      refunds.schedule(charge, refund);
      res.status(200).json({ correlationID: refund.correlationID, status: refund.status, value: refund.value });
    } catch (err) {
      fail(res, 409, 'refund_refused', (err as Error).message);
    }
  });

  // Reconciliation (charge-listing.ts): charges made in the dashboard, statuses changed without a webhook.
  routes.use(dashboardControlRoutes(state, expiry, recurring.deps.charges, logger));

  if (disputes) routes.use(disputeControlRoutes({ state, sender, disputes, logger }));

  routes.use(recurringControlRoutes(recurring.deps));
  routes.use(subaccountControlRoutes(subaccounts, state));

  return controlPort(routes, {
    logger,
    stats: () => state.stats(),
    deliveries: () => state.listDeliveries(),
    reset: () => {
      expiry.clear();
      disputes?.clear();
      subaccounts.clear();
      state.reset();
    },
    faults: { registry: state.faults, param: 'account', scopeOf: accountIdFor },
    clock: { clock: state.clock, onChange: recurring.tick },
  });
}
