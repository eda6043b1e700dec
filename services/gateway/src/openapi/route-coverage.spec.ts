import { createApp } from '../http/app';
import { TEST_SETTINGS, alwaysReady, silentLogger } from '../testing/fixtures';
import { fakeClients } from '../testing/fake-clients';
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

function documentedRoutes(): string[] {
  const doc = buildOpenApiDocument({ serverUrl: 'http://localhost' }) as unknown as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    ['get', 'post', 'put', 'patch', 'delete'].filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe('OpenAPI route coverage', () => {
  const app = createApp({ clients: fakeClients(), logger: silentLogger, readiness: alwaysReady, settings: TEST_SETTINGS });
  const stack = (app as unknown as { router: { stack: RouterLayer[] } }).router.stack;
  const served = [...new Set(servedRoutes(stack))].sort();

  it('finds the routes of the app (the walk itself works)', () => {
    expect(served).toEqual(expect.arrayContaining(['POST /v1/payments', 'GET /v1/payments/{id}', 'GET /qr/{paymentId}.png', 'GET /docs', 'GET /healthz']));
    expect(served.length).toBeGreaterThan(20);
  });

  it('documents every route the app serves', () => {
    const documented = new Set(documentedRoutes());
    expect(served.filter((route) => !documented.has(route))).toEqual([]);
  });

  it('documents no route the app does not serve', () => {
    const servedSet = new Set(served);
    expect(documentedRoutes().filter((route) => !servedSet.has(route))).toEqual([]);
  });
});
