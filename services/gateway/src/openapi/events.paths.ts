import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { EventListSchema } from '../schemas/event.response.schema';
import { ListEventsQuerySchema } from '../schemas/list-events.schema';
import { AUTH_ERRORS, BEARER, errorResponses, json } from './openapi.helpers';

/** GET /v1/events. */
export function registerEventPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    tags: ['Events'],
    summary: 'Lista eventos (mais novos primeiro)',
    description:
      'Use o id do evento para não processar o mesmo evento duas vezes. Filtros: type (um tipo, um prefixo como payment.* ou *), ' +
      'created[gte] e created[lte] (Unix, segundos), payment_id, resource_id. Chaves restritas só veem eventos do que elas criaram.',
    security: BEARER,
    request: { query: ListEventsQuerySchema },
    responses: {
      200: json(EventListSchema, 'Uma página de eventos.'),
      ...errorResponses('parameter_invalid', ...AUTH_ERRORS),
    },
  });
}
