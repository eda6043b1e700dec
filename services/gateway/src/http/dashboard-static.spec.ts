import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { DASHBOARD_CSP, dashboardStatic } from './dashboard-static';

describe('dashboard static mount', () => {
  let directory: string;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'dashboard-'));
    mkdirSync(path.join(directory, 'assets'));
    writeFileSync(path.join(directory, 'index.html'), '<!doctype html><title>Painel</title>');
    writeFileSync(path.join(directory, 'assets', 'app-ABC.js'), 'console.log(1)');
    writeFileSync(path.join(directory, 'assets', 'app-ABC.css'), 'body{}');
    writeFileSync(path.join(directory, 'secret.txt'), 'no');
    const app = express();
    app.use('/dashboard', dashboardStatic({ directory }));
    app.use('/dashboard/api', (_req, res) => void res.status(418).json({ api: true }));
    app.use((_req, res) => void res.status(404).json({ error: { code: 'route_not_found' } }));
    server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('answers index.html for the app routes, uncached, with a same-origin CSP', async () => {
    for (const route of ['/dashboard', '/dashboard/', '/dashboard/pagamentos/pay_123', '/dashboard/desenvolvedores/chaves?x=1']) {
      const answer = await fetch(`${base}${route}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('no-cache');
      expect(answer.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await answer.text()).toContain('<title>Painel</title>');
    }
    expect(DASHBOARD_CSP).toContain("default-src 'self'");
    expect(DASHBOARD_CSP).not.toMatch(/unsafe|\*|https?:/);
  });

  it('serves hashed assets with their content type, cached as immutable', async () => {
    const script = await fetch(`${base}/dashboard/assets/app-ABC.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect(await script.text()).toBe('console.log(1)');
    const style = await fetch(`${base}/dashboard/assets/app-ABC.css`);
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers 404 for unknown assets and never serves files outside assets/', async () => {
    expect((await fetch(`${base}/dashboard/assets/nope.js`)).status).toBe(404);
    expect((await fetch(`${base}/dashboard/assets/..%2Fsecret.txt`)).status).toBe(404);
    expect((await fetch(`${base}/dashboard/assets/.hidden.js`)).status).toBe(404);
  });

  it('leaves /dashboard/api and non-GET methods to the next handlers', async () => {
    expect((await fetch(`${base}/dashboard/api/me`)).status).toBe(418);
    expect((await fetch(`${base}/dashboard/pagamentos`, { method: 'POST' })).status).toBe(404);
  });
});
