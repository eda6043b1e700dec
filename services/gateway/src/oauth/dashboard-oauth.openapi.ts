import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { ErrorCode } from '@orquestra/platform';
import { errorResponses, json } from '../openapi/openapi.helpers';
import { z } from '../schemas/zod-openapi';

const COOKIE = [{ ownerSession: [] as string[] }];
const TAGS = ['Dashboard — Apps OAuth'];
const SESSION_ERRORS: ErrorCode[] = ['unauthenticated', 'service_unavailable', 'internal'];
const MUTATION_ERRORS: ErrorCode[] = ['csrf_invalid', ...SESSION_ERRORS];
const CsrfHeader = z.object({ 'X-CSRF-Token': z.string().openapi({ description: 'O csrf_token de GET /dashboard/api/me.' }) });
const IdParams = z.object({ id: z.string() });

const OAuthAppSchema = z
  .object({
    id: z.string().openapi({ example: 'oapp_3f2a…' }),
    object: z.literal('oauth_app'),
    client_id: z.string(),
    name: z.string(),
    redirect_uris: z.array(z.string()),
    logo_url: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('DashboardOAuthApp');

const OAuthAuthorizationSchema = z
  .object({
    id: z.string(),
    object: z.literal('oauth_authorization'),
    app: z.object({ id: z.string(), name: z.string(), logo_url: z.string().nullable() }),
    mode: z.enum(['test', 'live']),
    access: z.enum(['full', 'restricted']),
    created_at: z.string(),
  })
  .openapi('DashboardOAuthAuthorization');

const RegisterAppBodySchema = z
  .object({
    name: z.string().max(100),
    redirect_uris: z.array(z.string()).min(1).max(10).openapi({ description: 'https://…, ou http://localhost… em desenvolvimento; sem fragmento.' }),
    logo_url: z.string().optional().openapi({ description: 'https; mostrado na página de consentimento.' }),
  })
  .openapi('DashboardRegisterOAuthAppBody');

const list = <T extends z.ZodTypeAny>(item: T) => z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() });

/** The dashboard's OAuth routes (dashboard-oauth.routes.ts) in the /dashboard/api document (docs/oauth.md). */
export function registerDashboardOAuthPaths(registry: OpenAPIRegistry): void {
  const path = (method: 'get' | 'post' | 'delete', route: string, spec: Omit<Parameters<OpenAPIRegistry['registerPath']>[0], 'method' | 'path' | 'tags' | 'security'>) =>
    registry.registerPath({ method, path: `/dashboard/api${route}`, tags: TAGS, security: COOKIE, ...spec });

  path('get', '/oauth/apps', { operationId: 'dashboardListOAuthApps', summary: 'Os apps OAuth que esta conta registrou (sem o segredo)', responses: { 200: json(list(OAuthAppSchema), 'Os apps.'), ...errorResponses(...SESSION_ERRORS) } });
  path('post', '/oauth/apps', {
    operationId: 'dashboardRegisterOAuthApp',
    summary: 'Registra um app OAuth: client_id e client_secret (mostrado só agora)',
    request: { headers: CsrfHeader, body: { content: { 'application/json': { schema: RegisterAppBodySchema } } } },
    responses: {
      201: json(OAuthAppSchema.extend({ client_secret: z.string() }), 'O app e seu segredo, mostrado uma vez.'),
      ...errorResponses('parameter_missing', 'parameter_invalid', 'invalid_json', ...MUTATION_ERRORS),
    },
  });
  path('delete', '/oauth/apps/{id}', {
    operationId: 'dashboardDeleteOAuthApp',
    summary: 'Remove um app: todas as autorizações e tokens dele deixam de valer na hora',
    request: { headers: CsrfHeader, params: IdParams },
    responses: { 200: json(z.object({ id: z.string(), object: z.literal('oauth_app'), deleted: z.literal(true) }), 'Removido.'), ...errorResponses('not_found', ...MUTATION_ERRORS) },
  });
  path('get', '/oauth/authorizations', {
    operationId: 'dashboardListOAuthAuthorizations',
    summary: 'Os apps que esta conta autorizou (modo e nível de acesso)',
    responses: { 200: json(list(OAuthAuthorizationSchema), 'As autorizações.'), ...errorResponses(...SESSION_ERRORS) },
  });
  path('delete', '/oauth/authorizations/{id}', {
    operationId: 'dashboardRevokeOAuthAuthorization',
    summary: 'Revoga uma autorização: os tokens do app falham na próxima chamada',
    request: { headers: CsrfHeader, params: IdParams },
    responses: { 200: json(z.object({ id: z.string(), object: z.literal('oauth_authorization'), revoked: z.literal(true) }), 'Revogada.'), ...errorResponses('not_found', ...MUTATION_ERRORS) },
  });
}
