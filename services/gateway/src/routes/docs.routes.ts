import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Router, type Response } from 'express';
import { DOCS_ASSETS, DOCS_CSP, INIT_SCRIPT, REFERENCE_PAGE, viewerBundlePath, type DocsAsset } from '../docs/api-reference';

const gzipAsync = promisify(gzip);

const secure = (res: Response) =>
  res
    .setHeader('Content-Security-Policy', DOCS_CSP)
    .setHeader('X-Content-Type-Options', 'nosniff')
    .setHeader('X-Frame-Options', 'DENY')
    .setHeader('Referrer-Policy', 'same-origin');

/**
 * GET /docs — public: the API reference (docs/api-reference.ts), and its two scripts at
 * /docs/assets/{file}. The page reads the document from /v1/openapi.json. The viewer's bundle
 * (4.4 MB) goes gzipped (1.3 MB) to browsers that accept it, compressed once, on first request.
 */
export function docsRoutes(): Router {
  const router = Router();
  let gzippedViewer: Promise<Buffer> | undefined;
  router.get('/docs', (_req, res) => {
    secure(res).status(200).setHeader('Content-Type', 'text/html; charset=utf-8').setHeader('Cache-Control', 'public, max-age=300').send(REFERENCE_PAGE);
  });
  router.get('/docs/assets/:file', async (req, res, next) => {
    const file = req.params.file as DocsAsset;
    if (!DOCS_ASSETS.includes(file)) return next();
    secure(res).setHeader('Content-Type', 'text/javascript; charset=utf-8').setHeader('Cache-Control', 'public, max-age=3600');
    if (file === 'init.js') return void res.status(200).send(INIT_SCRIPT);
    res.setHeader('Vary', 'Accept-Encoding');
    if (req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      try {
        gzippedViewer ??= readFile(viewerBundlePath()).then((bundle) => gzipAsync(bundle, { level: 9 }));
        return void res.status(200).setHeader('Content-Encoding', 'gzip').send(await gzippedViewer);
      } catch (error) {
        gzippedViewer = undefined;
        return next(error);
      }
    }
    res.sendFile(viewerBundlePath(), (error) => {
      if (error && !res.headersSent) next(error);
    });
  });
  return router;
}
