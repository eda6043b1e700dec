import { grpcStoreAdapter } from './oauth-store.adapter';
import type { OAuthClients } from './oauth.clients';

describe('oidc-provider adapter over the accounts store', () => {
  const calls: Array<[string, unknown]> = [];
  const answer = { found: true, payload_json: '{"a":1}' };
  const record = (name: string) => async (request: unknown) => {
    calls.push([name, request]);
    return name.startsWith('find') ? answer : {};
  };
  const store = Object.fromEntries(
    ['upsertModel', 'findModel', 'findModelByUid', 'findModelByUserCode', 'consumeModel', 'destroyModel', 'revokeByGrantId'].map((name) => [name, record(name)]),
  ) as unknown as OAuthClients['store'];

  it('passes each operation with its model name and decodes payloads', async () => {
    const Adapter = grpcStoreAdapter(store);
    const grants = new Adapter('AccessToken');
    await grants.upsert('t1', { accountId: 'acct_1' }, 600.7);
    expect(await grants.find('t1')).toEqual({ a: 1 });
    expect(await grants.findByUid('u1')).toEqual({ a: 1 });
    expect(await grants.findByUserCode('c1')).toEqual({ a: 1 });
    await grants.consume('t1');
    await grants.destroy('t1');
    await grants.revokeByGrantId('g1');
    expect(calls).toEqual([
      ['upsertModel', { model: 'AccessToken', id: 't1', payload_json: '{"accountId":"acct_1"}', expires_in: 600 }],
      ['findModel', { model: 'AccessToken', id: 't1' }],
      ['findModelByUid', { model: 'AccessToken', uid: 'u1' }],
      ['findModelByUserCode', { model: 'AccessToken', user_code: 'c1' }],
      ['consumeModel', { model: 'AccessToken', id: 't1' }],
      ['destroyModel', { model: 'AccessToken', id: 't1' }],
      ['revokeByGrantId', { grant_id: 'g1' }],
    ]);
  });

  it('answers undefined for a model the store does not have', async () => {
    const Adapter = grpcStoreAdapter({ ...store, findModel: async () => ({ found: false, payload_json: '' }) });
    expect(await new Adapter('Client').find('oapp_x')).toBeUndefined();
  });
});
