import type { Logger } from '@orquestra/platform';
import type { RequestHandler } from 'express';

/**
 * One line per finished request. Only the path is logged, never the query string (provider
 * webhooks carry their secret there) nor any header or body.
 */
export function accessLogMiddleware(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // Read now: routers mounted on a prefix rewrite req.url while they run.
    const path = req.path;
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          request_id: res.locals.requestId,
          method: req.method,
          path,
          status: res.statusCode,
          duration_ms: Math.round(durationMs * 10) / 10,
          merchant_id: res.locals.caller?.merchant_id,
          key_id: res.locals.caller?.key_id,
        },
        'request',
      );
    });
    next();
  };
}
