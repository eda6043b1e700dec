import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { ListRequestLogsQuerySchema } from '../schemas/list-request-logs.schema';
import { RequestLogListSchema } from '../schemas/request-log.response.schema';
import { BEARER, FULL_KEY_ERRORS, errorResponses, json } from './openapi.helpers';

/** GET /v1/request-logs (extension of the spec; docs/cli.md). */
export function registerRequestLogPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/v1/request-logs',
    operationId: 'listRequestLogs',
    tags: ['Request logs'],
    summary: 'Lista as chamadas recentes à API (mais novas primeiro)',
    description:
      'As chamadas feitas com as chaves desta conta, no modo da chave, dos últimos 7 dias: método, caminho (sem a query string), ' +
      'status, id da requisição, duração e a chave (id e 4 últimos caracteres). Nunca o corpo nem os cabeçalhos. ' +
      'Só chaves completas. As leituras deste log não entram nele. Filtro: status (2xx, 4xx, 5xx ou um status).',
    security: BEARER,
    request: { query: ListRequestLogsQuerySchema },
    responses: {
      200: json(RequestLogListSchema, 'Uma página de chamadas.'),
      ...errorResponses('parameter_invalid', ...FULL_KEY_ERRORS),
    },
  });
}
