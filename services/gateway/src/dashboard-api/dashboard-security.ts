import { AppError } from '@orquestra/platform';
import type { Request, RequestHandler } from 'express';
import { doubleCsrf } from 'csrf-csrf';
import helmet from 'helmet';
import { cookieSecurity, csrfSecretOf } from './owner-session';

/** The CSRF cookie (double-submit: its value's HMAC pairs with the X-CSRF-Token header). */
export const CSRF_COOKIE = 'orq_csrf';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Headers of every /dashboard/api answer (helmet): JSON only, never framed, never sniffed, never
 * cached, no referrer leaves, HSTS where served over https.
 */
export function dashboardHeaders(): RequestHandler[] {
  return [
    helmet({ contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } } }),
    (_req, res, next) => {
      res.setHeader('Cache-Control', 'no-store');
      next();
    },
  ];
}

/** No API key ever reaches owner routes (§5: keys are the merchant's code's; the owner signs in). */
export function refuseApiKeys(): RequestHandler {
  return (req, _res, next) => {
    if (req.get('authorization') !== undefined) {
      throw new AppError('unauthenticated', {
        message: 'O painel não aceita chaves de API nem tokens (cabeçalho Authorization). Entre com e-mail e senha.',
        param: 'Authorization',
      });
    }
    next();
  };
}

/**
 * CSRF by csrf-csrf's double-submit cookie, bound to the session: the token is an HMAC of the
 * session id under a secret derived from the session token, so it is worthless in another
 * session, and a cross-site form cannot read the cookie to copy it into X-CSRF-Token.
 */
export function dashboardCsrf(): { issue: (req: Request, res: Parameters<RequestHandler>[1]) => string; protect: RequestHandler } {
  const sessionIds = (req: Request): string => req.res?.locals.sessionId ?? '';
  const { generateCsrfToken, validateRequest } = doubleCsrf({
    getSecret: (req) => (req ? csrfSecretOf(req) : ''),
    getSessionIdentifier: sessionIds,
    cookieName: CSRF_COOKIE,
    cookieOptions: { sameSite: 'lax', path: '/', httpOnly: true, secure: true },
    getCsrfTokenFromRequest: (req) => req.get('x-csrf-token'),
  });
  return {
    issue: (req, res) => generateCsrfToken(req, res, { cookieOptions: { sameSite: 'lax', path: '/', httpOnly: true, ...cookieSecurity(req) } }),
    protect: (req, _res, next) => {
      if (SAFE_METHODS.has(req.method)) return next();
      if (!sessionIds(req) || !validateRequest(req)) throw new AppError('csrf_invalid', { param: 'X-CSRF-Token' });
      next();
    },
  };
}
