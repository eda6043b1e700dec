/**
 * Pagar.me v5 authentication: HTTP Basic with the account's secret key as the user name and an
 * empty password (`sk_test_…:`). The key alone decides the account and its mode.
 */
import type { Request, RequestHandler } from 'express';
import type { EmulatorState } from './emulator-state';
import { accountIdFor } from './pagarme-ids';
import { pagarmeErrors } from './pagarme-errors';

export function secretKeyOf(req: Request): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  // `key:` is the documented form; a bare key (no colon) is accepted as well.
  const key = decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : decoded;
  return key.length > 0 ? key : undefined;
}

/** Which account is calling, without failing the request (used to pick faults). */
export function identifyCaller(req: Request): string | undefined {
  const key = secretKeyOf(req);
  return key ? accountIdFor(key) : undefined;
}

/** 401 unless the request carries a registered secret key; leaves the account id in `res.locals`. */
export function requireSecretKey(state: EmulatorState): RequestHandler {
  return (req, res, next) => {
    const key = secretKeyOf(req);
    const account = key ? state.authenticate(key) : undefined;
    if (!account) {
      res.setHeader('WWW-Authenticate', 'Basic realm="api.pagar.me"');
      throw pagarmeErrors.unauthorized();
    }
    res.locals['accountId'] = account.id;
    next();
  };
}
