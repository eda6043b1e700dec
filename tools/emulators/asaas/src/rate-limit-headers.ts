/**
 * The `RateLimit-*` headers Asaas puts on answers (docs.asaas.com "API Limits": RateLimit-Limit,
 * -Remaining and -Reset, the seconds until the window resets).
 */
import type { RequestHandler } from 'express';

const RATE_LIMIT = 100;
const WINDOW_SECONDS = 30;

/** Adds RateLimit-* headers to every answer; a 429 reports the window as spent. */
export function rateLimitHeaders(): RequestHandler {
  return (_req, res, next) => {
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
    res.writeHead = ((...args: unknown[]) => {
      if (!res.headersSent) {
        res.setHeader('RateLimit-Limit', String(RATE_LIMIT));
        const status = typeof args[0] === 'number' ? args[0] : res.statusCode;
        res.setHeader('RateLimit-Remaining', String(status === 429 ? 0 : RATE_LIMIT - 1));
        res.setHeader('RateLimit-Reset', String(WINDOW_SECONDS));
      }
      return writeHead(...args);
    }) as typeof res.writeHead;
    next();
  };
}
