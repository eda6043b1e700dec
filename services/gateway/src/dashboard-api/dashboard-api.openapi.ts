import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { ErrorCode } from '@orquestra/platform';
import { errorResponses, json } from '../openapi/openapi.helpers';
import { registerDashboardOAuthPaths } from '../oauth/dashboard-oauth.openapi';
import { ErrorBodySchema } from '../schemas/error.response.schema';
import { z } from '../schemas/zod-openapi';
import {
  ApiKeyListSchema,
  AuditListSchema,
  AuditQuerySchema,
  CreatedKeySchema,
  CreateKeyBodySchema,
  KeyIdParamsSchema,
  MeAnswerSchema,
  PayoutDestinationBodySchema,
  PayoutDestinationListSchema,
  PayoutDestinationSchema,
  PayoutSettingsBodySchema,
  PayoutSettingsSchema,
  RevokedKeySchema,
  SessionAnswerSchema,
  SignInBodySchema,
  SignUpBodySchema,
  TotpCodeBodySchema,
  TotpSetupAnswerSchema,
} from './dashboard.schemas';

const COOKIE = [{ ownerSession: [] as string[] }];
const NONE: Array<Record<string, string[]>> = [];
const TAGS = ['Dashboard'];
const SESSION_ERRORS: ErrorCode[] = ['unauthenticated', 'service_unavailable', 'internal'];
const MUTATION_ERRORS: ErrorCode[] = ['csrf_invalid', ...SESSION_ERRORS];
const ModeQuery = z.object({ mode: z.enum(['test', 'live']).optional() });
const CsrfHeader = z.object({ 'X-CSRF-Token': z.string().openapi({ description: 'O csrf_token de GET /dashboard/api/me.' }) });
const noContent: ResponseConfig = { description: 'Feito.' };

/**
 * The dashboard API's own OpenAPI 3.1 document (GET /dashboard/api/openapi.json): the owner's
 * routes, apart from the public API's document because no API key reaches them. The bridge
 * /dashboard/api/v1/* is the public document's /v1 with the owner's session instead of a key.
 */
export function buildDashboardOpenApiDocument(options: { serverUrl: string }): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'ownerSession', { type: 'apiKey', in: 'cookie', name: 'orq_session', description: 'Sessão do dono (POST /dashboard/api/session).' });
  registry.register('Error', ErrorBodySchema);
  const path = (method: 'get' | 'post' | 'patch' | 'delete', route: string, spec: Omit<Parameters<OpenAPIRegistry['registerPath']>[0], 'method' | 'path' | 'tags'>) =>
    registry.registerPath({ method, path: `/dashboard/api${route}`, tags: TAGS, ...spec });

  path('get', '/openapi.json', { operationId: 'dashboardOpenApi', summary: 'Este documento', security: NONE, responses: { 200: json(z.record(z.string(), z.unknown()), 'Documento OpenAPI 3.1.') } });
  path('post', '/signup', {
    operationId: 'dashboardSignUp',
    summary: 'Cria um lojista com seu dono e abre uma sessão (cookie orq_session)',
    security: NONE,
    request: { body: { content: { 'application/json': { schema: SignUpBodySchema } } } },
    responses: { 201: json(SessionAnswerSchema, 'Lojista e dono criados; sessão aberta.'), ...errorResponses('parameter_missing', 'parameter_invalid', 'invalid_json', 'rate_limited', 'service_unavailable', 'internal') },
  });
  path('post', '/session', {
    operationId: 'dashboardSignIn',
    summary: 'Entra com e-mail, senha e, se ativado, o código TOTP',
    security: NONE,
    request: { body: { content: { 'application/json': { schema: SignInBodySchema } } } },
    responses: {
      200: json(SessionAnswerSchema, 'Sessão aberta (cookie orq_session).'),
      401: json(ErrorBodySchema, 'invalid_credentials (e-mail ou senha) ou totp_required (param totp_code).'),
      429: { ...json(ErrorBodySchema, 'rate_limited: muitas tentativas deste e-mail ou IP.'), headers: { 'Retry-After': { description: 'Segundos até tentar de novo.', schema: { type: 'integer' } } } },
      ...errorResponses('parameter_missing', 'parameter_invalid', 'invalid_json', 'service_unavailable'),
    },
  });
  path('delete', '/session', { operationId: 'dashboardSignOut', summary: 'Sai (esta sessão)', security: COOKIE, request: { headers: CsrfHeader }, responses: { 204: noContent, ...errorResponses(...MUTATION_ERRORS) } });
  path('post', '/sessions/revoke-all', { operationId: 'dashboardSignOutEverywhere', summary: 'Sai de todas as sessões, esta inclusive', security: COOKIE, request: { headers: CsrfHeader }, responses: { 204: noContent, ...errorResponses(...MUTATION_ERRORS) } });
  path('get', '/me', { operationId: 'dashboardMe', summary: 'O dono, o lojista e o token CSRF da sessão', security: COOKIE, responses: { 200: json(MeAnswerSchema, 'A sessão.'), ...errorResponses(...SESSION_ERRORS) } });
  path('post', '/totp/setup', { operationId: 'dashboardTotpSetup', summary: 'Começa a configurar a verificação em duas etapas (TOTP)', security: COOKIE, request: { headers: CsrfHeader }, responses: { 200: json(TotpSetupAnswerSchema, 'Segredo e URL otpauth.'), ...errorResponses('parameter_invalid', ...MUTATION_ERRORS) } });
  for (const action of ['enable', 'disable'] as const) {
    path('post', `/totp/${action}`, {
      operationId: `dashboardTotp${action === 'enable' ? 'Enable' : 'Disable'}`,
      summary: action === 'enable' ? 'Ativa o TOTP com um código do aplicativo' : 'Desativa o TOTP com um código do aplicativo',
      security: COOKIE,
      request: { headers: CsrfHeader, body: { content: { 'application/json': { schema: TotpCodeBodySchema } } } },
      responses: { 200: json(z.object({ owner: MeAnswerSchema.shape.owner }), 'O dono.'), ...errorResponses('parameter_invalid', 'invalid_json', ...MUTATION_ERRORS) },
    });
  }
  path('get', '/keys', { operationId: 'dashboardListApiKeys', summary: 'Lista as chaves de API do modo', security: COOKIE, request: { query: ModeQuery }, responses: { 200: json(ApiKeyListSchema, 'As chaves (nunca o segredo).'), ...errorResponses('parameter_invalid', ...SESSION_ERRORS) } });
  path('post', '/keys', {
    operationId: 'dashboardCreateApiKey',
    summary: 'Cria uma chave de API (o segredo é mostrado só nesta resposta)',
    security: COOKIE,
    request: { headers: CsrfHeader, body: { content: { 'application/json': { schema: CreateKeyBodySchema } } } },
    responses: { 201: json(CreatedKeySchema, 'A chave e seu segredo.'), ...errorResponses('parameter_missing', 'parameter_invalid', 'invalid_json', ...MUTATION_ERRORS) },
  });
  path('delete', '/keys/{id}', {
    operationId: 'dashboardRevokeApiKey',
    summary: 'Revoga uma chave: ela falha na hora em todas as rotas',
    security: COOKIE,
    request: { headers: CsrfHeader, params: KeyIdParamsSchema },
    responses: { 200: json(RevokedKeySchema, 'A chave revogada.'), ...errorResponses('parameter_invalid', 'not_found', ...MUTATION_ERRORS) },
  });
  path('get', '/audit', { operationId: 'dashboardAudit', summary: 'Registro de ações do dono, mais novas primeiro', security: COOKIE, request: { query: AuditQuerySchema }, responses: { 200: json(AuditListSchema, 'Uma página do registro.'), ...errorResponses('parameter_invalid', ...SESSION_ERRORS) } });
  path('get', '/payout-settings', { operationId: 'dashboardPayoutSettings', summary: 'Repasses pela API e limite diário do modo', security: COOKIE, request: { query: ModeQuery }, responses: { 200: json(PayoutSettingsSchema, 'Os controles.'), ...errorResponses('parameter_invalid', ...SESSION_ERRORS) } });
  path('patch', '/payout-settings', {
    operationId: 'dashboardUpdatePayoutSettings',
    summary: 'Liga ou desliga os repasses pela API e muda o limite diário',
    security: COOKIE,
    request: { headers: CsrfHeader, query: ModeQuery, body: { content: { 'application/json': { schema: PayoutSettingsBodySchema } } } },
    responses: { 200: json(PayoutSettingsSchema, 'Os controles.'), ...errorResponses('parameter_missing', 'parameter_invalid', 'invalid_json', ...MUTATION_ERRORS) },
  });
  path('get', '/payout-destinations', { operationId: 'dashboardPayoutDestinations', summary: 'Chaves Pix salvas para repasses', security: COOKIE, request: { query: ModeQuery }, responses: { 200: json(PayoutDestinationListSchema, 'As chaves salvas.'), ...errorResponses('parameter_invalid', ...SESSION_ERRORS) } });
  path('post', '/payout-destinations', {
    operationId: 'dashboardCreatePayoutDestination',
    summary: 'Salva uma chave Pix da empresa como destino de repasses',
    security: COOKIE,
    request: { headers: CsrfHeader, query: ModeQuery, body: { content: { 'application/json': { schema: PayoutDestinationBodySchema } } } },
    responses: { 201: json(PayoutDestinationSchema, 'A chave salva (a mesma, se já estava salva).'), ...errorResponses('parameter_missing', 'parameter_invalid', 'invalid_json', ...MUTATION_ERRORS) },
  });

  // The OAuth apps' routes (services/gateway/src/oauth, docs/oauth.md).
  registerDashboardOAuthPaths(registry);

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Orquestra — API do painel',
      version: '2026-11-28',
      description:
        'Rotas do painel do dono (mesma origem, cookie orq_session, X-CSRF-Token em toda rota que não seja GET, exceto signup e session; nenhuma chave de API). ' +
        '/dashboard/api/v1/* é a API pública /v1 (veja /v1/openapi.json) com a sessão do dono no lugar de uma chave completa; o modo vem de ?mode= ou X-Orquestra-Mode (test por padrão).',
    },
    servers: [{ url: options.serverUrl }],
  });
}
