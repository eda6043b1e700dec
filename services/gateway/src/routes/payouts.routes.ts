import { AppError } from '@orquestra/platform';
import { Router, type Request } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { requestHash } from '../idempotency/request-hash';
import { toBalanceListJson, toPayoutDestinationListJson, toPayoutJson, toPayoutListJson } from '../mappers/payout.mapper';
import { CreatePayoutSchema, PAYOUT_FIELD_HINTS, PayoutIdempotencyHeadersSchema } from '../schemas/create-payout.schema';
import { ListPayoutsQuerySchema } from '../schemas/list-payouts.schema';
import { PayoutIdPathSchema } from '../schemas/path-params.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { pathIdOf } from './path-id';

const payoutIdOf = (req: Request): string => pathIdOf(req, PayoutIdPathSchema);

/**
 * /v1/balances, /v1/payouts, /v1/payout-destinations (§4 "Balances and payouts"), checks in the
 * order of the payment routes. Full keys only, on every route: a restricted key cannot pay out
 * (§5.4), and the balances and the saved Pix keys are the owner's money data, not a charge bot's.
 * Whether payouts by API are on (403 payouts_api_disabled) is the payouts service's check.
 */
export function payoutsRoutes(context: RouteContext): Router {
  const { clients, authenticate, settings } = context;
  const router = Router();
  const fullKeyOnly = requireFullKey();

  // Reads each account's balance at its provider: the payment creation deadline.
  router.get('/balances', authenticate, fullKeyOnly, async (_req, res) => {
    const response = await clients.payouts.getBalances({ caller: callerOf(res) }, rpcOptions(res, settings.createPaymentDeadlineMs));
    res.json(toBalanceListJson(response));
  });

  // Sends the transfer to the provider: the payment creation deadline.
  router.post('/payouts', authenticate, fullKeyOnly, jsonBodyMiddleware(), async (req, res) => {
    const headers = parseOrThrow(
      PayoutIdempotencyHeadersSchema,
      { 'Idempotency-Key': req.get('idempotency-key') },
      'header',
      PAYOUT_FIELD_HINTS,
    );
    const input = parseOrThrow(CreatePayoutSchema, req.body, 'body', PAYOUT_FIELD_HINTS);
    const response = await clients.payouts.createPayout(
      {
        caller: callerOf(res),
        idempotency_key: headers['Idempotency-Key'],
        request_hash: requestHash(input),
        provider_account_id: input.provider_account_id,
        amount: input.amount,
        destination: { type: input.destination.type, destination_id: input.destination.type === 'pix_key' ? input.destination.destination_id : '' },
        description: input.description ?? '',
        metadata: { ...input.metadata },
      },
      rpcOptions(res, settings.createPaymentDeadlineMs),
    );
    if (!response.payout) throw new AppError('internal', { message: 'CreatePayout answered without a payout' });
    if (response.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).setHeader('Location', `/v1/payouts/${response.payout.id}`).json(toPayoutJson(response.payout));
  });

  router.get('/payouts', authenticate, fullKeyOnly, async (req, res) => {
    const query = parseOrThrow(ListPayoutsQuerySchema, req.query, 'query', PAYOUT_FIELD_HINTS);
    const response = await clients.payouts.listPayouts(
      {
        caller: callerOf(res),
        status: query.status ?? '',
        provider_account_id: query.provider_account_id ?? '',
        limit: query.limit,
        starting_after: query.starting_after ?? '',
      },
      rpcOptions(res),
    );
    res.json(toPayoutListJson(response));
  });

  router.get('/payouts/:id', authenticate, fullKeyOnly, async (req, res) => {
    const response = await clients.payouts.getPayout({ caller: callerOf(res), payout_id: payoutIdOf(req) }, rpcOptions(res));
    if (!response.payout) throw new AppError('not_found', { param: 'id' });
    res.json(toPayoutJson(response.payout));
  });

  // Asks the provider for the transfer now: the payment creation deadline.
  router.post('/payouts/:id/sync', authenticate, fullKeyOnly, async (req, res) => {
    const response = await clients.payouts.syncPayout(
      { caller: callerOf(res), payout_id: payoutIdOf(req) },
      rpcOptions(res, settings.createPaymentDeadlineMs),
    );
    if (!response.payout) throw new AppError('not_found', { param: 'id' });
    res.json(toPayoutJson(response.payout));
  });

  router.get('/payout-destinations', authenticate, fullKeyOnly, async (_req, res) => {
    const response = await clients.payouts.listPayoutDestinations({ caller: callerOf(res) }, rpcOptions(res));
    res.json(toPayoutDestinationListJson(response));
  });

  return router;
}
