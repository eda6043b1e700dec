/**
 * The control port (plain HTTP): sandbox set-up and test hooks the real Woovi does not have.
 * Answers `{error, message}` on failure. Accounts are named by their AppID in requests and by a
 * non-secret digest (`account_id`) in answers, stats and logs.
 */
import { randomUUID } from 'node:crypto';
import express, { type Express, type Response } from 'express';
import { z } from 'zod';
import type { ExpiryScheduler } from './charge-expiry';
import type { EmulatorState } from './emulator-state';
import type { Logger } from '../../kit';
import type { SigningKeys } from './signing-keys';
import { disputeControlRoutes, type DisputeBook } from './disputes';
import { createRefund, type RefundSettler } from './refunds';
import type { WebhookSender } from './webhook-sender';
import { accountIdFor } from './woovi-ids';

const accountSchema = z.object({ app_id: z.string().min(1) }).strict();

const faultSchema = z
  .object({
    account: z.string().min(1).optional(),
    latency_ms: z.number().int().min(0).max(600_000).optional(),
    error_rate: z.number().min(0).max(1).optional(),
    rate_limit_rate: z.number().min(0).max(1).optional(),
    outage: z.boolean().optional(),
    outage_mode: z.enum(['reset', '503']).optional(),
    hang: z.boolean().optional(),
  })
  .strict();

const payBodySchema = z.object({ account: z.string().optional(), infoPagador: z.string().max(140).optional() }).strict();

function fail(res: Response, status: number, error: string, message: string): void {
  res.status(status).json({ error, message });
}

export interface ControlDependencies {
  state: EmulatorState;
  sender: WebhookSender;
  expiry: ExpiryScheduler;
  keys: SigningKeys;
  logger: Logger;
  refunds: RefundSettler;
  /** MED disputes (disputes.ts); absent: no dispute control routes. */
  disputes?: DisputeBook;
}

const dashboardRefundSchema = z.object({ value: z.number().int().min(1).optional(), comment: z.string().max(140).optional() }).strict();

export function controlApp({ state, sender, expiry, keys, logger, refunds, disputes }: ControlDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '256kb' }));

  app.get('/__control/health', (_req, res) => {
    res.status(200).json({ status: 'ok' });
  });

  app.get('/__control/public-key', (_req, res) => {
    res.status(200).type('application/x-pem-file').send(keys.publicKeyPem);
  });

  app.post('/__control/accounts', (req, res) => {
    const parsed = accountSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { accountId, created } = state.registerAccount(parsed.data.app_id);
    logger.info({ account: accountId, created }, 'sandbox account registered');
    res.status(created ? 201 : 200).json({ account_id: accountId });
  });

  app.post('/__control/charges/:id/pay', (req, res) => {
    const parsed = payBodySchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const id = req.params['id'] ?? '';
    const scope = parsed.data.account ? accountIdFor(parsed.data.account) : undefined;
    const candidates = state.findChargesById(id).filter((c) => !scope || c.accountId === scope);
    const [charge, ...others] = candidates;
    if (!charge) return fail(res, 404, 'charge_not_found', `no charge ${id}`);
    if (others.length > 0) return fail(res, 409, 'ambiguous_id', 'several accounts have this charge id: send account');
    if (charge.status !== 'ACTIVE') return fail(res, 409, 'charge_not_payable', `charge is ${charge.status}`);
    state.settleCharge(charge, parsed.data.infoPagador);
    expiry.cancel(charge);
    const webhooks = sender.notify('OPENPIX:CHARGE_COMPLETED', charge) + sender.notify('OPENPIX:TRANSACTION_RECEIVED', charge);
    logger.info({ account: charge.accountId, webhooks }, 'charge paid');
    res.status(200).json({ correlationID: charge.correlationID, status: charge.status, endToEndId: charge.pix?.endToEndId, webhooks });
  });

  // A refund made in Woovi's dashboard (not through our API): settles and notifies like any other.
  app.post('/__control/charges/:id/refund', (req, res) => {
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

  if (disputes) app.use(disputeControlRoutes({ state, sender, disputes, logger }));

  app.post('/__control/faults', (req, res) => {
    const parsed = faultSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { account, ...faults } = parsed.data;
    const scope = account ? accountIdFor(account) : undefined;
    state.faults.set(scope, faults);
    logger.info({ scope: scope ?? 'global', faults }, 'faults set');
    res.status(200).json({ scope: scope ?? 'global', faults });
  });

  app.delete('/__control/faults', (_req, res) => {
    state.faults.clear();
    res.status(204).end();
  });

  app.get('/__control/stats', (_req, res) => {
    res.status(200).json(state.stats());
  });

  app.get('/__control/webhooks/deliveries', (_req, res) => {
    res.status(200).json({ deliveries: state.listDeliveries() });
  });

  app.post('/__control/reset', (_req, res) => {
    expiry.clear();
    disputes?.clear();
    state.reset();
    res.status(204).end();
  });

  app.use((_req, res) => fail(res, 404, 'not_found', 'unknown control route'));
  app.use((err: unknown, _req: express.Request, res: Response, _next: express.NextFunction) => {
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) return fail(res, 400, 'invalid_json', 'body is not valid JSON');
    logger.error({ err }, 'control route failed');
    fail(res, 500, 'internal', 'unexpected error');
  });
  return app;
}
