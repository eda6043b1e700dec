import type { AdapterConstructor, Client, KoaContextWithOIDC } from 'oidc-provider';
import { OAUTH_TTL, oauthErrorMessage, oauthProviderConfiguration } from './oauth-provider.config';

describe('OAuth server configuration', () => {
  const config = oauthProviderConfiguration({
    adapter: class {} as unknown as AdapterConstructor,
    cookieKeys: ['k'],
    jwks: { keys: [] },
    interactionPath: '/oauth/interaction',
    secureCookies: true,
  });
  const ctx = {} as KoaContextWithOIDC;
  const client = { grantTypeAllowed: (grant: string) => grant === 'refresh_token' } as unknown as Client;

  it('requires PKCE with S256 (never plain) of every client', () => {
    expect(config.pkce?.methods).toEqual(['S256']);
    expect(config.pkce?.required?.(ctx, client)).toBe(true);
  });

  it('issues ten-minute opaque access tokens and rotating refresh tokens not bound to the browser session', async () => {
    expect(config.ttl?.AccessToken).toBe(600);
    expect(OAUTH_TTL.RefreshToken).toBe(30 * 24 * 3600);
    expect(config.rotateRefreshToken).toBe(true);
    expect(await config.issueRefreshToken?.(ctx, client, {} as never)).toBe(true);
    expect(await (config.expiresWithSession as (c: unknown, code: unknown) => Promise<boolean>)(ctx, {})).toBe(false);
  });

  it('offers only the code flow, our scopes, and no dynamic registration or dev login', () => {
    expect(config.responseTypes).toEqual(['code']);
    expect(config.scopes).toEqual(['payments:full', 'payments:restricted', 'mode:test', 'mode:live']);
    expect(config.features?.registration?.enabled).toBe(false);
    expect(config.features?.devInteractions?.enabled).toBe(false);
  });

  it('never reuses an earlier grant: the merchant chooses on every authorization', async () => {
    expect(await config.loadExistingGrant?.({ oidc: { result: undefined } } as unknown as KoaContextWithOIDC)).toBeUndefined();
  });

  it('signs its cookies, HttpOnly and SameSite=Lax', () => {
    expect(config.cookies?.keys).toEqual(['k']);
    expect(config.cookies?.short).toMatchObject({ signed: true, httpOnly: true, sameSite: 'lax', secure: true });
  });

  it('explains errors in Portuguese', () => {
    expect(oauthErrorMessage('invalid_request')).toMatch(/PKCE/);
    expect(oauthErrorMessage('whatever')).toMatch(/tente de novo/);
  });
});
