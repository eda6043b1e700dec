import { existsSync } from 'node:fs';
import path from 'node:path';

// The API reference at GET /docs: Scalar's API reference (npm @scalar/api-reference, its standalone
// browser bundle) rendering /v1/openapi.json, served by the gateway itself: no CDN, nothing
// fetched from another host, so it works offline and under a CSP that allows only this origin.

/** The page's files under /docs/assets/. */
export const DOCS_ASSETS = ['api-reference.js', 'init.js'] as const;
export type DocsAsset = (typeof DOCS_ASSETS)[number];

/**
 * The viewer's configuration. Everything that would reach Scalar's servers is off: the default
 * fonts (fonts.scalar.com), telemetry, the AI agent and MCP buttons, the developer toolbar; the
 * "test request" client calls only the document's server (this gateway). The request samples come
 * first as the document's own `x-codeSamples` (curl and @orquestra/node), then Scalar's generated ones.
 */
export const VIEWER_CONFIGURATION = {
  url: '/v1/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
  persistAuth: false,
  documentDownloadType: 'json',
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
  localization: { locale: 'pt' },
  metaData: { title: 'Orquestra API — referência' },
} as const;

/**
 * The script that mounts the viewer (a file, not inline, so the CSP needs no hash or nonce). It runs
 * before the bundle: zod 4 inside the viewer probes `new Function('')` once to choose its fast path,
 * which the CSP refuses (and reports); `jitless` makes it skip the probe. The viewer mounts once the
 * page, bundle included, is parsed.
 */
export const INIT_SCRIPT = [
  'globalThis.__zod_globalConfig = { jitless: true };',
  `document.addEventListener('DOMContentLoaded', () => Scalar.createApiReference('#app', ${JSON.stringify(VIEWER_CONFIGURATION)}));`,
  '',
].join('\n');

/** The page: the mount point, the init script and the bundle; a plain-text fallback without JavaScript. */
export const REFERENCE_PAGE = `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Orquestra API — referência</title>
<link rel="icon" href="data:,">
</head>
<body>
<noscript>A referência da API precisa de JavaScript. O documento OpenAPI está em <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
<div id="app"></div>
<script src="/docs/assets/init.js"></script>
<script src="/docs/assets/api-reference.js"></script>
</body>
</html>
`;

/**
 * The page's CSP: scripts from this origin only (the bundle and init.js; no eval, no inline
 * script); `style-src 'unsafe-inline'` because the viewer (Vue components) injects its stylesheet
 * and style attributes at run time, which a hash or a nonce cannot cover; fetches to this origin
 * only (the document and the "test request" client); images from here or data: URIs. Nothing may
 * frame it, and nothing is loaded from another host.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Where the built gateway keeps the viewer's bundle (tools/build/build-service.mjs copies it there). */
export const BUNDLED_VIEWER = 'docs/api-reference.js';

/**
 * The viewer's bundle: next to the gateway's own bundle when built (dist/services/gateway/docs,
 * what the image ships), else from node_modules (tests and the source tree).
 */
export function viewerBundlePath(bundleDirectory: string = __dirname): string {
  const built = path.join(bundleDirectory, BUNDLED_VIEWER);
  if (existsSync(built)) return built;
  return scalarStandalonePath();
}

/** The standalone browser bundle inside the @scalar/api-reference package. */
export function scalarStandalonePath(): string {
  // The package exports no subpath for it: found beside its main entry (dist/index.js).
  return path.join(path.dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');
}
