import { AppError } from '@orquestra/platform';
import { tokenIdentity, type TokenIdentity } from './oauth.scopes';

/** The part of an access token the gateway reads (oidc-provider's AccessToken model). */
export interface StoredAccessToken {
  accountId?: unknown;
  clientId?: unknown;
  scope?: unknown;
}

/**
 * Resolves `Authorization: Bearer <access token>` on /v1 to the caller the token acts as. No cache:
 * each call finds the token in the store (through the library, which checks its format and expiry),
 * so a revoked authorization or a deleted app fails on the very next request, on every replica.
 */
export class AccessTokenResolver {
  constructor(private readonly findToken: (value: string) => Promise<StoredAccessToken | undefined>) {}

  /** Throws AppError `unauthenticated` for anything that is not a live token of a known grant. */
  async resolve(value: string): Promise<TokenIdentity> {
    // The library's opaque tokens are 43 base64url characters; anything else never costs a call.
    if (!/^[A-Za-z0-9_-]{20,128}$/.test(value)) throw new AppError('unauthenticated');
    const token = await this.findToken(value);
    const identity = token ? tokenIdentity(token) : undefined;
    if (!identity) throw new AppError('unauthenticated');
    return identity;
  }
}
