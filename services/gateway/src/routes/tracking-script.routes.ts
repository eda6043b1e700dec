import { Router } from 'express';
import type { RouteContext } from '../http/app.deps';
import { trackingScript } from '../tracking-script/tracking.script';

/**
 * GET /v1/tracking.js (public, no key): the merchant-site script of spec §4 that keeps the
 * landing's UTMs and click ids and carries them to payment links. Built once with the platform's
 * own payment base (PAY_BASE_URL) as a payment host.
 */
export function trackingScriptRoutes(context: RouteContext): Router {
  const { settings } = context;
  const router = Router();
  const script = trackingScript(settings.payBaseUrl ?? `${settings.publicBaseUrl}/pay`);

  router.get('/v1/tracking.js', (_req, res) => {
    res
      .status(200)
      .setHeader('Content-Type', 'application/javascript; charset=utf-8')
      // Loaded on every page of the merchant's site: an hour in caches, so a change reaches all within one.
      .setHeader('Cache-Control', 'public, max-age=3600')
      .setHeader('X-Content-Type-Options', 'nosniff')
      // Loaded by <script> from the merchant's origin.
      .setHeader('Cross-Origin-Resource-Policy', 'cross-origin')
      .send(script);
  });

  return router;
}
