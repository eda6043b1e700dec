import { AppError, isAppError, type Logger } from '@orquestra/platform';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { appErrorFromBodyParser } from './body-parser-errors';
import { toHttpError } from './error-mapper';

/** Unknown route or method → 404 `route_not_found` in the spec's error body. */
export function notFoundHandler(): RequestHandler {
  return (_req, _res, next) => next(new AppError('route_not_found'));
}

/**
 * Last middleware: every failure leaves as the spec's error body. Expected failures (AppError,
 * including RpcError from downstream calls) keep their code; anything else is a bug, logged with
 * its stack here and answered as `internal` without any of its text.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      // Too late for a clean body: let express close the connection.
      next(error);
      return;
    }
    const appError = isAppError(error) ? error : appErrorFromBodyParser(error);
    const log = logger.child({ request_id: res.locals.requestId, method: req.method });
    if (!appError) {
      log.error({ err: error }, 'unhandled error');
    } else if (appError.code === 'internal' || appError.code === 'service_unavailable') {
      // One line, no stack: the downstream logged its own; an outage must not flood the log.
      const cause = appError.cause instanceof Error ? appError.cause.message : undefined;
      log.warn({ code: appError.code, cause }, 'downstream failure');
    }
    const { status, body } = toHttpError(appError ?? new AppError('internal'));
    if (appError?.retryAfterSeconds !== undefined && (status === 429 || status === 503)) res.setHeader('Retry-After', String(Math.ceil(appError.retryAfterSeconds)));
    res.status(status).setHeader('Cache-Control', 'no-store').json(body);
  };
}
