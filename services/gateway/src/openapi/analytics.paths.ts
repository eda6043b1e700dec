import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { AnalyticsOverviewSchema } from '../schemas/analytics.response.schema';
import { AnalyticsOverviewQueryObject, DEFAULT_DAYS, MAX_RANGE_DAYS } from '../schemas/analytics.schema';
import { BEARER, errorResponses, FULL_KEY_ERRORS, json } from './openapi.helpers';

/** /v1/analytics/overview (§4 "Other endpoints", docs/analytics.md). */
export function registerAnalyticsPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/v1/analytics/overview',
    operationId: 'getAnalyticsOverview',
    tags: ['Analytics'],
    summary: 'Volume, tarifas, contagens e taxa de aprovação por conta de provedor, por método e por dia',
    description:
      'Só pagamentos do modo da chave. Cada pagamento conta no dia (America/Sao_Paulo) em que foi criado, na conta de provedor ' +
      'que o cobrou e no seu método. Aprovados: succeeded, partially_refunded e refunded; recusados: failed; cancelados (inclusive ' +
      'Pix e boletos expirados) não entram na taxa de aprovação. Valores em centavos. O período é days (os últimos N dias, ' +
      `incluindo hoje; padrão ${DEFAULT_DAYS}) ou start e end (AAAA-MM-DD, ambos incluídos, enviados juntos), nunca os dois; no ` +
      `máximo ${MAX_RANGE_DAYS} dias. Um período inválido responde 400 parameter_invalid com param (days, start ou end). ` +
      'Só chaves completas: uma chave restrita só lê os pagamentos que criou (403 restricted_key). Definições em docs/analytics.md.',
    security: BEARER,
    request: { query: AnalyticsOverviewQueryObject },
    responses: {
      200: json(AnalyticsOverviewSchema, 'Os números do período.'),
      ...errorResponses('parameter_invalid', 'parameter_missing', ...FULL_KEY_ERRORS),
    },
  });
}
