/**
 * Asaas's authentication: the account's API key in the `access_token` header of every request,
 * plus a mandatory `User-Agent` (docs.asaas.com "Autenticação"). A key that is unknown, or a
 * production key (`$aact_prod_…`) sent to this sandbox, is answered 401.
 */
import type { Request, RequestHandler, Response } from 'express';
import { asaasErrors } from './asaas-errors';
import { accountIdFor } from './asaas-ids';
import type { Account, EmulatorState } from './emulator-state';

const PRODUCTION_KEY_PREFIX = '$aact_prod_';

function apiKeyOf(req: Request): string | undefined {
  const header = req.headers['access_token'];
  return typeof header === 'string' && header.length > 0 ? header : undefined;
}

/** Who is calling, without failing the request (used to pick faults): the account id of the key. */
export function identifyCaller(req: Request): string | undefined {
  const apiKey = apiKeyOf(req);
  return apiKey ? accountIdFor(apiKey) : undefined;
}

export function accountOf(res: Response): Account {
  return res.locals['account'] as Account;
}

/** 401 unless the request carries a registered sandbox key and a User-Agent; leaves the account in `res.locals`. */
export function requireAccessToken(state: EmulatorState): RequestHandler {
  return (req, res, next) => {
    const apiKey = apiKeyOf(req);
    if (!apiKey) throw asaasErrors.invalidAccessToken();
    if (apiKey.startsWith(PRODUCTION_KEY_PREFIX)) throw asaasErrors.wrongEnvironment();
    const account = state.accountByKey(apiKey);
    if (!account) throw asaasErrors.invalidAccessToken();
    if (!req.headers['user-agent']) throw asaasErrors.missingUserAgent();
    res.locals['account'] = account;
    next();
  };
}
