import { common, type customers } from '@orquestra/contracts';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };

const CUSTOMER: customers.CustomerRecord = {
  id: 'cus_01j9z0k3x7m2q8r4t6v8w0y2a4',
  name: 'Ana Cliente',
  email: '',
  document: '52998224725',
  phone: '+5511988887777',
  mode: common.Mode.MODE_TEST,
  created_at: '2026-11-22T12:00:00.000Z',
  updated_at: '2026-11-22T12:05:00.000Z',
};

describe('customer routes', () => {
  let clients: FakeClients;
  let app: RunningApp;
  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(() => app.close());

  it('lists with the document and e-mail filters passed through, empty strings as null', async () => {
    const seen: customers.ListCustomersRequest[] = [];
    clients.customers.listCustomers = async (request) => {
      seen.push(request);
      return { data: [CUSTOMER], has_more: false };
    };
    const answer = await app.request('GET', '/v1/customers?document=529.982.247-25&limit=3', { headers: FULL });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      object: 'list',
      has_more: false,
      data: [
        {
          id: CUSTOMER.id,
          object: 'customer',
          name: 'Ana Cliente',
          email: null,
          document: '52998224725',
          phone: '+5511988887777',
          mode: 'test',
          created_at: CUSTOMER.created_at,
          updated_at: CUSTOMER.updated_at,
        },
      ],
    });
    expect(seen[0]).toMatchObject({ document: '52998224725', email: '', limit: 3 });
  });

  it('refuses restricted keys and bad filters with the param named', async () => {
    const restricted = await app.request('GET', '/v1/customers', { headers: { authorization: `Bearer ${RESTRICTED_KEY}` } });
    expect(restricted.status).toBe(403);
    const badEmail = await app.request('GET', '/v1/customers?email=nope', { headers: FULL });
    expect(badEmail.status).toBe(400);
    expect(badEmail.json.error.param).toBe('email');
    const unknown = await app.request('GET', '/v1/customers/not%20an%20id', { headers: FULL });
    expect(unknown.status).toBe(404);
  });
});
