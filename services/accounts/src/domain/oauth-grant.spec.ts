import { grantOfScope, isAllowedLogoUrl, isAllowedRedirectUri, merchantOfAccountId } from './oauth-grant';

describe('OAuth grant rules', () => {
  it.each([
    ['payments:full mode:test', { mode: 'test', access: 'full' }],
    ['mode:live payments:restricted', { mode: 'live', access: 'restricted' }],
    // Both access levels granted: the narrower wins (fail closed).
    ['payments:full payments:restricted mode:test', { mode: 'test', access: 'restricted' }],
    ['payments:full', undefined],
    ['payments:full mode:test mode:live', undefined],
    ['mode:test', undefined],
    ['openid', undefined],
    [undefined, undefined],
  ])('reads the scope %p as %p', (scope, expected) => {
    expect(grantOfScope(scope)).toEqual(expected);
  });

  it('takes only merchant ids as account ids', () => {
    expect(merchantOfAccountId('acct_01abc')).toBe('acct_01abc');
    expect(merchantOfAccountId('acct_01abc:test')).toBeUndefined();
    expect(merchantOfAccountId(42)).toBeUndefined();
  });

  it.each([
    ['https://app.example/callback', true],
    ['https://app.example:8443/cb?x=1', true],
    ['http://localhost:3000/cb', true],
    ['http://127.0.0.1/cb', true],
    ['http://app.example/cb', false],
    ['https://app.example/cb#frag', false],
    ['https://user:pw@app.example/cb', false],
    ['myapp://cb', false],
    ['', false],
  ])('allows the redirect URI %p: %p', (uri, allowed) => {
    expect(isAllowedRedirectUri(uri)).toBe(allowed);
  });

  it('allows an empty logo or an https one', () => {
    expect(isAllowedLogoUrl('')).toBe(true);
    expect(isAllowedLogoUrl('https://cdn.example/logo.png')).toBe(true);
    expect(isAllowedLogoUrl('http://cdn.example/logo.png')).toBe(false);
  });
});
