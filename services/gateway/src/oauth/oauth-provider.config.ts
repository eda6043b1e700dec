import type { AdapterConstructor, Configuration, JWKS, KoaContextWithOIDC } from 'oidc-provider';
import { renderOAuthErrorPage } from './consent.page';
import { SUPPORTED_SCOPES } from './oauth.scopes';

/** Lifetimes in seconds (docs/oauth.md "Tokens"). */
export const OAUTH_TTL = {
  AccessToken: 10 * 60,
  AuthorizationCode: 60,
  RefreshToken: 30 * 24 * 60 * 60,
  Interaction: 10 * 60,
  Session: 60 * 60,
  // A merchant's authorization stands until revoked; a grant's expiry would end its refresh tokens.
  Grant: 10 * 365 * 24 * 60 * 60,
} as const;

export interface OAuthProviderOptions {
  adapter: AdapterConstructor;
  /** Keys signing the library's cookies; the first signs, all verify (same list on every replica). */
  cookieKeys: string[];
  jwks: JWKS;
  /** The path the interaction (consent) page is served at, `<mount>/interaction`. */
  interactionPath: string;
  /** Cookies marked Secure (false only for plain-http local development). */
  secureCookies: boolean;
}

/**
 * oidc-provider's configuration for Orquestra's OAuth apps: authorization code with PKCE (S256
 * required for every client), refresh tokens rotated on each use, opaque access tokens of
 * ten minutes checked by the gateway against the store on every /v1 call, no ID tokens (no openid
 * scope is ever granted), no dynamic registration (owners register apps in the dashboard).
 */
export function oauthProviderConfiguration(options: OAuthProviderOptions): Configuration {
  const cookie = { signed: true, httpOnly: true, sameSite: 'lax' as const, secure: options.secureCookies };
  return {
    adapter: options.adapter,
    clients: [],
    scopes: [...SUPPORTED_SCOPES],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    pkce: { methods: ['S256'], required: () => true },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      introspection: { enabled: false },
      userinfo: { enabled: false },
      registration: { enabled: false },
      rpInitiatedLogout: { enabled: true, logoutSource: logoutSourcePtBr },
    },
    ttl: { ...OAUTH_TTL, IdToken: OAUTH_TTL.AccessToken },
    // Tokens belong to the merchant's grant, not to the browser session that authorized it.
    expiresWithSession: async () => false,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Every refresh consumes the refresh token and issues a new one; a replayed one revokes the grant.
    rotateRefreshToken: true,
    // The merchant chooses mode and access on every authorization: never reuse an earlier grant
    // silently; only the grant the consent page just made is loaded.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    interactions: { url: async (_ctx, interaction) => `${options.interactionPath}/${interaction.uid}` },
    cookies: { keys: options.cookieKeys, long: cookie, short: cookie },
    jwks: options.jwks,
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = renderOAuthErrorPage(oauthErrorMessage(out.error));
    },
    allowOmittingSingleRegisteredRedirectUri: false,
  };
}

async function logoutSourcePtBr(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  ctx.type = 'html';
  ctx.body = renderOAuthErrorPage(
    'Você estava conectado com outra conta. Confirme para sair e continuar.',
    `${form}<button type="submit" form="op.logoutForm" name="logout" value="yes" class="primary">Sair e continuar</button>`,
  );
}

/** The library's error codes as the merchant should read them (its descriptions are English). */
export function oauthErrorMessage(code: string): string {
  switch (code) {
    case 'invalid_client':
      return 'Este app não está registrado ou foi removido pelo seu dono.';
    case 'invalid_redirect_uri':
      return 'O endereço de retorno pedido pelo app não está entre os registrados para ele.';
    case 'invalid_scope':
      return 'O app pediu permissões que não existem. Ele deve pedir payments:full ou payments:restricted e mode:test ou mode:live.';
    case 'invalid_request':
      return 'O pedido de autorização do app está incompleto ou inválido (o PKCE com S256 é obrigatório).';
    case 'session_not_found':
    case 'invalid_grant':
      return 'Esta autorização expirou ou já foi usada. Volte ao app e comece de novo.';
    case 'access_denied':
      return 'A autorização foi recusada.';
    default:
      return 'Ocorreu um erro na autorização. Volte ao app e tente de novo.';
  }
}
