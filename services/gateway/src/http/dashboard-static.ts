import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler, Response } from 'express';

/**
 * The owner's dashboard (services/dashboard, built by tools/build/build-dashboard.mjs into
 * dist/dashboard) served at /dashboard as static files:
 *   /dashboard/assets/<name>   the hashed bundle files, cached for a year (names change with content)
 *   /dashboard and /dashboard/* index.html (the app routes in the browser), never cached
 * /dashboard/api is left to the dashboard API. The pages may load and call only this origin (CSP).
 * A plain middleware rather than routes: the OpenAPI route check lists /v1 and public API routes.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  // QR codes of onboarding links arrive as base64 PNGs from the API.
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};
const ASSET = /^\/assets\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Where the bundle is next to the gateway's own bundle (dist/services/gateway → dist/dashboard). */
export function defaultDashboardDirectory(): string {
  return path.resolve(__dirname, '../../dashboard');
}

function secure(res: Response): Response {
  return res
    .setHeader('Content-Security-Policy', DASHBOARD_CSP)
    .setHeader('X-Content-Type-Options', 'nosniff')
    .setHeader('X-Frame-Options', 'DENY')
    .setHeader('Referrer-Policy', 'same-origin');
}

export function dashboardStatic(options: { directory: string }): RequestHandler {
  let index: string | undefined;
  return (req, res, next) => {
    if (req.path === '/api' || req.path.startsWith('/api/')) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path.startsWith('/assets/')) {
      const type = TYPES[path.extname(req.path)];
      if (!ASSET.test(req.path) || !type || !existsSync(path.join(options.directory, req.path))) return next();
      secure(res).setHeader('Content-Type', type);
      res.sendFile(req.path.slice(1), { root: options.directory, maxAge: '365d', immutable: true, dotfiles: 'deny' }, (error) => {
        if (error && !res.headersSent) next(error);
      });
      return;
    }
    // Read once: the bundle is replaced only by a rebuild and restart.
    if (index === undefined) {
      const file = path.join(options.directory, 'index.html');
      if (!existsSync(file)) {
        secure(res).status(503).setHeader('Content-Type', 'text/plain; charset=utf-8').setHeader('Cache-Control', 'no-store');
        res.send('O painel não foi compilado neste servidor (node tools/build/build-dashboard.mjs).');
        return;
      }
      index = readFileSync(file, 'utf8');
    }
    secure(res).status(200).setHeader('Content-Type', 'text/html; charset=utf-8').setHeader('Cache-Control', 'no-cache');
    res.send(index);
  };
}
