/** `Authorization: Bearer <access token>` on every API route, as Mercado Pago requires. */
import type { Request, RequestHandler, Response } from 'express';
import type { Account, EmulatorState } from './emulator-state';
import { mpErrors } from './mp-errors';

export function bearerToken(req: Request): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** 401 unless the token belongs to a registered account; leaves the account in `res.locals`. */
export function requireAccessToken(state: EmulatorState): RequestHandler {
  return (req, res, next) => {
    const token = bearerToken(req);
    if (!token) throw mpErrors.missingToken();
    const account = state.accountForToken(token);
    if (!account) throw mpErrors.invalidToken();
    res.locals['account'] = account;
    next();
  };
}

export function accountOf(res: Response): Account {
  return res.locals['account'] as Account;
}
