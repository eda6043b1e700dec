import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fakeClients } from '../testing/fake-clients';
import { startApp, type RunningApp } from '../testing/http-harness';
import { BUNDLED_VIEWER, DOCS_CSP, INIT_SCRIPT, scalarStandalonePath, VIEWER_CONFIGURATION, viewerBundlePath } from './api-reference';

// The browser side (the viewer renders, search, samples, no request leaves the machine, no CSP
// violation) is tools/e2e/src/api-reference.e2e.spec.ts, in Chromium against the running stack.

describe('API reference at /docs', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ clients: fakeClients() });
  });
  afterAll(() => app.close());

  it('answers the page without a key: the mount point and two scripts of this origin, nothing inline', async () => {
    const answer = await app.request('GET', '/docs');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    const scripts = [...answer.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((match) => match[1]!.trim())).toEqual(['src="/docs/assets/init.js"', 'src="/docs/assets/api-reference.js"']);
    expect(scripts.every((match) => match[2] === '')).toBe(true);
    expect(answer.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(answer.text).toContain('<div id="app"></div>');
  });

  it('sends a CSP that allows scripts and fetches from this origin only, no eval, no framing', async () => {
    const csp = (await app.request('GET', '/docs')).headers.get('content-security-policy') ?? '';
    expect(csp).toBe(DOCS_CSP);
    const directives = Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(csp).not.toMatch(/https?:|\*|unsafe-eval/);
  });

  it('serves the init script: mounts the viewer on /v1/openapi.json with everything that calls Scalar turned off', async () => {
    const answer = await app.request('GET', '/docs/assets/init.js');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(answer.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(answer.text).toBe(INIT_SCRIPT);
    expect(answer.text).toContain('globalThis.__zod_globalConfig = { jitless: true };');
    const configuration = JSON.parse(/createApiReference\('#app', (.*)\)\);/.exec(answer.text)![1]!);
    expect(configuration).toEqual(VIEWER_CONFIGURATION);
    expect(configuration).toMatchObject({ url: '/v1/openapi.json', withDefaultFonts: false, telemetry: false, agent: { disabled: true }, mcp: { disabled: true } });
    expect(JSON.stringify(configuration)).not.toMatch(/https?:/);
  });

  it("serves Scalar's standalone bundle from node_modules, gzipped when the browser takes it, and 404 for any other file", async () => {
    const bundle = readFileSync(scalarStandalonePath());
    const plain = await app.request('GET', '/docs/assets/api-reference.js', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.bytes.equals(bundle)).toBe(true);
    expect(plain.text).toContain('createApiReference');
    // fetch asks for gzip and unpacks it: the bytes are the bundle's, the length on the wire smaller.
    const gzipped = await app.request('GET', '/docs/assets/api-reference.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.headers.get('vary')).toBe('Accept-Encoding');
    expect(Number(gzipped.headers.get('content-length'))).toBeLessThan(bundle.length / 2);
    expect(gzipped.bytes.equals(bundle)).toBe(true);
    for (const other of ['/docs/assets/other.js', '/docs/assets/..%2Fpackage.json', '/docs/assets/init.js.map']) {
      const missing = await app.request('GET', other);
      expect(missing.status).toBe(404);
      expect(missing.json).toMatchObject({ error: { code: 'route_not_found' } });
    }
  });

  it('prefers the copy beside the built gateway (what the image ships) over node_modules', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'gateway-bundle-'));
    try {
      expect(viewerBundlePath(directory)).toBe(scalarStandalonePath());
      mkdirSync(path.join(directory, 'docs'));
      writeFileSync(path.join(directory, BUNDLED_VIEWER), '/* built */');
      expect(viewerBundlePath(directory)).toBe(path.join(directory, BUNDLED_VIEWER));
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
