import { Router } from 'express';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { TEST_KEY } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';
import { AccessTokenResolver, type StoredAccessToken } from './access-token.resolver';

const FULL_TOKEN = 'fulltokenfulltokenfulltokenfulltokenfullto';
const RESTRICTED_TOKEN = 'restrictedtokenrestrictedtokenrestrictedto';

describe('OAuth access tokens on /v1', () => {
  let clients: FakeClients;
  let app: RunningApp;
  const tokens = new Map<string, StoredAccessToken>([
    [FULL_TOKEN, { accountId: 'acct_01full', clientId: 'oapp_1', scope: 'payments:full mode:test' }],
    [RESTRICTED_TOKEN, { accountId: 'acct_01rest', clientId: 'oapp_2', scope: 'payments:restricted mode:live' }],
  ]);
  const lookups: string[] = [];

  beforeEach(async () => {
    clients = fakeClients();
    lookups.length = 0;
    const accessTokens = new AccessTokenResolver(async (value) => {
      lookups.push(value);
      return tokens.get(value);
    });
    app = await startApp({ clients, oauth: { router: Router(), dashboardRouter: Router(), accessTokens } });
  });
  afterEach(() => app.close());

  const get = (path: string, bearer: string) => app.request('GET', path, { headers: { authorization: `Bearer ${bearer}` } });

  it('acts as a key of the grant\'s kind and mode, asking the store on every call (no cache)', async () => {
    const seen: unknown[] = [];
    clients.customers.listCustomers = async (request) => {
      seen.push(request.caller);
      return { data: [], has_more: false };
    };
    expect((await get('/v1/customers', FULL_TOKEN)).status).toBe(200);
    expect((await get('/v1/customers', FULL_TOKEN)).status).toBe(200);
    expect(seen[0]).toMatchObject({ merchant_id: 'acct_01full', key_id: 'oauth:oapp_1', restricted: false });
    expect(lookups).toEqual([FULL_TOKEN, FULL_TOKEN]);
  });

  it('holds a restricted grant to restricted rules (403 restricted_key on a full-key route)', async () => {
    const refused = await get('/v1/customers', RESTRICTED_TOKEN);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('restricted_key');
  });

  it('answers 401 for a token that is gone (revoked) or malformed, and never looks up a malformed one', async () => {
    tokens.delete(FULL_TOKEN);
    expect((await get('/v1/customers', FULL_TOKEN)).status).toBe(401);
    expect((await get('/v1/customers', 'bad token!')).status).toBe(401);
    expect(lookups).toEqual([FULL_TOKEN]);
  });

  it('still sends svc_ values to the API key resolver', async () => {
    await get('/v1/customers', TEST_KEY);
    expect(lookups).toEqual([]);
  });
});
