import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { CreateSubaccountSchema, SubaccountIdempotencyHeadersSchema, UpdateSubaccountSchema } from '../schemas/create-subaccount.schema';
import { ListSubaccountsQuerySchema } from '../schemas/list-subaccounts.schema';
import { SubaccountIdParamsSchema } from '../schemas/path-params.schema';
import {
  SubaccountBalanceSchema,
  SubaccountDetailSchema,
  SubaccountListSchema,
  SubaccountOnboardingLinkSchema,
  SubaccountSchema,
} from '../schemas/subaccount.response.schema';
import { BEARER, errorResponses, FULL_KEY_ERRORS, json, REPLAYED_HEADER, REQUEST_ID_HEADER } from './openapi.helpers';

const TAG = ['Subaccounts'];
const FULL_KEY_ONLY = 'Só chaves completas: chaves restritas não veem nem alteram subcontas (403 restricted_key).';
const PROVIDER_ERRORS = ['provider_rejected', 'provider_unavailable', 'provider_timeout', 'provider_error'] as const;

/** /v1/subaccounts… (§4 "Subaccounts"; withdrawals come with their own slice). */
export function registerSubaccountPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/v1/subaccounts',
    operationId: 'createSubaccount',
    tags: TAG,
    summary: 'Cria uma subconta (um vendedor) na conta de provedor conectada, para receber divisões de pagamentos',
    description:
      'Os campos exigidos dependem do provedor da conta (GET /v1/providers, capabilities.subaccounts.requires): faltando um, ' +
      '400 com error.param nomeando o campo. O documento é conferido pelos dígitos verificadores (CPF, CNPJ e CNPJ alfanumérico). ' +
      'Com Idempotency-Key, a mesma chave com o mesmo corpo devolve a mesma subconta (201, Idempotent-Replayed: true); ' +
      'com outro corpo, 409 idempotency_conflict. A subconta nasce pending enquanto o provedor analisa o cadastro; ' +
      'acompanhe pelos eventos subaccount.* ou por POST /v1/subaccounts/{id}/sync. ' +
      FULL_KEY_ONLY,
    security: BEARER,
    request: {
      headers: SubaccountIdempotencyHeadersSchema,
      body: { required: true, content: { 'application/json': { schema: CreateSubaccountSchema } } },
    },
    responses: {
      201: {
        description: 'Subconta criada (ou repetida pela Idempotency-Key).',
        headers: { ...REPLAYED_HEADER, ...REQUEST_ID_HEADER },
        content: { 'application/json': { schema: SubaccountSchema } },
      },
      ...errorResponses(
        'invalid_json',
        'parameter_missing',
        'parameter_invalid',
        'metadata_invalid',
        'not_found',
        'idempotency_conflict',
        ...PROVIDER_ERRORS,
        ...FULL_KEY_ERRORS,
      ),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/subaccounts',
    operationId: 'listSubaccounts',
    tags: TAG,
    summary: 'Lista subcontas (mais novas primeiro)',
    description: FULL_KEY_ONLY,
    security: BEARER,
    request: { query: ListSubaccountsQuerySchema },
    responses: { 200: json(SubaccountListSchema, 'Uma página de subcontas.'), ...errorResponses('parameter_invalid', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/subaccounts/{id}',
    operationId: 'getSubaccount',
    tags: TAG,
    summary: 'Consulta uma subconta',
    description: FULL_KEY_ONLY,
    security: BEARER,
    request: { params: SubaccountIdParamsSchema },
    responses: { 200: json(SubaccountDetailSchema, 'A subconta, com os totais e os pagamentos recentes com divisão para ela.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'patch',
    path: '/v1/subaccounts/{id}',
    operationId: 'updateSubaccount',
    tags: TAG,
    summary: 'Altera name e metadata da subconta (só no serviço, nunca no provedor)',
    description: 'Qualquer outro campo é recusado (400 parameter_invalid): os dados cadastrais no provedor não mudam por aqui. ' + FULL_KEY_ONLY,
    security: BEARER,
    request: {
      params: SubaccountIdParamsSchema,
      body: { required: true, content: { 'application/json': { schema: UpdateSubaccountSchema } } },
    },
    responses: {
      200: json(SubaccountSchema, 'A subconta alterada.'),
      ...errorResponses('invalid_json', 'parameter_missing', 'parameter_invalid', 'metadata_invalid', 'not_found', ...FULL_KEY_ERRORS),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/subaccounts/{id}/sync',
    operationId: 'syncSubaccount',
    tags: TAG,
    summary: 'Pergunta ao provedor o status da subconta agora e o aplica',
    description: FULL_KEY_ONLY,
    security: BEARER,
    request: { params: SubaccountIdParamsSchema },
    responses: {
      200: json(SubaccountSchema, 'A subconta, como o provedor a vê agora.'),
      ...errorResponses('not_found', ...PROVIDER_ERRORS, ...FULL_KEY_ERRORS),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/subaccounts/{id}/onboarding-link',
    operationId: 'createSubaccountOnboardingLink',
    tags: TAG,
    summary: 'Link para o titular completar a verificação de identidade no provedor',
    description:
      'Para provedores com verificação de identidade pelo próprio titular; os demais respondem com o erro do serviço. ' +
      'O link expira em expires_at; peça outro depois disso. ' +
      FULL_KEY_ONLY,
    security: BEARER,
    request: { params: SubaccountIdParamsSchema },
    responses: {
      200: json(SubaccountOnboardingLinkSchema, 'O link.'),
      ...errorResponses('not_found', ...PROVIDER_ERRORS, ...FULL_KEY_ERRORS),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/subaccounts/{id}/balance',
    operationId: 'getSubaccountBalance',
    tags: TAG,
    summary: 'Saldo da subconta, lido do provedor agora',
    description: FULL_KEY_ONLY,
    security: BEARER,
    request: { params: SubaccountIdParamsSchema },
    responses: {
      200: json(SubaccountBalanceSchema, 'O saldo.'),
      ...errorResponses('not_found', ...PROVIDER_ERRORS, ...FULL_KEY_ERRORS),
    },
  });
}
