/**
 * `POST /oauth/token` (client_credentials with HTTP Basic, as Efí's Pix API does) and the Bearer
 * check every `/v2` route sits behind.
 */
import { Router, type Request, type RequestHandler } from 'express';
import type { EmulatorState } from './emulator-state';
import { pixErrors } from './pix-errors';

export function parseBasicAuth(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
}

function bearerToken(req: Request): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** Who is calling, when it can be told without failing the request (used to pick faults). */
export function identifyCaller(state: EmulatorState, req: Request): string | undefined {
  if (req.path === '/oauth/token') return parseBasicAuth(req.headers.authorization)?.clientId;
  const token = bearerToken(req);
  return token ? state.clientForToken(token) : undefined;
}

export function oauthRoutes(state: EmulatorState): Router {
  const router = Router();
  router.post('/oauth/token', (req, res) => {
    const grantType = (req.body as { grant_type?: unknown } | undefined)?.grant_type;
    if (grantType !== 'client_credentials') throw pixErrors.unsupportedGrantType();
    const basic = parseBasicAuth(req.headers.authorization);
    if (!basic || !state.authenticate(basic.clientId, basic.clientSecret)) throw pixErrors.invalidClient();
    res.status(200).json(state.issueToken(basic.clientId));
  });
  return router;
}

/** 401 unless the request carries a live token; puts the caller's client id in `res.locals`. */
export function requireBearer(state: EmulatorState): RequestHandler {
  return (req, res, next) => {
    const token = bearerToken(req);
    const clientId = token ? state.clientForToken(token) : undefined;
    if (!clientId) {
      res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
      throw pixErrors.invalidToken();
    }
    res.locals['clientId'] = clientId;
    next();
  };
}
