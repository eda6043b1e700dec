import { createApp } from '../http/app';
import { TEST_SETTINGS, alwaysReady, silentLogger } from '../testing/fixtures';
import { fakeClients } from '../testing/fake-clients';
import { buildDashboardOpenApiDocument } from '../dashboard-api/dashboard-api.openapi';
import { dashboardOAuthRoutes } from '../oauth/dashboard-oauth.routes';
import type { OAuthClients } from '../oauth/oauth.clients';
import { buildOpenApiDocument } from './openapi.document';

// Walks the routers of the real express app and fails when a route it serves is missing from the
// OpenAPI document (or the document lists a route nobody serves), so a new route cannot ship
// undocumented.

interface RouterLayer {
  rawPath?: string | RegExp | Array<string | RegExp>;
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
}

/** Express path syntax → OpenAPI: `:id` → `{id}`, `*subPath` → `{subPath}`. */
function toOpenApiPath(expressPath: string): string {
  return expressPath.replace(/[:*]([A-Za-z_]\w*)/g, '{$1}');
}

function servedRoutes(stack: RouterLayer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      return Object.keys(layer.route.methods)
        .filter((method) => method !== '_all')
        .map((method) => `${method.toUpperCase()} ${toOpenApiPath(prefix + layer.route!.path)}`);
    }
    if (layer.handle?.stack) {
      const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
      return servedRoutes(layer.handle.stack, prefix + mount);
    }
    return [];
  });
}

function documentedRoutes(build: typeof buildOpenApiDocument = buildOpenApiDocument): string[] {
  const doc = build({ serverUrl: 'http://localhost' }) as unknown as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    ['get', 'post', 'put', 'patch', 'delete'].filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** /v1 routes served without a key (so not bridged to /dashboard/api/v1). */
const PUBLIC_V1 = new Set(['GET /v1/openapi.json', 'GET /v1/cards/fields.js', 'POST /v1/cards/tokenize', 'GET /v1/tracking.js']);

describe('OpenAPI route coverage', () => {
  // The OAuth apps' dashboard routes come with main.ts's OAuth server; mounted here as there.
  const dashboardRoutes = [dashboardOAuthRoutes({ clients: {} as OAuthClients, logger: silentLogger })];
  const app = createApp({ clients: fakeClients(), logger: silentLogger, readiness: alwaysReady, settings: TEST_SETTINGS, dashboardRoutes });
  const stack = (app as unknown as { router: { stack: RouterLayer[] } }).router.stack;
  const all = [...new Set(servedRoutes(stack))].sort();
  // /dashboard/api has its own document (the owner's routes, which no API key reaches); its
  // /dashboard/api/v1 bridge serves the public /v1 routes themselves, checked as those.
  const BRIDGE = '/dashboard/api/v1/';
  const isDashboard = (route: string) => route.split(' ')[1]!.startsWith('/dashboard/api/') && !route.includes(BRIDGE);
  const served = all.filter((route) => !isDashboard(route) && !route.includes(BRIDGE));
  const dashboardServed = all.filter(isDashboard);

  it('finds the routes of the app (the walk itself works)', () => {
    expect(served).toEqual(expect.arrayContaining(['POST /v1/payments', 'GET /v1/payments/{id}', 'GET /qr/{paymentId}.png', 'GET /docs', 'GET /healthz']));
    expect(served.length).toBeGreaterThan(20);
  });

  it('documents every route the app serves', () => {
    const documented = new Set(documentedRoutes());
    expect(served.filter((route) => !documented.has(route))).toEqual([]);
  });

  it('serves at /dashboard/api/v1 exactly the /v1 routes, with the owner session', () => {
    const bridged = all.filter((route) => route.includes(BRIDGE)).map((route) => route.replace('/dashboard/api/v1/', '/v1/'));
    expect(bridged.length).toBeGreaterThan(20);
    expect(bridged).toEqual(served.filter((route) => route.split(' ')[1]!.startsWith('/v1/') && bridged.includes(route)));
    const v1Authenticated = served.filter((route) => route.split(' ')[1]!.startsWith('/v1/') && !PUBLIC_V1.has(route));
    expect(v1Authenticated.filter((route) => !bridged.includes(route))).toEqual([]);
  });

  it('documents every /dashboard/api route in the dashboard document, and nothing else there', () => {
    const documented = documentedRoutes(buildDashboardOpenApiDocument);
    expect(dashboardServed.filter((route) => !documented.includes(route))).toEqual([]);
    expect(documented.filter((route) => !dashboardServed.includes(route))).toEqual([]);
  });

  it('documents no route the app does not serve', () => {
    const servedSet = new Set(served);
    expect(documentedRoutes().filter((route) => !servedSet.has(route))).toEqual([]);
  });
});
