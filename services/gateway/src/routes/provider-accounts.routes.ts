import { AppError } from '@orquestra/platform';
import { Router, type Request } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import {
  toConnectAccountRequest,
  toProviderAccountJson,
  toProviderAccountListJson,
  toSetEnabledRequest,
  toUpdateAccountRequest,
} from '../mappers/provider-account.mapper';
import { ProviderAccountIdSchema } from '../schemas/path-params.schema';
import {
  ConnectProviderAccountSchema,
  PROVIDER_ACCOUNT_HINTS,
  UpdateProviderAccountSchema,
} from '../schemas/provider-account.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { aboutPathId, pathIdOf } from './path-id';

/**
 * UpdateAccount cannot change credentials (the providers service checks them only when
 * connecting), so a body that tries is refused by name rather than as an unknown field.
 */
function refuseCredentialChange(body: unknown): void {
  if (body !== null && typeof body === 'object' && 'credentials' in body) {
    throw new AppError('parameter_invalid', {
      param: 'credentials',
      message:
        'As credenciais de uma conta conectada não podem ser alteradas. Conecte a conta de novo com POST /v1/provider-accounts ' +
        'e desative a antiga com POST /v1/provider-accounts/{id}/disable.',
    });
  }
}

/**
 * /v1/provider-accounts: connected provider accounts of the key's merchant, in the key's mode.
 * Full keys only (§5.4: restricted keys cannot touch provider accounts). Credentials go in on
 * connect and never come back out: answers carry only their last 4 characters.
 */
export function providerAccountsRoutes(context: RouteContext): Router {
  const { clients, authenticate } = context;
  const router = Router();
  const guard = [authenticate, requireFullKey()];
  const accountIdOf = (req: Request) => pathIdOf(req, ProviderAccountIdSchema);

  router.get('/provider-accounts', ...guard, async (_req, res) => {
    const caller = callerOf(res);
    const response = await clients.providers.listAccounts({ merchant_id: caller.merchant_id, mode: caller.mode }, rpcOptions(res));
    res.json(toProviderAccountListJson(response));
  });

  // Connecting checks the credentials at the provider and registers the webhook: wrong
  // credentials answer 400 invalid_credentials (param credentials).
  router.post('/provider-accounts', ...guard, jsonBodyMiddleware(), async (req, res) => {
    const input = parseOrThrow(ConnectProviderAccountSchema, req.body, 'body', PROVIDER_ACCOUNT_HINTS);
    const { account } = await clients.providers.connectAccount(toConnectAccountRequest(input, callerOf(res)), rpcOptions(res));
    if (!account) throw new AppError('internal', { message: 'ConnectAccount answered without an account' });
    res.status(201).setHeader('Location', `/v1/provider-accounts/${account.id}`).json(toProviderAccountJson(account));
  });

  router.get('/provider-accounts/:id', ...guard, async (req, res) => {
    const caller = callerOf(res);
    const accountId = accountIdOf(req);
    const { account } = await aboutPathId(() =>
      clients.providers.getAccount({ merchant_id: caller.merchant_id, mode: caller.mode, account_id: accountId }, rpcOptions(res)),
    );
    if (!account) throw new AppError('not_found', { param: 'id' });
    res.json(toProviderAccountJson(account));
  });

  router.post('/provider-accounts/:id', ...guard, jsonBodyMiddleware(), async (req, res) => {
    const accountId = accountIdOf(req);
    refuseCredentialChange(req.body);
    const input = parseOrThrow(UpdateProviderAccountSchema, req.body, 'body', PROVIDER_ACCOUNT_HINTS);
    const { account } = await aboutPathId(() =>
      clients.providers.updateAccount(toUpdateAccountRequest(input, callerOf(res), accountId), rpcOptions(res)),
    );
    if (!account) throw new AppError('not_found', { param: 'id' });
    res.json(toProviderAccountJson(account));
  });

  for (const [action, enabled] of [['enable', true], ['disable', false]] as const) {
    router.post(`/provider-accounts/:id/${action}`, ...guard, async (req, res) => {
      const accountId = accountIdOf(req);
      const { account } = await aboutPathId(() =>
        clients.providers.updateAccount(toSetEnabledRequest(callerOf(res), accountId, enabled), rpcOptions(res)),
      );
      if (!account) throw new AppError('not_found', { param: 'id' });
      res.json(toProviderAccountJson(account));
    });
  }

  return router;
}
