import type { ModeName } from '@orquestra/contracts';

/**
 * The OAuth design's rules that accounts needs (docs/oauth.md): who a library model belongs to,
 * what access a grant gives and which redirect URIs an app may register. No I/O.
 */

export type OAuthAccessName = 'full' | 'restricted';

/** The scopes an app may ask for; the merchant grants exactly one of them. */
export const OAUTH_SCOPES = { full: 'payments:full', restricted: 'payments:restricted' } as const;

/**
 * The library's accountId of a merchant's authorization: `<merchant_id>:<mode>`. A merchant that
 * authorizes one app in test and in live holds two grants, each acting in its own mode only.
 */
export function oauthAccountId(merchantId: string, mode: ModeName): string {
  return `${merchantId}:${mode}`;
}

export function parseOAuthAccountId(accountId: unknown): { merchant_id: string; mode: ModeName } | undefined {
  if (typeof accountId !== 'string') return undefined;
  const match = /^(acct_[a-z0-9]+):(test|live)$/.exec(accountId);
  return match ? { merchant_id: match[1]!, mode: match[2] as ModeName } : undefined;
}

/** Full only when the granted scope names `payments:full`; anything else is restricted (fail closed). */
export function accessOfScope(scope: unknown): OAuthAccessName {
  return typeof scope === 'string' && scope.split(' ').includes(OAUTH_SCOPES.full) ? 'full' : 'restricted';
}

/**
 * A redirect URI an app may register: https with a host, or http on localhost / 127.0.0.1 for
 * development; no fragment (RFC 6749 §3.1.2) and no credentials in the URI.
 */
export function isAllowedRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || url.username || url.password || value.includes('#')) return false;
  if (url.protocol === 'https:') return url.hostname.length > 0;
  return url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1');
}

/** A logo URL: empty, or https (http only on localhost, as redirect URIs). */
export function isAllowedLogoUrl(value: string): boolean {
  return value === '' || isAllowedRedirectUri(value);
}
