import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Orquestra } from './client';
import { OPERATIONS } from './operations';
import { Resource } from './resources/resource';

// The table of operations (operations.ts) against the SDK's own code: every method it names sends
// exactly that HTTP method and path, and every public method of every resource is in it. The SDK
// e2e suite holds the same table against the live OpenAPI document.

type Method = (...args: unknown[]) => unknown;

let server: Server;
let baseUrl: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      seen.push(`${req.method} ${path}`);
      if (path.endsWith('.csv')) {
        res.writeHead(200, { 'content-type': 'text/csv' }).end('kind\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${seen.length}` });
      res.end(JSON.stringify({ object: 'list', id: 'x_1', data: [], has_more: false }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Every `resource.method` reachable from a client: own methods of Resource subclasses, nested resources included. */
function publicMethods(target: object, prefix = ''): string[] {
  return Object.entries(target).flatMap(([name, value]) => {
    if (!(value instanceof Resource)) return [];
    const own = Object.getOwnPropertyNames(Object.getPrototypeOf(value)).filter(
      (key) => key !== 'constructor' && typeof (value as unknown as Record<string, unknown>)[key] === 'function',
    );
    return [...own.map((key) => `${prefix}${name}.${key}`), ...publicMethods(value, `${prefix}${name}.`)];
  });
}

function resolve(client: Orquestra, name: string): { fn: Method; self: object } {
  const parts = name.split('.');
  let self: Record<string, unknown> = client as unknown as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) self = self[part] as Record<string, unknown>;
  const fn = self[parts[parts.length - 1]!];
  if (typeof fn !== 'function') throw new Error(`${name} is not a method of the client`);
  return { fn: fn as Method, self };
}

describe('SDK operations table', () => {
  const client = new Orquestra({ apiKey: 'svc_test_ops', baseUrl: 'http://127.0.0.1:1', retry: { maxRetries: 0 } });

  it('names every public resource method of the client, and only those', () => {
    const inTable = OPERATIONS.flatMap((operation) => operation.sdk).sort();
    expect(new Set(inTable).size).toBe(inTable.length);
    expect(publicMethods(client).sort()).toEqual(inTable);
  });

  it('lists each operation once', () => {
    const keys = OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(OPERATIONS.flatMap((operation) => operation.sdk.map((sdk) => [sdk, `${operation.method} ${operation.path}`] as const)))(
    '%s sends %s',
    async (sdk, operation) => {
      const live = new Orquestra({ apiKey: 'svc_test_ops', baseUrl, retry: { maxRetries: 0 } });
      const ids = (operation.match(/\{\w+\}/g) ?? []).map((_, index) => `id_${index + 1}`);
      const { fn, self } = resolve(live, sdk);
      seen.length = 0;
      // Path parameters first, then an (empty) params object; a method without params takes it as its options.
      const result = fn.apply(self, [...ids, {}]);
      if (result && typeof (result as AsyncGenerator).next === 'function') await (result as AsyncGenerator).next();
      else await result;
      let expected: string = operation;
      for (const id of ids) expected = expected.replace(/\{\w+\}/, id);
      expect(seen).toEqual([expected]);
    },
  );
});
