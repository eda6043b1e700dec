import { AppError } from '@orquestra/platform';
import { Router, type Request } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { requestHash } from '../idempotency/request-hash';
import {
  toCreateSubaccountRequest,
  toSubaccountBalanceJson,
  toSubaccountDetailJson,
  toSubaccountJson,
  toSubaccountListJson,
  toSubaccountOnboardingLinkJson,
} from '../mappers/subaccount.mapper';
import {
  CreateSubaccountSchema,
  SUBACCOUNT_FIELD_HINTS,
  SubaccountIdempotencyHeadersSchema,
  UpdateSubaccountSchema,
} from '../schemas/create-subaccount.schema';
import { ListSubaccountsQuerySchema } from '../schemas/list-subaccounts.schema';
import { SubaccountIdPathSchema } from '../schemas/path-params.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { pathIdOf } from './path-id';

const subaccountIdOf = (req: Request): string => pathIdOf(req, SubaccountIdPathSchema);


/** How many recent split payments GET /subaccounts/{id} shows. */
const RECENT_SPLIT_PAYMENTS = 10;
/**
 * /v1/subaccounts (§4 "Subaccounts"), checks in the order of the payment routes. Full keys only, on
 * every route: a subaccount is the owner's admin data (documents, bank accounts) and where split
 * money goes, which §5.4 keeps from restricted keys. What the provider requires, the account's
 * state and the provider's refusals are the payouts service's answers, passed through as they are.
 */
export function subaccountsRoutes(context: RouteContext): Router {
  const { clients, authenticate, settings } = context;
  const router = Router();
  const fullKeyOnly = requireFullKey();

  // Registers the seller at the provider: the payment creation deadline.
  router.post('/subaccounts', authenticate, fullKeyOnly, jsonBodyMiddleware(), async (req, res) => {
    const headers = parseOrThrow(SubaccountIdempotencyHeadersSchema, { 'Idempotency-Key': req.get('idempotency-key') }, 'header', SUBACCOUNT_FIELD_HINTS);
    const input = parseOrThrow(CreateSubaccountSchema, req.body, 'body', SUBACCOUNT_FIELD_HINTS);
    const response = await clients.payouts.createSubaccount(
      toCreateSubaccountRequest(input, { caller: callerOf(res), idempotencyKey: headers['Idempotency-Key'], requestHash: requestHash(input) }),
      rpcOptions(res, settings.createPaymentDeadlineMs),
    );
    if (!response.subaccount) throw new AppError('internal', { message: 'CreateSubaccount answered without a subaccount' });
    if (response.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).setHeader('Location', `/v1/subaccounts/${response.subaccount.id}`).json(toSubaccountJson(response.subaccount));
  });

  router.get('/subaccounts', authenticate, fullKeyOnly, async (req, res) => {
    const query = parseOrThrow(ListSubaccountsQuerySchema, req.query, 'query', SUBACCOUNT_FIELD_HINTS);
    const response = await clients.payouts.listSubaccounts(
      {
        caller: callerOf(res),
        status: query.status ?? '',
        provider_account_id: query.provider_account_id ?? '',
        q: query.q ?? '',
        limit: query.limit,
        starting_after: query.starting_after ?? '',
      },
      rpcOptions(res),
    );
    res.json(toSubaccountListJson(response));
  });

  // The subaccount (payouts) with its split totals and recent split payments (payments owns those).
  router.get('/subaccounts/:id', authenticate, fullKeyOnly, async (req, res) => {
    const caller = callerOf(res);
    const subaccountId = subaccountIdOf(req);
    const response = await clients.payouts.getSubaccount({ caller, subaccount_id: subaccountId }, rpcOptions(res));
    if (!response.subaccount) throw new AppError('not_found', { param: 'id' });
    const summary = await clients.payments.getSplitSummary({ caller, subaccount_id: subaccountId, recent_limit: RECENT_SPLIT_PAYMENTS }, rpcOptions(res));
    res.json(toSubaccountDetailJson(response.subaccount, summary));
  });

  // Name and metadata change here only, never at the provider (§4).
  router.patch('/subaccounts/:id', authenticate, fullKeyOnly, jsonBodyMiddleware(), async (req, res) => {
    const subaccountId = subaccountIdOf(req);
    const input = parseOrThrow(UpdateSubaccountSchema, req.body, 'body', SUBACCOUNT_FIELD_HINTS);
    const response = await clients.payouts.updateSubaccount(
      {
        caller: callerOf(res),
        subaccount_id: subaccountId,
        ...(input.name !== undefined ? { name: input.name } : {}),
        metadata: { ...input.metadata },
        metadata_set: input.metadata !== undefined,
      },
      rpcOptions(res),
    );
    if (!response.subaccount) throw new AppError('not_found', { param: 'id' });
    res.json(toSubaccountJson(response.subaccount));
  });

  // Asks the provider for the registration's state now: the payment creation deadline.
  router.post('/subaccounts/:id/sync', authenticate, fullKeyOnly, async (req, res) => {
    const response = await clients.payouts.syncSubaccount(
      { caller: callerOf(res), subaccount_id: subaccountIdOf(req) },
      rpcOptions(res, settings.createPaymentDeadlineMs),
    );
    if (!response.subaccount) throw new AppError('not_found', { param: 'id' });
    res.json(toSubaccountJson(response.subaccount));
  });

  // The provider mints the link: the payment creation deadline.
  router.post('/subaccounts/:id/onboarding-link', authenticate, fullKeyOnly, async (req, res) => {
    const response = await clients.payouts.createSubaccountOnboardingLink(
      { caller: callerOf(res), subaccount_id: subaccountIdOf(req) },
      rpcOptions(res, settings.createPaymentDeadlineMs),
    );
    res.json(toSubaccountOnboardingLinkJson(response));
  });

  // Read at the provider now: the payment creation deadline, as GET /v1/balances.
  router.get('/subaccounts/:id/balance', authenticate, fullKeyOnly, async (req, res) => {
    const response = await clients.payouts.getSubaccountBalance(
      { caller: callerOf(res), subaccount_id: subaccountIdOf(req) },
      rpcOptions(res, settings.createPaymentDeadlineMs),
    );
    res.json(toSubaccountBalanceJson(response));
  });

  return router;
}
