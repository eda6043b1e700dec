import { createHmac } from 'node:crypto';
import type { owners } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import type { DownstreamClients } from '../grpc/downstream.clients';
import { clientIp } from '../http/client-ip';
import { rpcOptions } from '../http/request-context';

/** The owner's session cookie (HttpOnly: scripts never read it). */
export const SESSION_COOKIE = 'orq_session';

/** The owner behind a /dashboard/api request, set by `requireOwnerSession`. */
export interface DashboardOwner {
  id: string;
  email: string;
  merchant_id: string;
  totp_enabled: boolean;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** Set on /dashboard/api routes behind a session (also read by the OAuth dashboard routes). */
      owner?: DashboardOwner;
      merchant?: { id: string; name: string };
      /** The session's stable id (SHA-256 of its token): CSRF tokens are bound to it. */
      sessionId?: string;
    }
  }
}

/**
 * Secure unless the request is plain http on this machine (`npm start` serves http://localhost,
 * where browsers keep Secure cookies anyway but test clients may not).
 */
export function cookieSecurity(req: Request): { secure: boolean } {
  const local = ['localhost', '127.0.0.1', '::1', '[::1]'].includes(req.hostname);
  return { secure: !(req.protocol === 'http' && local) };
}

export function sessionCookieOptions(req: Request, expiresAt?: string): CookieOptions {
  const options: CookieOptions = { httpOnly: true, sameSite: 'lax', path: '/', ...cookieSecurity(req) };
  if (expiresAt) options.expires = new Date(expiresAt);
  return options;
}

export function sessionTokenOf(req: Request): string {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
  return typeof value === 'string' ? value : '';
}

/**
 * The CSRF secret of a session, derived from its token (which only the cookie holds): a forged
 * request from another site cannot compute it, and the gateway's replicas agree on it without a
 * shared secret of their own.
 */
export function csrfSecretOf(req: Request): string {
  return createHmac('sha256', sessionTokenOf(req)).update('orquestra dashboard csrf').digest('hex');
}

export function ownerOf(res: Response): DashboardOwner {
  const owner = res.locals.owner;
  if (!owner) throw new AppError('internal', { message: 'owner missing: dashboard route mounted without a session' });
  return owner;
}

/** Who did it, from where: every audited owner action carries it. */
export function actorOf(req: Request, res: Response): { owner_id: string; email: string; ip: string } {
  const owner = ownerOf(res);
  return { owner_id: owner.id, email: owner.email, ip: clientIp(req) };
}

export function toOwnerJson(owner: owners.Owner | undefined): { id: string; email: string; totp_enabled: boolean } {
  return { id: owner?.id ?? '', email: owner?.email ?? '', totp_enabled: owner?.totp_enabled ?? false };
}

/** The session cookie must name a live session: its owner and merchant land in `res.locals`. */
export function requireOwnerSession(clients: Pick<DownstreamClients, 'owners'>): RequestHandler {
  return async (req, res, next) => {
    const token = sessionTokenOf(req);
    if (!token) throw new AppError('unauthenticated', { message: 'Entre no painel para continuar (sessão ausente).' });
    const session = await clients.owners.authenticateSession({ token }, rpcOptions(res));
    if (!session.owner || !session.merchant) throw new AppError('unauthenticated');
    res.locals.owner = { id: session.owner.id, email: session.owner.email, merchant_id: session.owner.merchant_id, totp_enabled: session.owner.totp_enabled };
    res.locals.merchant = { id: session.merchant.id, name: session.merchant.name };
    res.locals.sessionId = session.session_id;
    next();
  };
}
