import { Router } from 'express';
import { buildOpenApiDocument } from '../openapi/openapi.document';

/** GET /v1/openapi.json — public; built once, on first request. */
export function openApiRoutes(options: { serverUrl: string }): Router {
  const router = Router();
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  router.get('/v1/openapi.json', (_req, res) => {
    document ??= buildOpenApiDocument(options);
    res.setHeader('Cache-Control', 'public, max-age=300').json(document);
  });
  return router;
}
