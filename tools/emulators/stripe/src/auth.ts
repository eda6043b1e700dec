/**
 * Stripe's authentication: the secret key as a Bearer token (`Authorization: Bearer sk_test_…`) or
 * as the HTTP Basic user name with an empty password (`curl -u sk_test_…:`). A missing key or one
 * the emulator does not know is a 401 `invalid_request_error`.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Account, EmulatorState } from './emulator-state';
import { stripeErrors } from './stripe-errors';

export function apiKeyOf(req: Request): string | undefined {
  const header = req.headers.authorization ?? '';
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (bearer) return bearer;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)?.[1];
  if (!basic) return undefined;
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const user = decoded.slice(0, decoded.includes(':') ? decoded.indexOf(':') : undefined);
  return user || undefined;
}

/** The caller's account id when it can be told without failing the request (used to pick faults). */
export function identifyCaller(state: EmulatorState, req: Request): string | undefined {
  const key = apiKeyOf(req);
  return key ? state.accountForKey(key)?.id : undefined;
}

export function requireAccount(state: EmulatorState): RequestHandler {
  return (req, res, next) => {
    const key = apiKeyOf(req);
    if (!key) throw stripeErrors.missingApiKey();
    const account = state.accountForKey(key);
    if (!account) throw stripeErrors.invalidApiKey(key);
    res.locals['account'] = account;
    next();
  };
}

export function accountOf(res: Response): Account {
  return res.locals['account'] as Account;
}
