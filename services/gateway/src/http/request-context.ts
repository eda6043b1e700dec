import type { common } from '@orquestra/contracts';
import { AppError, type CallOptions } from '@orquestra/platform';
import type { Response } from 'express';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** Set by the request-id middleware on every request. */
      requestId: string;
      /** Set by the auth middleware on authenticated routes only. */
      caller?: common.Caller;
    }
  }
}

/** The authenticated caller; a route that reads it without the auth middleware is a bug. */
export function callerOf(res: Response): common.Caller {
  const caller = res.locals.caller;
  if (!caller) throw new AppError('internal', { message: 'caller missing: route mounted without authentication' });
  return caller;
}

/** Options every downstream call of this request carries. */
export function rpcOptions(res: Response, deadlineMs?: number): CallOptions {
  return deadlineMs === undefined ? { requestId: res.locals.requestId } : { requestId: res.locals.requestId, deadlineMs };
}
