import { FindingKindSchema } from './reconciliation.schema';
import { z } from './zod-openapi';

// The public reconciliation run and finding (docs/reconciliation.md "The API"), as
// mappers/reconciliation.mapper.ts builds them from the payments service's answers.

export const RECONCILIATION_RUN_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export const ACCOUNT_REPORT_STATUSES = ['pending', 'running', 'done', 'unsupported', 'failed'] as const;

const count = (description: string) => z.number().int().min(0).openapi({ description, example: 0 });

export const ReconciliationAccountReportSchema = z
  .object({
    provider_account_id: z.string().openapi({ example: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    provider: z.string().openapi({ example: 'asaas' }),
    status: z.enum(ACCOUNT_REPORT_STATUSES).openapi({
      description:
        'pending: ainda não lida; running: sendo lida; done: comparada; unsupported: o provedor não lista cobranças por período; ' +
        'failed: não pôde ser lida (o motivo em error).',
    }),
    listed: count('Cobranças que o provedor listou no período.'),
    matched: count('Cobranças em que os dois lados concordam.'),
    missing_at_provider: count('Pagamentos do Orquestra que o provedor não listou.'),
    unknown_to_orquestra: count('Cobranças do provedor que o Orquestra não conhece (feitas fora dele).'),
    status_differences: count('Cobranças com status divergente.'),
    amount_differences: count('Cobranças com valor divergente.'),
    fee_differences: count('Cobranças com tarifa divergente.'),
    refund_differences: count('Cobranças com valor reembolsado divergente.'),
    fixed: count('Diferenças de status resolvidas por sincronização (fix: true).'),
    error: z.string().nullable().openapi({ description: 'Em português, quando status é failed.' }),
    notes: z.array(z.string()).openapi({
      description:
        'Em português: o que a lista do provedor deixou de fora ou não pôde informar, mesmo com a conta comparada (por exemplo, ' +
        'uma conta Efí sem a API Cobranças tem o Pix conferido e os boletos não). Vazia quando nada falta.',
      example: [],
    }),
  })
  .openapi('ReconciliationAccountReport');

export const ReconciliationRunSchema = z
  .object({
    id: z.string().openapi({ example: 'rec_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('reconciliation_run'),
    mode: z.enum(['test', 'live']),
    status: z.enum(RECONCILIATION_RUN_STATUSES).openapi({
      description: 'queued → running → completed, ou failed (motivo em failure_reason). O evento reconciliation_run.completed avisa o fim.',
    }),
    start: z.string().openapi({ description: 'Início do período (RFC 3339, incluído).', example: '2026-11-01T03:00:00.000Z' }),
    end: z.string().openapi({ description: 'Fim do período (RFC 3339, não incluído).', example: '2026-12-01T03:00:00.000Z' }),
    fix: z.boolean().openapi({ description: 'Se as diferenças de status são resolvidas por sincronização.' }),
    accounts: z.array(ReconciliationAccountReportSchema).openapi({ description: 'Uma entrada por conta de provedor do modo da chave.' }),
    created_at: z.string().openapi({ description: 'ISO 8601.', example: '2026-12-01T12:00:00.000Z' }),
    completed_at: z.string().nullable().openapi({ description: 'ISO 8601, quando terminou (completed ou failed).' }),
    failure_reason: z.string().nullable().openapi({ description: 'Em português, quando status é failed.' }),
  })
  .openapi('ReconciliationRun');

export const ReconciliationRunListSchema = z
  .object({ object: z.literal('list'), data: z.array(ReconciliationRunSchema), has_more: z.boolean() })
  .openapi('ReconciliationRunList');

const sideValues = (description: string) =>
  z.record(z.string(), z.string()).openapi({ description, example: { status: 'pending' } });

export const ReconciliationFindingSchema = z
  .object({
    id: z.string().openapi({ example: 'rcf_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('reconciliation_finding'),
    run_id: z.string().openapi({ example: 'rec_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    provider_account_id: z.string().openapi({ example: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    kind: FindingKindSchema,
    payment_id: z.string().nullable().openapi({ description: 'null numa cobrança desconhecida do Orquestra.', example: 'pay_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    provider_payment_id: z.string().openapi({ example: 'pay_7f3k2j1h' }),
    ours: sideValues('Os valores do Orquestra, por campo, como texto (valores em centavos).'),
    theirs: sideValues('Os valores do provedor, por campo, como texto (valores em centavos).'),
    fix_result: z.string().nullable().openapi({ description: 'Com fix: true numa diferença de status: o resultado da sincronização (em português).' }),
    created_at: z.string().openapi({ description: 'ISO 8601.', example: '2026-12-01T12:00:05.000Z' }),
  })
  .openapi('ReconciliationFinding');

export const ReconciliationFindingListSchema = z
  .object({ object: z.literal('list'), data: z.array(ReconciliationFindingSchema), has_more: z.boolean() })
  .openapi('ReconciliationFindingList');

export type ReconciliationRunJson = z.infer<typeof ReconciliationRunSchema>;
export type ReconciliationRunListJson = z.infer<typeof ReconciliationRunListSchema>;
export type ReconciliationFindingJson = z.infer<typeof ReconciliationFindingSchema>;
export type ReconciliationFindingListJson = z.infer<typeof ReconciliationFindingListSchema>;
