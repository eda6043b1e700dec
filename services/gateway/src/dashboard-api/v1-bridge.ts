import type { Logger } from '@orquestra/platform';
import type { Request, RequestHandler, Response } from 'express';
import type { DownstreamClients } from '../grpc/downstream.clients';
import { rpcOptions } from '../http/request-context';
import { dashboardMode } from './dashboard-mode';
import { actorOf, ownerOf } from './owner-session';

/**
 * The caller of /dashboard/api/v1/*: the owner's merchant and the chosen mode, with a full key's
 * rights (the owner may do anything a full key may), recorded as key `owner:<owner id>` on what it
 * creates (a payment's source, an event's source).
 */
export function ownerCaller(): RequestHandler {
  return (req, res, next) => {
    const owner = ownerOf(res);
    res.locals.caller = { merchant_id: owner.merchant_id, mode: dashboardMode(req), key_id: `owner:${owner.id}`, restricted: false, request_id: res.locals.requestId };
    // `?mode=` chose the mode; the /v1 route's own query validation must not see it.
    const queryAt = req.url.indexOf('?');
    if (queryAt >= 0) {
      const query = new URLSearchParams(req.url.slice(queryAt + 1));
      if (query.has('mode')) {
        query.delete('mode');
        const rest = query.toString();
        req.url = `${req.url.slice(0, queryAt)}${rest ? `?${rest}` : ''}`;
      }
    }
    next();
  };
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every mutating /dashboard/api/v1 call goes to the audit log when it has been answered (answered
 * refusals too: an attempt is an action), with its method, path and status. Recorded after the
 * answer so the log never waits on the store; a failure to record is logged, never hidden.
 */
export function auditMutations(clients: Pick<DownstreamClients, 'owners'>, logger: Logger): RequestHandler {
  return (req: Request, res: Response, next) => {
    if (READS.has(req.method)) return next();
    const actor = actorOf(req, res);
    const merchant_id = ownerOf(res).merchant_id;
    const target = `${req.method} /v1${req.path}`;
    res.on('finish', () => {
      const mode = res.locals.caller?.mode ?? dashboardMode(req);
      clients.owners
        .recordAudit({ merchant_id, actor, action: 'api.request', target: `${target} → ${res.statusCode}`, mode }, rpcOptions(res))
        .catch((error: Error) => logger.warn({ request_id: res.locals.requestId, err: error.message, target }, 'dashboard action not audited'));
    });
    next();
  };
}
