import { randomBytes } from 'node:crypto';
import { accounts, common, oauth } from '@orquestra/contracts';
import { AppError, connectDatabase, ensureIndexes, SecretBox, type Handlers } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerAccountsModels } from '../db/accounts.models';
import { registerOAuthModels, type OAuthModels } from '../db/oauth.models';
import { accountsHandlers } from './accounts.handlers';
import { oauthStoreHandlers } from './oauth-store.handlers';

jest.setTimeout(60_000);

describe('OAuth store against the real store', () => {
  let db: Connection;
  let models: OAuthModels;
  let rpc: Handlers<typeof oauth.OAuthStoreServiceService>;
  let merchant: string;
  let other: string;
  const ctx = {} as never;
  const box = SecretBox.fromConfig(`t1:${randomBytes(32).toString('base64')}`);

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${uniqueDbPrefix('oauthstore')}accounts`, logger: pino({ level: 'silent' }) });
    const accountModels = registerAccountsModels(db);
    models = registerOAuthModels(db);
    await ensureIndexes(db);
    const acct: Handlers<typeof accounts.AccountsServiceService> = accountsHandlers(accountModels);
    merchant = (await acct.createMerchant({ name: 'Plataforma', email: 'p@oauth.test' }, ctx)).merchant!.id;
    other = (await acct.createMerchant({ name: 'Loja', email: 'l@oauth.test' }, ctx)).merchant!.id;
    rpc = oauthStoreHandlers({ ...models, merchants: accountModels.merchants }, box);
  });
  afterAll(async () => {
    await dropTestDatabase(db);
  });

  const codeOf = async (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => (error instanceof AppError ? error.code : String(error)));
  const upsert = (model: string, id: string, payload: object, expires_in = 600) =>
    rpc.upsertModel({ model, id, payload_json: JSON.stringify(payload), expires_in }, ctx);
  const find = async (model: string, id: string) => {
    const answer = await rpc.findModel({ model, id }, ctx);
    return answer.found ? (JSON.parse(answer.payload_json) as Record<string, unknown>) : undefined;
  };

  it('registers an app with its secret sealed, and serves it as the library client with the secret opened', async () => {
    const { app, client_secret } = await rpc.registerApp(
      { merchant_id: merchant, name: ' Conector ', redirect_uris: ['https://app.example/cb', 'http://localhost:3000/cb'], logo_url: 'https://app.example/logo.png' },
      ctx,
    );
    expect(app).toMatchObject({ name: 'Conector', redirect_uris: ['https://app.example/cb', 'http://localhost:3000/cb'] });
    expect(app!.id).toMatch(/^oapp_[0-9a-f]{24}$/);
    expect(client_secret).toMatch(/^oas_/);
    const stored = await models.oauthApps.findById(app!.id).lean();
    expect(JSON.stringify(stored)).not.toContain(client_secret);
    expect(await find('Client', app!.id)).toMatchObject({
      client_id: app!.id,
      client_secret,
      redirect_uris: app!.redirect_uris,
      grant_types: ['authorization_code', 'refresh_token'],
      logo_uri: 'https://app.example/logo.png',
    });
    expect((await rpc.listApps({ merchant_id: merchant }, ctx)).apps.map((a) => a.id)).toEqual([app!.id]);
    expect((await rpc.listApps({ merchant_id: other }, ctx)).apps).toEqual([]);
  });

  it.each([['http://app.example/cb'], ['https://app.example/cb#x'], ['javascript:alert(1)'], ['not a url']])('refuses the redirect URI %s', async (uri) => {
    expect(await codeOf(rpc.registerApp({ merchant_id: merchant, name: 'X', redirect_uris: [uri], logo_url: '' }, ctx))).toBe('parameter_invalid');
  });

  it('stores, finds, consumes once and destroys models, and hides expired ones', async () => {
    await upsert('AuthorizationCode', 'code1', { grantId: 'g1', accountId: other, clientId: 'oapp_x' });
    expect(await find('AuthorizationCode', 'code1')).toEqual({ grantId: 'g1', accountId: other, clientId: 'oapp_x' });
    await rpc.consumeModel({ model: 'AuthorizationCode', id: 'code1' }, ctx);
    const first = (await find('AuthorizationCode', 'code1'))!.consumed;
    expect(typeof first).toBe('number');
    await models.oauthModels.updateOne({ _id: 'AuthorizationCode:code1' }, { $set: { consumed_at: new Date(2000, 0, 1) } });
    await Promise.all([1, 2, 3].map(() => rpc.consumeModel({ model: 'AuthorizationCode', id: 'code1' }, ctx)));
    expect((await find('AuthorizationCode', 'code1'))!.consumed).toBe(Math.floor(new Date(2000, 0, 1).getTime() / 1000));
    await rpc.destroyModel({ model: 'AuthorizationCode', id: 'code1' }, ctx);
    expect(await find('AuthorizationCode', 'code1')).toBeUndefined();

    await upsert('Interaction', 'i1', { uid: 'u1' });
    expect((await rpc.findModelByUid({ model: 'Interaction', uid: 'u1' }, ctx)).found).toBe(true);
    await models.oauthModels.updateOne({ _id: 'Interaction:i1' }, { $set: { expires_at: new Date(Date.now() - 1000) } });
    expect(await find('Interaction', 'i1')).toBeUndefined();
    expect((await rpc.findModelByUid({ model: 'Interaction', uid: 'u1' }, ctx)).found).toBe(false);
    expect(await codeOf(rpc.upsertModel({ model: 'Client', id: 'x', payload_json: '{}', expires_in: 0 }, ctx))).toBe('parameter_invalid');
    expect(await codeOf(rpc.findModel({ model: 'Nope', id: 'x' }, ctx))).toBe('parameter_invalid');
  });

  it('lists a merchant\'s authorizations and revokes one with its tokens at once', async () => {
    const { app } = await rpc.registerApp({ merchant_id: merchant, name: 'App B', redirect_uris: ['https://b.example/cb'], logo_url: '' }, ctx);
    const iat = Math.floor(Date.now() / 1000);
    await upsert('Grant', 'grantT', { accountId: other, clientId: app!.id, openid: { scope: 'payments:restricted mode:test' }, iat });
    await upsert('Grant', 'grantL', { accountId: other, clientId: app!.id, openid: { scope: 'payments:full mode:live' }, iat: iat + 1 });
    await upsert('AccessToken', 'at1', { accountId: other, clientId: app!.id, grantId: 'grantT' });
    await upsert('RefreshToken', 'rt1', { accountId: other, clientId: app!.id, grantId: 'grantT' });
    await upsert('AccessToken', 'at2', { accountId: other, clientId: app!.id, grantId: 'grantL' });

    const listed = (await rpc.listAuthorizations({ merchant_id: other }, ctx)).authorizations;
    expect(listed).toEqual([
      expect.objectContaining({ id: 'grantL', app_id: app!.id, app_name: 'App B', mode: common.Mode.MODE_LIVE, access: oauth.AuthorizationAccess.AUTHORIZATION_ACCESS_FULL }),
      expect.objectContaining({ id: 'grantT', mode: common.Mode.MODE_TEST, access: oauth.AuthorizationAccess.AUTHORIZATION_ACCESS_RESTRICTED }),
    ]);
    expect((await rpc.listAuthorizations({ merchant_id: merchant }, ctx)).authorizations).toEqual([]);

    // Another merchant cannot revoke it.
    expect(await codeOf(rpc.revokeAuthorization({ merchant_id: merchant, authorization_id: 'grantT' }, ctx))).toBe('not_found');
    await rpc.revokeAuthorization({ merchant_id: other, authorization_id: 'grantT' }, ctx);
    expect(await find('AccessToken', 'at1')).toBeUndefined();
    expect(await find('RefreshToken', 'rt1')).toBeUndefined();
    expect(await find('Grant', 'grantT')).toBeUndefined();
    expect(await find('AccessToken', 'at2')).toBeDefined();

    // Deleting the app revokes what is left of it.
    expect(await codeOf(rpc.deleteApp({ merchant_id: other, app_id: app!.id }, ctx))).toBe('not_found');
    await rpc.deleteApp({ merchant_id: merchant, app_id: app!.id }, ctx);
    expect(await find('AccessToken', 'at2')).toBeUndefined();
    expect(await find('Client', app!.id)).toBeUndefined();
    expect((await rpc.listAuthorizations({ merchant_id: other }, ctx)).authorizations).toEqual([]);
  });

  it('revokeByGrantId drops every model of the grant', async () => {
    await upsert('Grant', 'g9', { accountId: other, clientId: 'oapp_z' });
    await upsert('AccessToken', 'at9', { accountId: other, clientId: 'oapp_z', grantId: 'g9' });
    await rpc.revokeByGrantId({ grant_id: 'g9' }, ctx);
    expect(await find('AccessToken', 'at9')).toBeUndefined();
    expect(await find('Grant', 'g9')).toBeUndefined();
  });
});
