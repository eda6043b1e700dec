import { common } from '@orquestra/contracts';

/**
 * The scopes of Orquestra's OAuth apps (docs/oauth.md). An app asks for the access levels and
 * modes it can use; on the consent page the merchant grants exactly one access level and one mode
 * among those asked, and every token of that grant acts as an API key of that kind and mode.
 */
export const OAUTH_SCOPES = {
  full: 'payments:full',
  restricted: 'payments:restricted',
  test: 'mode:test',
  live: 'mode:live',
} as const;

export type OAuthAccess = 'full' | 'restricted';
export type OAuthMode = 'test' | 'live';

/** Every scope the server knows; anything else in a request is refused as invalid_scope. */
export const SUPPORTED_SCOPES = Object.values(OAUTH_SCOPES);

/** What the consent page may offer for a requested scope string. */
export function offeredChoices(requested: string | undefined): { accesses: OAuthAccess[]; modes: OAuthMode[] } {
  const scopes = new Set((requested ?? '').split(' ').filter(Boolean));
  return {
    accesses: (['full', 'restricted'] as const).filter((access) => scopes.has(OAUTH_SCOPES[access])),
    modes: (['test', 'live'] as const).filter((mode) => scopes.has(OAUTH_SCOPES[mode])),
  };
}

/** The scope a grant receives for the merchant's choice. */
export function grantedScope(access: OAuthAccess, mode: OAuthMode): string {
  return `${OAUTH_SCOPES[access]} ${OAUTH_SCOPES[mode]}`;
}

/** Who calls /v1 with an access token: the same shape as a resolved API key. */
export interface TokenIdentity {
  merchant_id: string;
  key_id: string;
  mode: common.Mode;
  restricted: boolean;
}

/**
 * Maps an access token's subject and scope to the caller of /v1, or undefined when the scope does
 * not name exactly one mode and an access level (fail closed). Restricted wins over full when both
 * appear. `key_id` is `oauth:<client_id>`: stable across refreshes and re-authorizations, so a
 * restricted app keeps reading the payments it created (§5.4 "only payments it created").
 */
export function tokenIdentity(token: { accountId?: unknown; scope?: unknown; clientId?: unknown }): TokenIdentity | undefined {
  const { accountId, scope, clientId } = token;
  if (typeof accountId !== 'string' || !/^acct_[a-z0-9]+$/.test(accountId)) return undefined;
  if (typeof clientId !== 'string' || !clientId || typeof scope !== 'string') return undefined;
  const scopes = new Set(scope.split(' '));
  const modes = (['test', 'live'] as const).filter((mode) => scopes.has(OAUTH_SCOPES[mode]));
  if (modes.length !== 1) return undefined;
  const full = scopes.has(OAUTH_SCOPES.full);
  const restricted = scopes.has(OAUTH_SCOPES.restricted);
  if (!full && !restricted) return undefined;
  return {
    merchant_id: accountId,
    key_id: `oauth:${clientId}`,
    mode: modes[0] === 'live' ? common.Mode.MODE_LIVE : common.Mode.MODE_TEST,
    restricted: restricted || !full,
  };
}
