import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { RoutingRuleIdParamsSchema } from '../schemas/path-params.schema';
import { DeletedRoutingRuleSchema, RoutingRuleListSchema, RoutingRuleSchema } from '../schemas/routing-rule.response.schema';
import { ReorderRoutingRulesSchema, RoutingRuleInputSchema, UpdateRoutingRuleSchema } from '../schemas/routing-rule.schema';
import { RoutingSimulationSchema } from '../schemas/routing-simulation.response.schema';
import { SimulateRoutingSchema } from '../schemas/routing-simulation.schema';
import { BEARER, errorResponses, FULL_KEY_ERRORS, json } from './openapi.helpers';

const TAG = ['Routing'];
const BODY_ERRORS = ['invalid_json', 'parameter_missing', 'parameter_invalid'] as const;

/** /v1/routing-rules… and POST /v1/routing/simulate (all full-key only). */
export function registerRoutingPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/v1/routing-rules',
    operationId: 'listRoutingRules',
    tags: TAG,
    summary: 'Lista as regras de roteamento do modo da chave, na ordem de avaliação',
    security: BEARER,
    responses: { 200: json(RoutingRuleListSchema, 'As regras.'), ...errorResponses(...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/routing-rules',
    operationId: 'createRoutingRule',
    tags: TAG,
    summary: 'Cria uma regra de roteamento',
    description: 'As contas do alvo precisam estar conectadas no modo da chave. Sem priority, a regra entra depois da última.',
    security: BEARER,
    request: { body: { required: true, content: { 'application/json': { schema: RoutingRuleInputSchema } } } },
    responses: { 201: json(RoutingRuleSchema, 'A regra criada.'), ...errorResponses(...BODY_ERRORS, ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/routing-rules/reorder',
    operationId: 'reorderRoutingRules',
    tags: TAG,
    summary: 'Define a ordem de avaliação das regras',
    description: 'Envie todos os ids das regras do modo, cada um uma vez; recebem as prioridades 1, 2, 3…',
    security: BEARER,
    request: { body: { required: true, content: { 'application/json': { schema: ReorderRoutingRulesSchema } } } },
    responses: { 200: json(RoutingRuleListSchema, 'As regras na nova ordem.'), ...errorResponses(...BODY_ERRORS, ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/routing-rules/{id}',
    operationId: 'getRoutingRule',
    tags: TAG,
    summary: 'Consulta uma regra de roteamento',
    security: BEARER,
    request: { params: RoutingRuleIdParamsSchema },
    responses: { 200: json(RoutingRuleSchema, 'A regra.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/routing-rules/{id}',
    operationId: 'updateRoutingRule',
    tags: TAG,
    summary: 'Altera uma regra de roteamento',
    description: 'Só os campos enviados mudam; conditions e target, quando enviados, substituem os atuais por inteiro.',
    security: BEARER,
    request: {
      params: RoutingRuleIdParamsSchema,
      body: { required: true, content: { 'application/json': { schema: UpdateRoutingRuleSchema } } },
    },
    responses: { 200: json(RoutingRuleSchema, 'A regra alterada.'), ...errorResponses(...BODY_ERRORS, 'not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'delete',
    path: '/v1/routing-rules/{id}',
    operationId: 'deleteRoutingRule',
    tags: TAG,
    summary: 'Remove uma regra de roteamento',
    security: BEARER,
    request: { params: RoutingRuleIdParamsSchema },
    responses: { 200: json(DeletedRoutingRuleSchema, 'A regra foi removida.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/routing/simulate',
    operationId: 'simulateRouting',
    tags: TAG,
    summary: 'Simula o roteamento de um pagamento, sem criar nada',
    description:
      'Mostra as contas que seriam tentadas, em ordem, e, para cada conta conectada, se seria escolhida, tentada depois ' +
      'ou excluída, e por quê (regra, elegibilidade, disjuntor aberto, conta desativada). Quando nenhuma conta aceitaria ' +
      'o pagamento, error traz o erro que a criação daria.',
    security: BEARER,
    request: { body: { required: true, content: { 'application/json': { schema: SimulateRoutingSchema } } } },
    responses: {
      200: json(RoutingSimulationSchema, 'O resultado da simulação.'),
      ...errorResponses(...BODY_ERRORS, 'amount_too_small', 'metadata_invalid', ...FULL_KEY_ERRORS),
    },
  });
}
