import { newId } from '@orquestra/platform';
import type { RequestHandler } from 'express';

/** A client-sent id is kept only if it is short and plain, so it can never inject into logs. */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id: the client's `X-Request-Id` when usable, else a new `req_…`.
 * It is echoed in the response and passed to every downstream call and log line.
 */
export function requestIdMiddleware(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && ACCEPTED_REQUEST_ID.test(incoming) ? incoming : newId('request');
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    next();
  };
}
