import express, { type RequestHandler } from 'express';

/** Largest JSON or webhook body accepted. */
export const BODY_LIMIT = '1mb';

/**
 * Parses the body as JSON whatever the Content-Type says: bots often forget the header (curl -d
 * sends form encoding), and a body that is not JSON still gets our clean `invalid_json` answer
 * from the error handler instead of being silently ignored. A request without a body leaves
 * `req.body` undefined.
 */
export function jsonBodyMiddleware(): RequestHandler {
  return express.json({ limit: BODY_LIMIT, strict: true, type: () => true });
}
