import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Logger } from '@orquestra/platform';
import type { Router } from 'express';
import Provider, { type JWKS } from 'oidc-provider';
import { AccessTokenResolver } from './access-token.resolver';
import { dashboardOAuthRoutes } from './dashboard-oauth.routes';
import type { OAuthClients } from './oauth.clients';
import { oauthProviderConfiguration } from './oauth-provider.config';
import { grpcStoreAdapter } from './oauth-store.adapter';
import { oauthRoutes } from './oauth.routes';

/**
 * What the HTTP app mounts: the /oauth router, the /v1 access-token check and the dashboard's
 * OAuth routes (relative to /dashboard/api, mounted behind its session and CSRF middleware).
 */
export interface OAuthEdge {
  router: Router;
  accessTokens: AccessTokenResolver;
  dashboardRouter: Router;
}

export const OAUTH_MOUNT_PATH = '/oauth';

/**
 * Builds the OAuth server (oidc-provider) of the gateway. Loaded only by main.ts: the library is
 * an ES module, and unit tests of the HTTP app run without it.
 */
export function createOAuthEdge(options: {
  publicBaseUrl: string;
  clients: OAuthClients;
  logger: Logger;
  /** Cookie-signing keys shared by every replica; empty → one random key (one replica only). */
  cookieKeys: string[];
  /** The signing keys (JWKS JSON, RSA); empty → one RSA key made at start (nothing we issue is signed). */
  jwksJson?: string;
  trustProxy: boolean;
}): OAuthEdge {
  const issuer = `${options.publicBaseUrl.replace(/\/+$/, '')}${OAUTH_MOUNT_PATH}`;
  const cookieKeys = options.cookieKeys.length > 0 ? options.cookieKeys : [randomBytes(32).toString('base64url')];
  if (options.cookieKeys.length === 0) options.logger.warn('OAUTH_COOKIE_KEYS unset: a random key signs OAuth cookies (fine for one replica only)');
  const provider = new Provider(issuer, oauthProviderConfiguration({
    adapter: grpcStoreAdapter(options.clients.store),
    cookieKeys,
    jwks: options.jwksJson ? (JSON.parse(options.jwksJson) as JWKS) : ephemeralJwks(),
    interactionPath: `${OAUTH_MOUNT_PATH}/interaction`,
    secureCookies: new URL(issuer).protocol === 'https:',
  }));
  provider.proxy = options.trustProxy;
  provider.on('server_error', (_ctx, error) => options.logger.error({ err: error }, 'oauth server error'));
  // Refused requests are the client's mistakes: one line each, to help a platform debug its app.
  for (const event of ['authorization.error', 'grant.error', 'revocation.error'] as const) {
    provider.on(event, (_ctx, error: Error & { error?: string; error_description?: string }) =>
      options.logger.info({ event, error: error.error, error_description: error.error_description }, 'oauth request refused'));
  }
  provider.on('grant.revoked', (_ctx, grantId) => options.logger.info({ grant_id: grantId }, 'oauth grant revoked'));
  return {
    router: oauthRoutes({ provider, clients: options.clients, logger: options.logger, signInUrl: `${options.publicBaseUrl.replace(/\/+$/, '')}/dashboard`, mountPath: OAUTH_MOUNT_PATH }),
    accessTokens: new AccessTokenResolver(async (value) => provider.AccessToken.find(value)),
    dashboardRouter: dashboardOAuthRoutes({ clients: options.clients, logger: options.logger }),
  };
}

/** No ID token or JWT is ever issued (no openid scope is granted), so a per-process key suffices. */
function ephemeralJwks(): JWKS {
  // RSA: RS256 is the library's default client signing algorithm, so client metadata stays valid.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { keys: [{ ...(privateKey.export({ format: 'jwk' }) as Record<string, string>), alg: 'RS256', use: 'sig', kid: 'ephemeral' }] } as JWKS;
}
