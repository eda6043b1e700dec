import { common } from '@orquestra/contracts';
import { AppError, type Logger } from '@orquestra/platform';
import express, { Router, type Request, type Response } from 'express';
import type Provider from 'oidc-provider';
import { renderConsentPage, renderOAuthErrorPage, renderSignInFirstPage } from './consent.page';
import type { OAuthClients } from './oauth.clients';
import { oauthErrorMessage } from './oauth-provider.config';
import { grantedScope, offeredChoices, type OAuthAccess, type OAuthMode } from './oauth.scopes';

/** The owner session cookie set by /dashboard/api (docs/dashboard.md). */
export const OWNER_SESSION_COOKIE = 'orq_session';

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

interface OwnerOfRequest {
  ownerId: string;
  merchantId: string;
  merchantName: string;
  ownerEmail: string;
}

/**
 * The /oauth mount: the consent page (GET /interaction/:uid, POST …/confirm and …/abort) and,
 * behind it, oidc-provider itself (/auth, /token, /token/revocation, /jwks, discovery).
 * The consent page acts for the merchant whose owner is signed in to the dashboard (cookie
 * `orq_session`, checked by accounts on every step); without a session it asks to sign in first.
 */
export function oauthRoutes(deps: {
  provider: Provider;
  clients: OAuthClients;
  logger: Logger;
  /** Where the owner signs in (the dashboard). */
  signInUrl: string;
  mountPath: string;
}): Router {
  const { provider, clients, logger } = deps;
  const router = Router();
  const html = (res: Response, status: number, body: string) =>
    res.status(status).set({ 'Cache-Control': 'no-store', 'Content-Type': 'text/html; charset=utf-8', 'X-Frame-Options': 'DENY' }).send(body);

  async function ownerOf(req: Request, res: Response): Promise<OwnerOfRequest | undefined> {
    const token = cookieValue(req.get('cookie'), OWNER_SESSION_COOKIE);
    if (!token) return undefined;
    try {
      const answer = await clients.owners.authenticateSession({ token }, { requestId: res.locals.requestId });
      if (!answer.owner || !answer.merchant) return undefined;
      return { ownerId: answer.owner.id, merchantId: answer.merchant.id, merchantName: answer.merchant.name, ownerEmail: answer.owner.email };
    } catch (error) {
      if (error instanceof AppError && error.code === 'unauthenticated') return undefined;
      throw error;
    }
  }

  /** A cross-site form post never reaches here with our Lax cookies; the Origin check is a second lock. */
  function sameOrigin(req: Request): boolean {
    const origin = req.get('origin');
    return !origin || origin === `${req.protocol}://${req.get('host')}`;
  }

  async function withInteraction(req: Request, res: Response, step: (details: Awaited<ReturnType<Provider['interactionDetails']>>) => Promise<void>) {
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      html(res, 400, renderOAuthErrorPage(oauthErrorMessage('session_not_found')));
      return;
    }
    if (details.uid !== req.params.uid) {
      html(res, 400, renderOAuthErrorPage(oauthErrorMessage('session_not_found')));
      return;
    }
    await step(details);
  }

  router.get('/interaction/:uid', async (req, res) => {
    await withInteraction(req, res, async (details) => {
      const owner = await ownerOf(req, res);
      if (!owner) {
        const back = `${deps.mountPath}/interaction/${encodeURIComponent(details.uid)}`;
        html(res, 401, renderSignInFirstPage(`${deps.signInUrl}?next=${encodeURIComponent(back)}`));
        return;
      }
      const client = await provider.Client.find(String(details.params.client_id ?? ''));
      const offered = offeredChoices(typeof details.params.scope === 'string' ? details.params.scope : undefined);
      if (!client || offered.accesses.length === 0 || offered.modes.length === 0) {
        await provider.interactionFinished(req, res, {
          error: client ? 'invalid_scope' : 'invalid_client',
          error_description: 'scope must name payments:full or payments:restricted and mode:test or mode:live',
        }, { mergeWithLastSubmission: false });
        return;
      }
      html(res, 200, renderConsentPage({
        uid: details.uid,
        action: `${deps.mountPath}/interaction/${encodeURIComponent(details.uid)}`,
        appName: String(client.clientName ?? client.clientId),
        logoUrl: typeof client.logoUri === 'string' ? client.logoUri : undefined,
        merchantName: owner.merchantName,
        ownerEmail: owner.ownerEmail,
        accesses: offered.accesses,
        modes: offered.modes,
      }));
    });
  });

  const form = express.urlencoded({ extended: false, limit: '4kb' });

  router.post('/interaction/:uid/confirm', form, async (req, res) => {
    if (!sameOrigin(req)) {
      html(res, 403, renderOAuthErrorPage('Pedido de outra origem recusado.'));
      return;
    }
    await withInteraction(req, res, async (details) => {
      const owner = await ownerOf(req, res);
      if (!owner) {
        html(res, 401, renderSignInFirstPage(deps.signInUrl));
        return;
      }
      const offered = offeredChoices(typeof details.params.scope === 'string' ? details.params.scope : undefined);
      const body = (req.body ?? {}) as Record<string, unknown>;
      const access = offered.accesses.find((value) => value === body.access) as OAuthAccess | undefined;
      const mode = offered.modes.find((value) => value === body.mode) as OAuthMode | undefined;
      if (!access || !mode) {
        html(res, 400, renderOAuthErrorPage('Escolha o ambiente e o nível de acesso entre as opções oferecidas.'));
        return;
      }
      const grant = new provider.Grant({ accountId: owner.merchantId, clientId: String(details.params.client_id) });
      const granted = grantedScope(access, mode);
      grant.addOIDCScope(granted);
      // What was asked but not chosen is rejected explicitly, or the library would ask again.
      const rejected = String(details.params.scope ?? '').split(' ').filter((scope) => scope && !granted.split(' ').includes(scope));
      if (rejected.length > 0) grant.rejectOIDCScope(rejected.join(' '));
      const grantId = await grant.save();
      logger.info({ request_id: res.locals.requestId, merchant_id: owner.merchantId, client_id: details.params.client_id, mode, access }, 'oauth app authorized');
      await clients.owners
        .recordAudit(
          {
            merchant_id: owner.merchantId,
            actor: { owner_id: owner.ownerId, email: owner.ownerEmail, ip: req.ip ?? '' },
            action: 'oauth_authorization.created',
            target: `${String(details.params.client_id)} ${access} (${grantId})`,
            mode: mode === 'live' ? common.Mode.MODE_LIVE : common.Mode.MODE_TEST,
          },
          { requestId: res.locals.requestId },
        )
        .catch((error: unknown) => logger.warn({ err: error, request_id: res.locals.requestId }, 'audit entry not recorded'));
      await provider.interactionFinished(req, res, { login: { accountId: owner.merchantId, remember: false }, consent: { grantId } }, { mergeWithLastSubmission: false });
    });
  });

  router.post('/interaction/:uid/abort', form, async (req, res) => {
    if (!sameOrigin(req)) {
      html(res, 403, renderOAuthErrorPage('Pedido de outra origem recusado.'));
      return;
    }
    await withInteraction(req, res, async () => {
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the merchant refused the authorization' }, { mergeWithLastSubmission: false });
    });
  });

  // Everything else under the mount is the library's (authorization, token, revocation, jwks, discovery).
  router.use(provider.callback());
  return router;
}
