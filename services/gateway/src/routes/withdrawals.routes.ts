import { AppError } from '@orquestra/platform';
import { Router, type Request } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { requestHash } from '../idempotency/request-hash';
import { toPayoutJson, toPayoutListJson } from '../mappers/payout.mapper';
import { PayoutIdempotencyHeadersSchema } from '../schemas/create-payout.schema';
import { CreateWithdrawalSchema, ListWithdrawalsQuerySchema, WITHDRAWAL_FIELD_HINTS } from '../schemas/create-withdrawal.schema';
import { SubaccountIdPathSchema } from '../schemas/path-params.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { pathIdOf } from './path-id';

const subaccountIdOf = (req: Request): string => pathIdOf(req, SubaccountIdPathSchema);

/**
 * /v1/subaccounts/{id}/withdrawals (§4 "Subaccounts"): a withdrawal is a payout from the
 * subaccount to its own destination, answered as the public Payout. Full keys only (§5.4: a
 * restricted key cannot withdraw). Whether the subaccount exists here and is active, and whether
 * payouts by API are on, are the payouts service's checks, passed through as they are.
 */
export function withdrawalsRoutes(context: RouteContext): Router {
  const { clients, authenticate, settings } = context;
  const router = Router();
  const fullKeyOnly = requireFullKey();

  // A withdrawal from the subaccount to its own destination (§4): the Idempotency-Key is required,
  // as for payouts, and the body hash covers the subaccount too (one key, one subaccount). Sends
  // the transfer to the provider: the payment creation deadline.
  router.post('/subaccounts/:id/withdrawals', authenticate, fullKeyOnly, jsonBodyMiddleware(), async (req, res) => {
    const subaccountId = subaccountIdOf(req);
    const headers = parseOrThrow(PayoutIdempotencyHeadersSchema, { 'Idempotency-Key': req.get('idempotency-key') }, 'header', WITHDRAWAL_FIELD_HINTS);
    const input = parseOrThrow(CreateWithdrawalSchema, req.body, 'body', WITHDRAWAL_FIELD_HINTS);
    const response = await clients.payouts.createWithdrawal(
      {
        caller: callerOf(res),
        idempotency_key: headers['Idempotency-Key'],
        request_hash: requestHash({ subaccount_id: subaccountId, ...input }),
        subaccount_id: subaccountId,
        amount: input.amount,
        description: input.description ?? '',
        metadata: { ...input.metadata },
      },
      rpcOptions(res, settings.createPaymentDeadlineMs),
    );
    if (!response.payout) throw new AppError('internal', { message: 'CreateWithdrawal answered without a payout' });
    if (response.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).setHeader('Location', `/v1/payouts/${response.payout.id}`).json(toPayoutJson(response.payout));
  });

  router.get('/subaccounts/:id/withdrawals', authenticate, fullKeyOnly, async (req, res) => {
    const subaccountId = subaccountIdOf(req);
    const query = parseOrThrow(ListWithdrawalsQuerySchema, req.query, 'query', WITHDRAWAL_FIELD_HINTS);
    const response = await clients.payouts.listWithdrawals(
      { caller: callerOf(res), subaccount_id: subaccountId, limit: query.limit, starting_after: query.starting_after ?? '' },
      rpcOptions(res),
    );
    res.json(toPayoutListJson(response));
  });

  return router;
}
