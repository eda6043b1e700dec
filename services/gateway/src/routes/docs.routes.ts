import { createHash } from 'node:crypto';
import { Router } from 'express';
import { renderReferencePage } from '../docs/reference.page';
import { REFERENCE_CSS } from '../docs/reference.style';
import { buildOpenApiDocument } from '../openapi/openapi.document';

/**
 * The page allows exactly its own inline stylesheet (by hash) and nothing else: no scripts, no
 * requests to other origins, no framing.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(REFERENCE_CSS).digest('base64')}'`,
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** GET /docs — public: the API reference rendered from the OpenAPI document, built once on first request. */
export function docsRoutes(options: { serverUrl: string }): Router {
  const router = Router();
  let page: string | undefined;
  router.get('/docs', (_req, res) => {
    page ??= renderReferencePage(buildOpenApiDocument(options) as unknown as Record<string, unknown>);
    res
      .status(200)
      .setHeader('Content-Type', 'text/html; charset=utf-8')
      .setHeader('Content-Security-Policy', DOCS_CSP)
      .setHeader('X-Content-Type-Options', 'nosniff')
      .setHeader('Cache-Control', 'public, max-age=300')
      .send(page);
  });
  return router;
}
