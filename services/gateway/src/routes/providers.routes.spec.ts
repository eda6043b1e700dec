import { MESSAGES_PT_BR } from '@orquestra/platform';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const BOT = { authorization: `Bearer ${RESTRICTED_KEY}` };

describe('GET /v1/providers', () => {
  let app: RunningApp;
  let clients: FakeClients;

  beforeEach(async () => {
    clients = fakeClients();
    clients.providers.listProviders = async () => ({
      providers: [
        {
          code: 'efi',
          name: 'Efí',
          credential_fields: [
            { name: 'client_id', label: 'Client ID', secret: false },
            { name: 'client_secret', label: 'Client Secret', secret: true },
          ],
          capabilities: {
            methods: ['pix'],
            partial_refunds: true,
            disputes: true,
            dispute_evidence: false,
            subaccounts: { supported: false, requires: [] },
            max_splits: 0,
            payouts: false,
            subscriptions: false,
            card_vault: false,
            keeps_metadata: true,
            customer_requires: { pix: { fields: [] }, boleto: { fields: ['document', 'address'] } },
            hosted_checkout: [],
            payout_destinations: [],
          },
          amount_unit: 'reais_string',
          notes: '',
        },
      ],
    });
    app = await startApp({ clients });
  });
  afterEach(async () => {
    await app.close();
  });

  it('answers the catalog as a list of provider objects, in snake_case', async () => {
    const answer = await app.request('GET', '/v1/providers', { headers: FULL });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      object: 'list',
      has_more: false,
      data: [
        {
          code: 'efi',
          object: 'provider',
          name: 'Efí',
          credential_fields: [
            { name: 'client_id', label: 'Client ID', secret: false },
            { name: 'client_secret', label: 'Client Secret', secret: true },
          ],
          capabilities: {
            methods: ['pix'],
            partial_refunds: true,
            disputes: true,
            dispute_evidence: false,
            subaccounts: { supported: false, requires: [] },
            max_splits: 0,
            payouts: false,
            subscriptions: false,
            card_vault: false,
            keeps_metadata: true,
            customer_requires: { pix: [], boleto: ['document', 'address'] },
            hosted_checkout: [],
            payout_destinations: [],
          },
          amount_unit: 'reais_string',
          notes: null,
        },
      ],
    });
  });

  it('refuses restricted keys with 403 restricted_key', async () => {
    const answer = await app.request('GET', '/v1/providers', { headers: BOT });
    expect(answer.status).toBe(403);
    expect(answer.json).toEqual({
      error: { type: 'permission_error', message: MESSAGES_PT_BR.restricted_key, code: 'restricted_key', param: null },
    });
  });

  it('asks for a key first (401 without one)', async () => {
    expect((await app.request('GET', '/v1/providers')).status).toBe(401);
  });
});
