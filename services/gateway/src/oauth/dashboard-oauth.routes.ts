import { common, oauth } from '@orquestra/contracts';
import { AppError, type Logger } from '@orquestra/platform';
import express, { Router, type Response } from 'express';
import { z } from 'zod';
import type { OAuthClients } from './oauth.clients';

/** The signed-in owner as the dashboard API's session middleware leaves it (contract, issue 19). */
export interface DashboardOwner {
  owner_id: string;
  email: string;
  merchant_id: string;
  ip: string;
}

/** Reads `res.locals.owner` ({ id, email, merchant_id }) set by /dashboard/api's session middleware. */
export function ownerFromLocals(res: Response): DashboardOwner {
  const owner = (res.locals as { owner?: { id?: string; email?: string; merchant_id?: string } }).owner;
  const merchant = (res.locals as { merchant?: { id?: string } }).merchant;
  const merchantId = owner?.merchant_id ?? merchant?.id;
  if (!owner?.id || !merchantId) throw new AppError('unauthenticated');
  return { owner_id: owner.id, email: owner.email ?? '', merchant_id: merchantId, ip: res.req.ip ?? '' };
}

const registerAppSchema = z.object({
  name: z.string().trim().min(1).max(100),
  redirect_uris: z.array(z.string().min(1).max(2000)).min(1).max(10),
  logo_url: z.string().max(2000).optional().default(''),
});

const modeText = (mode: common.Mode) => (mode === common.Mode.MODE_LIVE ? 'live' : 'test');

function toAppBody(app: oauth.OAuthApp | undefined) {
  return app && { id: app.id, object: 'oauth_app', client_id: app.id, name: app.name, redirect_uris: app.redirect_uris, logo_url: app.logo_url || null, created_at: app.created_at };
}

/**
 * The dashboard's OAuth routes, relative to /dashboard/api, to be mounted AFTER its session and
 * CSRF middleware (which authenticate the owner; no API key ever reaches them):
 * - GET|POST /oauth/apps, DELETE /oauth/apps/:id — the apps this owner's platform registered
 *   (client_secret shown once, at creation);
 * - GET /oauth/authorizations, DELETE /oauth/authorizations/:id — the apps this merchant
 *   authorized; a revocation makes their tokens fail on the next request.
 * Every change is written to the owner's audit log.
 */
export function dashboardOAuthRoutes(deps: {
  clients: OAuthClients;
  logger: Logger;
  ownerOf?: (res: Response) => DashboardOwner;
}): Router {
  const router = Router();
  const ownerOf = deps.ownerOf ?? ownerFromLocals;
  const { store } = deps.clients;
  const opts = (res: Response) => ({ requestId: res.locals.requestId });
  const audit = async (res: Response, owner: DashboardOwner, action: string, target: string, mode = common.Mode.MODE_UNSPECIFIED) => {
    try {
      await deps.clients.owners.recordAudit({ merchant_id: owner.merchant_id, actor: { owner_id: owner.owner_id, email: owner.email, ip: owner.ip }, action, target, mode }, opts(res));
    } catch (error) {
      deps.logger.warn({ err: error, request_id: res.locals.requestId, action }, 'audit entry not recorded');
    }
  };

  router.get('/oauth/apps', async (_req, res) => {
    const owner = ownerOf(res);
    const { apps } = await store.listApps({ merchant_id: owner.merchant_id }, opts(res));
    res.json({ object: 'list', data: apps.map(toAppBody), has_more: false });
  });

  router.post('/oauth/apps', express.json({ limit: '16kb' }), async (req, res) => {
    const owner = ownerOf(res);
    const parsed = registerAppSchema.safeParse(req.body ?? {});
    if (!parsed.success) {
      const param = parsed.error.issues[0]?.path.join('.') || 'name';
      throw new AppError(param === 'name' && !req.body?.name ? 'parameter_missing' : 'parameter_invalid', { param });
    }
    const answer = await store.registerApp({ merchant_id: owner.merchant_id, ...parsed.data }, opts(res));
    await audit(res, owner, 'oauth_app.created', answer.app?.id ?? '');
    // The secret appears here once; it is stored sealed and never answered again.
    res.status(201).json({ ...toAppBody(answer.app), client_secret: answer.client_secret });
  });

  router.delete('/oauth/apps/:id', async (req, res) => {
    const owner = ownerOf(res);
    await store.deleteApp({ merchant_id: owner.merchant_id, app_id: String(req.params.id) }, opts(res));
    await audit(res, owner, 'oauth_app.deleted', String(req.params.id));
    res.json({ id: req.params.id, object: 'oauth_app', deleted: true });
  });

  router.get('/oauth/authorizations', async (_req, res) => {
    const owner = ownerOf(res);
    const { authorizations } = await store.listAuthorizations({ merchant_id: owner.merchant_id }, opts(res));
    res.json({
      object: 'list',
      has_more: false,
      data: authorizations.map((grant) => ({
        id: grant.id,
        object: 'oauth_authorization',
        app: { id: grant.app_id, name: grant.app_name, logo_url: grant.app_logo_url || null },
        mode: modeText(grant.mode),
        access: grant.access === oauth.AuthorizationAccess.AUTHORIZATION_ACCESS_FULL ? 'full' : 'restricted',
        created_at: grant.created_at,
      })),
    });
  });

  router.delete('/oauth/authorizations/:id', async (req, res) => {
    const owner = ownerOf(res);
    await store.revokeAuthorization({ merchant_id: owner.merchant_id, authorization_id: String(req.params.id) }, opts(res));
    await audit(res, owner, 'oauth_authorization.revoked', String(req.params.id));
    res.json({ id: req.params.id, object: 'oauth_authorization', revoked: true });
  });

  return router;
}
