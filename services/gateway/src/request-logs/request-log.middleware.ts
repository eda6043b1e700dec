import { newId } from '@orquestra/platform';
import type { RequestHandler } from 'express';
import type { RequestLogRecorder } from './request-log.recorder';

/** The log's own reads are not logged: `orq logs tail --follow` would otherwise fill it with itself. */
const NOT_LOGGED = new Set(['/v1/request-logs']);

const API_KEY = /^Bearer[ ]+(svc_\S+)/i;

/**
 * One request-log entry per answered call of the public API (/v1) made with a key or an OAuth
 * token: method, path (never the query string), status, request id, duration, key id and the
 * key's last 4 characters. Calls that never authenticated (401) have no merchant and are not kept;
 * nor are the owner's dashboard calls (/dashboard/api), which the audit log covers.
 */
export function requestLogMiddleware(recorder: RequestLogRecorder): RequestHandler {
  return (req, res, next) => {
    // req.path now: routers mounted on a prefix rewrite req.url while they run.
    const path = req.path;
    if (!path.startsWith('/v1/') || NOT_LOGGED.has(path)) {
      next();
      return;
    }
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const caller = res.locals.caller;
      if (!caller?.merchant_id) return;
      const now = Date.now();
      const key = API_KEY.exec(req.get('authorization') ?? '')?.[1];
      recorder.add({
        id: newId('requestLog', now),
        merchant_id: caller.merchant_id,
        mode: caller.mode,
        key_id: caller.key_id,
        key_last4: key ? key.slice(-4) : '',
        method: req.method,
        path: path.slice(0, 500),
        status: res.statusCode,
        request_id: res.locals.requestId,
        duration_ms: Math.round((Number(process.hrtime.bigint() - started) / 1e6) * 10) / 10,
        created_at: new Date(now).toISOString(),
      });
    });
    next();
  };
}
