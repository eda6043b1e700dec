import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { common, oauth } from '@orquestra/contracts';
import express from 'express';
import { errorHandler } from '../http/error.handler';
import { requestIdMiddleware } from '../http/request-id.middleware';
import { silentLogger } from '../testing/fixtures';
import { dashboardOAuthRoutes } from './dashboard-oauth.routes';
import type { OAuthClients } from './oauth.clients';

describe('dashboard OAuth routes', () => {
  const calls: Array<[string, unknown]> = [];
  const app: oauth.OAuthApp = { id: 'oapp_1', name: 'Conector', redirect_uris: ['https://a.example/cb'], logo_url: '', created_at: '2026-11-28T12:00:00.000Z' };
  const clients = {
    store: {
      listApps: async (request: unknown) => (calls.push(['listApps', request]), { apps: [app] }),
      registerApp: async (request: unknown) => (calls.push(['registerApp', request]), { app, client_secret: 'oas_secret' }),
      deleteApp: async (request: unknown) => (calls.push(['deleteApp', request]), {}),
      listAuthorizations: async (request: unknown) => (calls.push(['listAuthorizations', request]), {
        authorizations: [{ id: 'g1', app_id: 'oapp_1', app_name: 'Conector', app_logo_url: '', mode: common.Mode.MODE_LIVE, access: oauth.AuthorizationAccess.AUTHORIZATION_ACCESS_RESTRICTED, created_at: '2026-11-28T12:00:00.000Z' }],
      }),
      revokeAuthorization: async (request: unknown) => (calls.push(['revokeAuthorization', request]), {}),
    },
    owners: { recordAudit: async (request: unknown) => (calls.push(['recordAudit', request]), {}) },
  } as unknown as OAuthClients;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const web = express();
    web.use(requestIdMiddleware());
    web.use((_req, res, next) => {
      res.locals.owner = { id: 'owner_1', email: 'dono@loja.test', merchant_id: 'acct_1', totp_enabled: false };
      next();
    });
    web.use(dashboardOAuthRoutes({ clients, logger: silentLogger }));
    web.use(errorHandler(silentLogger));
    server = await new Promise((resolve) => {
      const listening = web.listen(0, '127.0.0.1', () => resolve(listening));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    calls.length = 0;
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  it('registers an app for the owner\'s merchant, answers the secret once, and audits it', async () => {
    const created = await call('POST', '/oauth/apps', { name: 'Conector', redirect_uris: ['https://a.example/cb'] });
    expect(created).toEqual({
      status: 201,
      body: { id: 'oapp_1', object: 'oauth_app', client_id: 'oapp_1', name: 'Conector', redirect_uris: ['https://a.example/cb'], logo_url: null, created_at: app.created_at, client_secret: 'oas_secret' },
    });
    expect(calls).toEqual([
      ['registerApp', { merchant_id: 'acct_1', name: 'Conector', redirect_uris: ['https://a.example/cb'], logo_url: '' }],
      ['recordAudit', expect.objectContaining({ merchant_id: 'acct_1', action: 'oauth_app.created', target: 'oapp_1' })],
    ]);
    const listed = await call('GET', '/oauth/apps');
    expect(JSON.stringify(listed.body)).not.toContain('oas_secret');
  });

  it('names the bad field of a registration', async () => {
    expect((await call('POST', '/oauth/apps', { redirect_uris: ['https://a.example/cb'] })).body.error).toMatchObject({ code: 'parameter_missing', param: 'name' });
    expect((await call('POST', '/oauth/apps', { name: 'X', redirect_uris: [] })).body.error).toMatchObject({ code: 'parameter_invalid', param: 'redirect_uris' });
    expect(calls.filter(([name]) => name === 'registerApp')).toEqual([]);
  });

  it('lists and revokes the merchant\'s authorizations, scoped to its merchant', async () => {
    const listed = await call('GET', '/oauth/authorizations');
    expect(listed.body.data).toEqual([
      { id: 'g1', object: 'oauth_authorization', app: { id: 'oapp_1', name: 'Conector', logo_url: null }, mode: 'live', access: 'restricted', created_at: '2026-11-28T12:00:00.000Z' },
    ]);
    expect((await call('DELETE', '/oauth/authorizations/g1')).status).toBe(200);
    expect(calls).toContainEqual(['revokeAuthorization', { merchant_id: 'acct_1', authorization_id: 'g1' }]);
    expect(calls).toContainEqual(['recordAudit', expect.objectContaining({ action: 'oauth_authorization.revoked', target: 'g1' })]);
  });
});
