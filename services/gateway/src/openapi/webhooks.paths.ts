import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { EVENT_CATALOGUE, PUBLIC_EVENT_TYPES } from '@orquestra/contracts';
import { EventSchema } from '../schemas/event.response.schema';
import { EventIdParamsSchema, WebhookDeliveryIdParamsSchema, WebhookEndpointIdParamsSchema } from '../schemas/path-params.schema';
import {
  DeletedWebhookEndpointSchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from '../schemas/webhook-endpoint.response.schema';
import {
  CreateWebhookEndpointSchema,
  ListWebhookDeliveriesQuerySchema,
  ListWebhookEndpointsQuerySchema,
  UpdateWebhookEndpointSchema,
} from '../schemas/webhook-endpoint.schema';
import { z } from '../schemas/zod-openapi';
import { AUTH_ERRORS, BEARER, errorResponses, FULL_KEY_ERRORS, json } from './openapi.helpers';

const TAG = ['Webhooks'];
const BODY_ERRORS = ['invalid_json', 'parameter_missing', 'parameter_invalid'] as const;

/** The catalogue as an enum component, each type with its meaning (docs/events.md is the prose). */
export const EventTypeSchema = z.enum(PUBLIC_EVENT_TYPES).openapi('EventType', {
  description: PUBLIC_EVENT_TYPES.map((type) => `- \`${type}\`${EVENT_CATALOGUE[type].status === 'reserved' ? ' (reservado)' : ''}: ${EVENT_CATALOGUE[type].description}`).join('\n'),
});

/** The event a webhook delivers: an Event whose type is one of the catalogue. */
const WebhookEventSchema = EventSchema.extend({ type: EventTypeSchema }).openapi('WebhookEvent');

const SIGNATURE_DOC =
  'Cada entrega é um POST com o objeto event no corpo e os cabeçalhos Service-Signature ' +
  '(t=<unix>,v1=<hex do HMAC-SHA256 de "<t>.<corpo bruto>" com o segredo whsec_…; um v1 por segredo válido durante a rotação) ' +
  'e Service-Event-Id (use-o para não processar duas vezes). Só 2xx conta como entregue; há novas tentativas por até 3 dias.';

/** /v1/events/{id}, /v1/webhook-endpoints…, /v1/webhook-deliveries… and the outgoing webhook itself. */
export function registerWebhookPaths(registry: OpenAPIRegistry): void {
  registry.register('EventType', EventTypeSchema);
  registry.register('WebhookEvent', WebhookEventSchema);

  registry.registerPath({
    method: 'get',
    path: '/v1/events/{id}',
    operationId: 'getEvent',
    tags: ['Events'],
    summary: 'Consulta um evento',
    description: 'Chaves restritas só veem eventos do que elas criaram.',
    security: BEARER,
    request: { params: EventIdParamsSchema },
    responses: { 200: json(EventSchema, 'O evento.'), ...errorResponses('not_found', ...AUTH_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/webhook-endpoints',
    operationId: 'createWebhookEndpoint',
    tags: TAG,
    summary: 'Cadastra um endpoint de webhook e devolve o segredo de assinatura (só desta vez)',
    description: SIGNATURE_DOC,
    security: BEARER,
    request: { body: { required: true, content: { 'application/json': { schema: CreateWebhookEndpointSchema } } } },
    responses: { 201: json(WebhookEndpointWithSecretSchema, 'O endpoint, com secret.'), ...errorResponses(...BODY_ERRORS, ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/webhook-endpoints',
    operationId: 'listWebhookEndpoints',
    tags: TAG,
    summary: 'Lista os endpoints de webhook do modo da chave (sem segredos)',
    security: BEARER,
    request: { query: ListWebhookEndpointsQuerySchema },
    responses: { 200: json(WebhookEndpointListSchema, 'Uma página de endpoints.'), ...errorResponses('parameter_invalid', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/webhook-endpoints/{id}',
    operationId: 'getWebhookEndpoint',
    tags: TAG,
    summary: 'Consulta um endpoint de webhook (o segredo nunca é mostrado de novo)',
    security: BEARER,
    request: { params: WebhookEndpointIdParamsSchema },
    responses: { 200: json(WebhookEndpointSchema, 'O endpoint.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  for (const method of ['patch', 'post'] as const) {
    registry.registerPath({
      method,
      path: '/v1/webhook-endpoints/{id}',
      operationId: method === 'patch' ? 'updateWebhookEndpoint' : 'updateWebhookEndpointPost',
      tags: TAG,
      summary: 'Altera url, events, only_source, description ou enabled (false desativa, true reativa)',
      security: BEARER,
      request: { params: WebhookEndpointIdParamsSchema, body: { required: true, content: { 'application/json': { schema: UpdateWebhookEndpointSchema } } } },
      responses: { 200: json(WebhookEndpointSchema, 'O endpoint alterado.'), ...errorResponses('not_found', ...BODY_ERRORS, ...FULL_KEY_ERRORS) },
    });
  }

  registry.registerPath({
    method: 'delete',
    path: '/v1/webhook-endpoints/{id}',
    operationId: 'deleteWebhookEndpoint',
    tags: TAG,
    summary: 'Apaga um endpoint; entregas pendentes são canceladas',
    security: BEARER,
    request: { params: WebhookEndpointIdParamsSchema },
    responses: { 200: json(DeletedWebhookEndpointSchema, 'Apagado.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/webhook-endpoints/{id}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    tags: TAG,
    summary: 'Gera um novo segredo; o anterior continua assinando por 24 horas',
    description: 'Durante as 24 horas, cada entrega leva dois v1 em Service-Signature (um por segredo). O novo segredo só aparece nesta resposta.',
    security: BEARER,
    request: { params: WebhookEndpointIdParamsSchema },
    responses: { 200: json(WebhookEndpointWithSecretSchema, 'O endpoint, com o novo secret.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/webhook-endpoints/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    tags: TAG,
    summary: 'Lista as entregas de um endpoint, cada uma com todas as tentativas',
    security: BEARER,
    request: { params: WebhookEndpointIdParamsSchema, query: ListWebhookDeliveriesQuerySchema },
    responses: { 200: json(WebhookDeliveryListSchema, 'Uma página de entregas.'), ...errorResponses('not_found', 'parameter_invalid', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/webhook-deliveries/{id}',
    operationId: 'getWebhookDelivery',
    tags: TAG,
    summary: 'Consulta uma entrega e suas tentativas (status HTTP, latência, erro)',
    security: BEARER,
    request: { params: WebhookDeliveryIdParamsSchema },
    responses: { 200: json(WebhookDeliverySchema, 'A entrega.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/webhook-deliveries/{id}/resend',
    operationId: 'resendWebhookDelivery',
    tags: TAG,
    summary: 'Reenvia agora (mesmo já entregue ou com o endpoint desativado); as novas tentativas recomeçam a contar',
    security: BEARER,
    request: { params: WebhookDeliveryIdParamsSchema },
    responses: { 202: json(WebhookDeliverySchema, 'A entrega, agendada para já.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerWebhook({
    method: 'post',
    path: 'event',
    operationId: 'webhookEvent',
    tags: TAG,
    summary: 'O que chega ao seu endpoint',
    description: SIGNATURE_DOC,
    request: {
      headers: z.object({
        'Service-Signature': z.string().openapi({ example: 't=1790000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd' }),
        'Service-Event-Id': z.string().openapi({ example: 'evt_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
      }),
      body: { required: true, content: { 'application/json': { schema: WebhookEventSchema } } },
    },
    responses: { 200: { description: 'Qualquer 2xx confirma a entrega; 410 desativa o endpoint; o resto é tentado de novo.' } },
  });
}
