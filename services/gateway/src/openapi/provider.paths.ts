import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { ProviderAccountIdParamsSchema } from '../schemas/path-params.schema';
import { ProviderAccountListSchema, ProviderAccountSchema } from '../schemas/provider-account.response.schema';
import { ConnectProviderAccountSchema, UpdateProviderAccountSchema } from '../schemas/provider-account.schema';
import { ProviderListSchema } from '../schemas/provider.response.schema';
import { BEARER, errorResponses, FULL_KEY_ERRORS, json } from './openapi.helpers';

const TAG = ['Provider accounts'];

/** GET /v1/providers and /v1/provider-accounts… (all full-key only). */
export function registerProviderPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/v1/providers',
    operationId: 'listProviders',
    tags: ['Providers'],
    summary: 'Lista os provedores aceitos, os campos de credenciais e as capacidades de cada um',
    security: BEARER,
    responses: { 200: json(ProviderListSchema, 'O catálogo de provedores.'), ...errorResponses(...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/provider-accounts',
    operationId: 'listProviderAccounts',
    tags: TAG,
    summary: 'Lista as contas conectadas no modo da chave, por prioridade',
    description: 'As credenciais nunca são devolvidas: só os 4 últimos caracteres de cada campo (credentials_last4).',
    security: BEARER,
    responses: { 200: json(ProviderAccountListSchema, 'As contas conectadas.'), ...errorResponses(...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/provider-accounts',
    operationId: 'connectProviderAccount',
    tags: TAG,
    summary: 'Conecta uma conta de provedor no modo da chave',
    description:
      'As credenciais são conferidas no provedor antes de a conta ser guardada (cifradas). ' +
      'Credenciais recusadas pelo provedor: 400 invalid_credentials.',
    security: BEARER,
    request: { body: { required: true, content: { 'application/json': { schema: ConnectProviderAccountSchema } } } },
    responses: {
      201: json(ProviderAccountSchema, 'A conta conectada.'),
      ...errorResponses(
        'invalid_json',
        'parameter_missing',
        'parameter_invalid',
        'invalid_credentials',
        'provider_unavailable',
        'provider_timeout',
        'provider_error',
        ...FULL_KEY_ERRORS,
      ),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/provider-accounts/{id}',
    operationId: 'getProviderAccount',
    tags: TAG,
    summary: 'Consulta uma conta conectada',
    security: BEARER,
    request: { params: ProviderAccountIdParamsSchema },
    responses: { 200: json(ProviderAccountSchema, 'A conta.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/provider-accounts/{id}',
    operationId: 'updateProviderAccount',
    tags: TAG,
    summary: 'Altera nome, prioridade, taxas ou se a conta está ativa',
    description:
      'Só os campos enviados mudam; fees substitui todas as taxas. Credenciais não podem ser alteradas ' +
      '(400 parameter_invalid, param credentials): conecte a conta de novo e desative a antiga.',
    security: BEARER,
    request: {
      params: ProviderAccountIdParamsSchema,
      body: { required: true, content: { 'application/json': { schema: UpdateProviderAccountSchema } } },
    },
    responses: {
      200: json(ProviderAccountSchema, 'A conta alterada.'),
      ...errorResponses('invalid_json', 'parameter_missing', 'parameter_invalid', 'not_found', ...FULL_KEY_ERRORS),
    },
  });

  for (const [action, summary] of [
    ['disable', 'Desativa a conta: ela deixa de receber pagamentos'],
    ['enable', 'Reativa a conta'],
  ] as const) {
    registry.registerPath({
      method: 'post',
      path: `/v1/provider-accounts/{id}/${action}`,
      operationId: `${action}ProviderAccount`,
      tags: TAG,
      summary,
      security: BEARER,
      request: { params: ProviderAccountIdParamsSchema },
      responses: { 200: json(ProviderAccountSchema, 'A conta.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
    });
  }
}
