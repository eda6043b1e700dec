import { owners } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import { Router, type Response } from 'express';
import type { DownstreamClients } from '../grpc/downstream.clients';
import { clientIp } from '../http/client-ip';
import { toHttpError } from '../http/error-mapper';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { rpcOptions } from '../http/request-context';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { DASHBOARD_FIELD_HINTS, SignInBodySchema, SignUpBodySchema, TotpCodeBodySchema } from './dashboard.schemas';
import { actorOf, ownerOf, SESSION_COOKIE, sessionCookieOptions, sessionTokenOf, toOwnerJson } from './owner-session';

type Clients = Pick<DownstreamClients, 'owners'>;

/** Answers an error with a status of its own (the catalogue's status for the code is an API key's). */
function refuse(res: Response, status: number, error: AppError): void {
  const { body } = toHttpError(error);
  res.status(status).json({ error: { ...body.error, type: status === 429 ? 'rate_limit_error' : 'authentication_error' } });
}

/** POST /signup and POST /session: the only dashboard routes without a session (and without CSRF). */
export function signInRoutes(clients: Clients): Router {
  const router = Router();

  router.post('/signup', jsonBodyMiddleware(), async (req, res) => {
    const body = parseOrThrow(SignUpBodySchema, req.body, 'body', DASHBOARD_FIELD_HINTS);
    const up = await clients.owners.signUp({ ...body, ip: clientIp(req) }, rpcOptions(res));
    res.cookie(SESSION_COOKIE, up.session?.token ?? '', sessionCookieOptions(req, up.session?.expires_at));
    res.status(201).json({ owner: toOwnerJson(up.owner), merchant: { id: up.merchant?.id ?? '', name: up.merchant?.name ?? '' } });
  });

  router.post('/session', jsonBodyMiddleware(), async (req, res) => {
    const body = parseOrThrow(SignInBodySchema, req.body, 'body', DASHBOARD_FIELD_HINTS);
    const answer = await clients.owners.signIn({ email: body.email, password: body.password, totp_code: body.totp_code ?? '', ip: clientIp(req) }, rpcOptions(res));
    switch (answer.outcome) {
      case owners.SignInOutcome.SIGN_IN_OUTCOME_SIGNED_IN:
        res.cookie(SESSION_COOKIE, answer.session?.token ?? '', sessionCookieOptions(req, answer.session?.expires_at));
        res.json({ owner: toOwnerJson(answer.owner), merchant: { id: answer.merchant?.id ?? '', name: answer.merchant?.name ?? '' } });
        return;
      case owners.SignInOutcome.SIGN_IN_OUTCOME_TOTP_REQUIRED:
        refuse(res, 401, new AppError('totp_required', { param: 'totp_code' }));
        return;
      case owners.SignInOutcome.SIGN_IN_OUTCOME_RATE_LIMITED:
        res.setHeader('Retry-After', String(answer.retry_after_seconds));
        refuse(res, 429, new AppError('rate_limited', { message: `Muitas tentativas de entrar. Aguarde ${Math.ceil(answer.retry_after_seconds / 60)} minuto(s) e tente novamente.` }));
        return;
      default:
        refuse(res, 401, new AppError('invalid_credentials', { param: 'email', message: 'E-mail ou senha incorretos. Confira e tente novamente.' }));
    }
  });
  return router;
}

/** The signed-in owner's own routes: me, sign-out (here and everywhere), TOTP. */
export function ownerRoutes(clients: Clients, csrfToken: (req: Parameters<Parameters<Router['get']>[1]>[0], res: Response) => string): Router {
  const router = Router();

  router.get('/me', (req, res) => {
    const owner = ownerOf(res);
    res.json({ owner: { id: owner.id, email: owner.email, totp_enabled: owner.totp_enabled }, merchant: res.locals.merchant, csrf_token: csrfToken(req, res) });
  });

  router.delete('/session', async (req, res) => {
    await clients.owners.signOut({ token: sessionTokenOf(req), ip: clientIp(req) }, rpcOptions(res));
    res.clearCookie(SESSION_COOKIE, sessionCookieOptions(req)).status(204).end();
  });

  router.post('/sessions/revoke-all', async (req, res) => {
    await clients.owners.revokeAllSessions({ actor: actorOf(req, res) }, rpcOptions(res));
    res.clearCookie(SESSION_COOKIE, sessionCookieOptions(req)).status(204).end();
  });

  router.post('/totp/setup', async (req, res) => {
    const setup = await clients.owners.setupTotp({ actor: actorOf(req, res) }, rpcOptions(res));
    res.json({ secret: setup.secret, otpauth_url: setup.otpauth_url });
  });

  for (const action of ['enable', 'disable'] as const) {
    router.post(`/totp/${action}`, jsonBodyMiddleware(), async (req, res) => {
      const { code } = parseOrThrow(TotpCodeBodySchema, req.body, 'body', DASHBOARD_FIELD_HINTS);
      const request = { actor: actorOf(req, res), code };
      const answer = action === 'enable' ? await clients.owners.enableTotp(request, rpcOptions(res)) : await clients.owners.disableTotp(request, rpcOptions(res));
      res.json({ owner: toOwnerJson(answer.owner) });
    });
  }
  return router;
}
