import type { ModeName } from '@orquestra/contracts';

/**
 * The OAuth design's rules that accounts needs (docs/oauth.md): who a library model belongs to,
 * what access a grant gives and which redirect URIs an app may register. No I/O.
 */

export type OAuthAccessName = 'full' | 'restricted';

/**
 * The scopes (docs/oauth.md): an app asks for the access levels and modes it can use, the merchant
 * grants exactly one of each among those asked. A grant's and a token's scope is then e.g.
 * `payments:restricted mode:test`.
 */
export const OAUTH_SCOPES = {
  full: 'payments:full',
  restricted: 'payments:restricted',
  test: 'mode:test',
  live: 'mode:live',
} as const;

/** The library's accountId is the authorizing merchant's id. */
export function merchantOfAccountId(accountId: unknown): string | undefined {
  return typeof accountId === 'string' && /^acct_[a-z0-9]+$/.test(accountId) ? accountId : undefined;
}

/**
 * What a granted scope allows: the mode when exactly one mode scope is present (else nothing: fail
 * closed), full access only when `payments:full` is present and `payments:restricted` is not.
 */
export function grantOfScope(scope: unknown): { mode: ModeName; access: OAuthAccessName } | undefined {
  if (typeof scope !== 'string') return undefined;
  const scopes = new Set(scope.split(' '));
  const modes = (['test', 'live'] as const).filter((mode) => scopes.has(OAUTH_SCOPES[mode]));
  const [mode] = modes;
  if (modes.length !== 1 || !mode) return undefined;
  if (!scopes.has(OAUTH_SCOPES.full) && !scopes.has(OAUTH_SCOPES.restricted)) return undefined;
  const access: OAuthAccessName = scopes.has(OAUTH_SCOPES.full) && !scopes.has(OAUTH_SCOPES.restricted) ? 'full' : 'restricted';
  return { mode, access };
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
