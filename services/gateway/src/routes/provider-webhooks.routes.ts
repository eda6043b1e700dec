import { AppError, isAppError } from '@orquestra/platform';
import express, { Router, type Request, type Response } from 'express';
import type { RouteContext } from '../http/app.deps';
import { httpErrorFor, toHttpError } from '../http/error-mapper';
import { BODY_LIMIT } from '../http/json-body.middleware';
import { rpcOptions } from '../http/request-context';
import { ProviderAccountIdSchema } from '../schemas/path-params.schema';

type QueryValue = string | string[] | undefined | Record<string, unknown> | unknown[];

/** Query values as plain strings; a repeated key becomes its values joined by commas. */
export function flattenQuery(query: Record<string, QueryValue>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    flat[key] = Array.isArray(value) ? value.map(String).join(',') : typeof value === 'string' ? value : JSON.stringify(value);
  }
  return flat;
}

/** Header names lower-cased (node already does) and multi-valued headers joined, as HTTP allows. */
export function flattenHeaders(headers: Request['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function contentTypeOf(body: string): string {
  const trimmed = body.trimStart();
  return trimmed.startsWith('{') || trimmed.startsWith('[') ? 'application/json' : 'text/plain; charset=utf-8';
}

/**
 * Provider webhooks — public (providers authenticate by their own means, checked by the providers
 * service): POST /webhooks/providers/{accountId}[/{subPath…}]. The raw body is passed on
 * untouched (signatures are over the exact bytes), and the providers service decides the answer.
 *
 * Efí posts to `<registered url>/pix`; our registered URL ends in `?hmac=<secret>&ignorar=`, so
 * "/pix" usually lands in the query, but a real sub-path is accepted too.
 *
 * Neither body nor query is ever logged: the query carries the account's webhook secret.
 * If the providers service cannot be reached, or fails on its side, the answer is 503 so the
 * provider retries later; its 4xx decisions (bad signature, unknown account) pass through.
 */
export function providerWebhookRoutes(context: RouteContext): Router {
  const router = Router();
  const rawBody = express.raw({ type: () => true, limit: BODY_LIMIT });

  const handle = async (req: Request, res: Response, subPath: string): Promise<void> => {
    const accountId = ProviderAccountIdSchema.safeParse(req.params['accountId']);
    if (!accountId.success) throw new AppError('route_not_found');
    let answer;
    try {
      answer = await context.clients.providers.handleWebhook(
        {
          account_id: accountId.data,
          sub_path: subPath,
          query: flattenQuery(req.query as Record<string, QueryValue>),
          headers: flattenHeaders(req.headers),
          body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        },
        rpcOptions(res),
      );
    } catch (error) {
      if (isAppError(error) && httpErrorFor(error.code).status < 500) {
        const { status, body } = toHttpError(error);
        res.status(status).json(body);
        return;
      }
      context.logger.warn(
        { request_id: res.locals.requestId, account_id: accountId.data, code: isAppError(error) ? error.code : 'internal' },
        'provider webhook not handed over; answering 503 so the provider retries',
      );
      throw new AppError('service_unavailable', { cause: error });
    }
    const status = Number.isInteger(answer.http_status) && answer.http_status >= 200 && answer.http_status <= 599 ? answer.http_status : 200;
    res.status(status);
    if (answer.body) res.setHeader('Content-Type', contentTypeOf(answer.body)).send(answer.body);
    else res.end();
  };

  router.post('/webhooks/providers/:accountId', rawBody, (req, res) => handle(req, res, ''));
  router.post('/webhooks/providers/:accountId/*subPath', rawBody, (req, res) => {
    const segments = req.params['subPath'] as unknown as string[] | string;
    return handle(req, res, `/${Array.isArray(segments) ? segments.join('/') : segments}`);
  });
  return router;
}
