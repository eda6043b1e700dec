import { common } from '@orquestra/contracts';
import { grantedScope, offeredChoices, tokenIdentity } from './oauth.scopes';

describe('OAuth scopes', () => {
  const token = (scope: string) => ({ accountId: 'acct_01abc', clientId: 'oapp_1', scope });

  it('maps a full test grant to a full test caller, keyed by the app', () => {
    expect(tokenIdentity(token('payments:full mode:test'))).toEqual({ merchant_id: 'acct_01abc', key_id: 'oauth:oapp_1', mode: common.Mode.MODE_TEST, restricted: false });
  });

  it('maps a restricted live grant to a restricted live caller', () => {
    expect(tokenIdentity(token('mode:live payments:restricted'))).toMatchObject({ mode: common.Mode.MODE_LIVE, restricted: true });
  });

  it('fails closed: both access levels → restricted; no or two modes, no access level → no caller', () => {
    expect(tokenIdentity(token('payments:full payments:restricted mode:test'))?.restricted).toBe(true);
    expect(tokenIdentity(token('payments:full'))).toBeUndefined();
    expect(tokenIdentity(token('payments:full mode:test mode:live'))).toBeUndefined();
    expect(tokenIdentity(token('mode:test'))).toBeUndefined();
    expect(tokenIdentity({ ...token('payments:full mode:test'), accountId: 'someone' })).toBeUndefined();
    expect(tokenIdentity({ ...token('payments:full mode:test'), clientId: undefined })).toBeUndefined();
  });

  it('offers on the consent page only what the app asked for', () => {
    expect(offeredChoices('payments:restricted mode:test mode:live openid')).toEqual({ accesses: ['restricted'], modes: ['test', 'live'] });
    expect(offeredChoices(undefined)).toEqual({ accesses: [], modes: [] });
    expect(grantedScope('full', 'live')).toBe('payments:full mode:live');
  });
});
