import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import {
  ReconciliationFindingListSchema,
  ReconciliationRunListSchema,
  ReconciliationRunSchema,
} from '../schemas/reconciliation.response.schema';
import {
  CreateReconciliationRunSchema,
  FindingsCsvQuerySchema,
  ListFindingsQuerySchema,
  ListReconciliationRunsQuerySchema,
  MAX_PERIOD_DAYS,
  ReconciliationRunIdParamsSchema,
} from '../schemas/reconciliation.schema';
import { z } from '../schemas/zod-openapi';
import { BEARER, errorResponses, FULL_KEY_ERRORS, json } from './openapi.helpers';

const FULL_KEY_ONLY = 'Só chaves completas: a conciliação mostra todos os pagamentos da conta e pode sincronizá-los (403 restricted_key).';

/** /v1/reconciliation-runs… (§4 "Other endpoints", docs/reconciliation.md). */
export function registerReconciliationPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/v1/reconciliation-runs',
    operationId: 'createReconciliationRun',
    tags: ['Reconciliation'],
    summary: 'Inicia uma conciliação: compara, num período, as cobranças de cada provedor com os pagamentos do Orquestra',
    description:
      'Responde 201 com a execução em queued; ela roda em segundo plano (sobrevive a reinícios) e lê, página a página, a lista de ' +
      'cobranças de cada conta de provedor do modo da chave. Acompanhe por GET /v1/reconciliation-runs/{id} ou pelo evento ' +
      'reconciliation_run.completed. O período vai de start (incluído) a end (não incluído); cada um é uma data AAAA-MM-DD (00:00 de ' +
      'São Paulo nesse dia: novembro inteiro é start 2026-11-01 e end 2026-12-01) ou uma data e hora RFC 3339 com fuso (Z ou ±hh:mm). ' +
      `Só períodos já encerrados (end até agora), de no máximo ${MAX_PERIOD_DAYS} dias. Com fix: true, cada diferença de status é ` +
      'resolvida sincronizando o pagamento com o provedor (resultado em fix_result). ' +
      FULL_KEY_ONLY,
    security: BEARER,
    request: { body: { required: true, content: { 'application/json': { schema: CreateReconciliationRunSchema } } } },
    responses: {
      201: json(ReconciliationRunSchema, 'A execução criada (queued).'),
      ...errorResponses('invalid_json', 'invalid_request', 'parameter_missing', 'parameter_invalid', ...FULL_KEY_ERRORS),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/reconciliation-runs',
    operationId: 'listReconciliationRuns',
    tags: ['Reconciliation'],
    summary: 'Lista as execuções de conciliação (mais novas primeiro)',
    description: FULL_KEY_ONLY,
    security: BEARER,
    request: { query: ListReconciliationRunsQuerySchema },
    responses: { 200: json(ReconciliationRunListSchema, 'Uma página de execuções.'), ...errorResponses('parameter_invalid', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/reconciliation-runs/{id}',
    operationId: 'getReconciliationRun',
    tags: ['Reconciliation'],
    summary: 'Consulta uma execução de conciliação e o relatório de cada conta',
    description: FULL_KEY_ONLY,
    security: BEARER,
    request: { params: ReconciliationRunIdParamsSchema },
    responses: { 200: json(ReconciliationRunSchema, 'A execução.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/reconciliation-runs/{id}/findings',
    operationId: 'listReconciliationFindings',
    tags: ['Reconciliation'],
    summary: 'Lista as divergências encontradas por uma execução',
    description:
      'Só as divergências: as cobranças que batem são apenas contadas (matched no relatório da conta). Cada divergência traz os ' +
      'valores dos dois lados (ours e theirs). Enquanto a execução roda, a lista tem o que foi encontrado até agora. ' +
      FULL_KEY_ONLY,
    security: BEARER,
    request: { params: ReconciliationRunIdParamsSchema, query: ListFindingsQuerySchema },
    responses: {
      200: json(ReconciliationFindingListSchema, 'Uma página de divergências.'),
      ...errorResponses('not_found', 'parameter_invalid', ...FULL_KEY_ERRORS),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/reconciliation-runs/{id}/findings.csv',
    operationId: 'downloadReconciliationFindingsCsv',
    tags: ['Reconciliation'],
    summary: 'Todas as divergências de uma execução, em CSV',
    description:
      'CSV RFC 4180 (vírgula, CRLF, UTF-8) com linha de cabeçalho e as colunas kind, provider_account_id, payment_id, ' +
      'provider_payment_id, field, ours, theirs, fix_result, created_at: uma linha por campo divergente de cada divergência. ' +
      'Uma célula que começaria com =, +, -, @, tabulação ou retorno recebe um apóstrofo na frente, para que uma planilha nunca a ' +
      'execute como fórmula. Enquanto a execução roda, o arquivo tem o que foi encontrado até agora. Se a conexão cair no meio, o ' +
      'arquivo vem incompleto (sem o fim da resposta): baixe de novo. ' +
      FULL_KEY_ONLY,
    security: BEARER,
    request: { params: ReconciliationRunIdParamsSchema, query: FindingsCsvQuerySchema },
    responses: {
      200: {
        description: 'O arquivo CSV (Content-Disposition: attachment).',
        headers: { 'Content-Disposition': { description: 'attachment; filename="reconciliation-<id>-findings.csv"', schema: { type: 'string' } } },
        content: {
          'text/csv': {
            schema: z.string().openapi({
              example:
                'kind,provider_account_id,payment_id,provider_payment_id,field,ours,theirs,fix_result,created_at\r\n' +
                'status_difference,pa_01j9z0k3x7m2q8r4t6v8w0y2a4,pay_01j9z0k3x7m2q8r4t6v8w0y2a4,pay_7f3k2j1h,status,pending,paid,,2026-12-01T12:00:05.000Z\r\n',
            }),
          },
        },
      },
      ...errorResponses('not_found', 'parameter_invalid', ...FULL_KEY_ERRORS),
    },
  });
}
