import { AppError } from '@orquestra/platform';
import type { RequestHandler } from 'express';
import type { ApiKeyResolver } from '../auth/api-key.resolver';
import type { AccessTokenResolver } from '../oauth/access-token.resolver';

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;

/** API keys carry the `svc_` prefix (§5.2); any other bearer value is an OAuth access token. */
const API_KEY_PREFIX = 'svc_';

/**
 * Authenticates `Authorization: Bearer <key>` (§5) and sets `res.locals.caller`, which every
 * downstream call carries. Missing, malformed, unknown or revoked keys → 401 `unauthenticated`.
 * With `accessTokens`, a bearer value without the key prefix is an OAuth app's access token
 * (docs/oauth.md), acting exactly as a key of its grant's kind and mode.
 */
export function authMiddleware(resolver: ApiKeyResolver, accessTokens?: AccessTokenResolver): RequestHandler {
  return async (req, res, next) => {
    const match = BEARER.exec(req.get('authorization') ?? '');
    if (!match?.[1]) throw new AppError('unauthenticated');
    const identity = accessTokens && !match[1].startsWith(API_KEY_PREFIX)
      ? await accessTokens.resolve(match[1])
      : await resolver.resolve(match[1], res.locals.requestId);
    res.locals.caller = {
      merchant_id: identity.merchant_id,
      mode: identity.mode,
      key_id: identity.key_id,
      restricted: identity.restricted,
      request_id: res.locals.requestId,
    };
    next();
  };
}

/**
 * Restricted keys (§5.4) may only create, list and read payments; every route not marked as
 * allowed for them mounts this guard → 403 `restricted_key`.
 */
export function requireFullKey(): RequestHandler {
  return (_req, res, next) => {
    if (res.locals.caller?.restricted !== false) throw new AppError('restricted_key');
    next();
  };
}
