/**
 * Woovi authenticates every API call by the AppID in `Authorization`, sent as is (no `Bearer`).
 * The caller's account id is left in `res.locals.accountId` for the routes.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { EmulatorState } from './emulator-state';
import { accountIdFor } from './woovi-ids';
import { wooviErrors } from './woovi-errors';

function appIdOf(req: Request): string | undefined {
  const value = req.get('authorization')?.trim();
  return value ? value : undefined;
}

/** The account a request claims to be, for fault scoping (before, and regardless of, authentication). */
export function identifyCaller(req: Request): string | undefined {
  const appId = appIdOf(req);
  return appId ? accountIdFor(appId) : undefined;
}

export function requireAppId(state: EmulatorState): RequestHandler {
  return (req, res, next) => {
    const appId = appIdOf(req);
    const accountId = appId ? state.authenticate(appId) : undefined;
    if (!accountId) throw wooviErrors.invalidAppId();
    res.locals['accountId'] = accountId;
    next();
  };
}

export function accountOf(res: Response): string {
  return res.locals['accountId'] as string;
}
