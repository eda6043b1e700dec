import { saoPauloDate } from '@orquestra/platform';
import { paginationShape } from './pagination.schema';
import { z } from './zod-openapi';

// Requests of /v1/reconciliation-runs (docs/reconciliation.md). The period is sent to the payments
// service as two RFC 3339 instants, [start, end). The edge also takes a São Paulo calendar day,
// YYYY-MM-DD, for either bound, meaning 00:00 in São Paulo that day: November is start=2026-11-01,
// end=2026-12-01 (start included, end not). A date-time must carry its offset (Z or
// ±hh:mm): without one the instant is ambiguous. The payments service checks the same rules
// (matching.ts runPeriod); checking them here first gives the same answer without a call.

/** The longest period one run may cover (the payments service's limit: a quarter). */
export const MAX_PERIOD_DAYS = 93;

export const FINDING_KINDS = [
  'missing_at_provider',
  'unknown_to_orquestra',
  'status_difference',
  'amount_difference',
  'fee_difference',
  'refund_difference',
] as const;

export type FindingKind = (typeof FINDING_KINDS)[number];

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** A real calendar day (no 2026-02-30): the UTC date built from the parts has the same parts. */
function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1970 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The first instant of a São Paulo calendar day. São Paulo has been UTC−3 without daylight saving
 * since 2019, but older days had −2 (and days on which 00:00 did not exist), so the instant is
 * searched on the zone's own clock instead of assuming an offset: the smallest instant whose São
 * Paulo date is `day`, between 00:00Z and 06:00Z of that date.
 */
export function saoPauloStartOfDay(day: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  let low = Date.UTC(year, month - 1, date); // still the previous day in São Paulo
  let high = low + 6 * 60 * 60 * 1000; // already the day in São Paulo
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (saoPauloDate(new Date(middle)) >= day) high = middle;
    else low = middle;
  }
  return new Date(high);
}

/**
 * `start` or `end` as the instant it stands for, or undefined when it is neither a real date nor
 * an RFC 3339 date-time with offset.
 */
export function periodBoundInstant(value: string): Date | undefined {
  const day = DATE.exec(value);
  if (day) return isCalendarDay(Number(day[1]), Number(day[2]), Number(day[3])) ? saoPauloStartOfDay(value) : undefined;
  const moment = DATE_TIME.exec(value);
  if (!moment) return undefined;
  const [hour, minute, second] = [Number(moment[4]), Number(moment[5]), Number(moment[6])];
  const offsetOk = moment[9] === undefined || (Number(moment[9]) <= 23 && Number(moment[10]) <= 59);
  if (!isCalendarDay(Number(moment[1]), Number(moment[2]), Number(moment[3])) || hour > 23 || minute > 59 || second > 59 || !offsetOk) {
    return undefined;
  }
  const instant = new Date(value.toUpperCase());
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}

const periodBound = (bound: 'start' | 'end', description: string, example: string) =>
  z
    .string()
    .max(40)
    .transform((value, context) => {
      const instant = periodBoundInstant(value);
      if (instant) return instant;
      context.addIssue({
        code: 'custom',
        message: `O campo ${bound} deve ser uma data (AAAA-MM-DD, dia de São Paulo) ou uma data e hora RFC 3339 com fuso, por exemplo ${example}.`,
      });
      return z.NEVER;
    })
    .openapi({ type: 'string', description, example });

/**
 * Body of POST /v1/reconciliation-runs. `now` is the clock (tests pass their own): only a period
 * that has ended is reconciled (a charge made later inside it would be missed).
 */
export function createReconciliationRunSchema(now: () => Date = () => new Date()) {
  return z
    .object({
      start: periodBound(
        'start',
        'Início do período, incluído: uma data AAAA-MM-DD (00:00 de São Paulo nesse dia) ou uma data e hora RFC 3339 com fuso.',
        '2026-11-01',
      ),
      end: periodBound(
        'end',
        'Fim do período, não incluído e não no futuro: uma data AAAA-MM-DD (00:00 de São Paulo nesse dia; para novembro inteiro, ' +
          'end 2026-12-01) ou uma data e hora RFC 3339 com fuso.',
        '2026-12-01',
      ),
      fix: z.boolean().optional().openapi({
        description:
          'true: cada diferença de status é resolvida sincronizando o pagamento com o provedor; o resultado fica em fix_result de cada divergência.',
        example: false,
      }),
    })
    .strict()
    .superRefine((body, context) => {
      // zod still runs this after a bound failed to parse; that bound's own issue says it all.
      if (!(body.start instanceof Date) || !(body.end instanceof Date)) return;
      if (body.start.getTime() >= body.end.getTime()) {
        context.addIssue({ code: 'custom', path: ['start'], message: 'O campo start deve ser anterior a end. Informe um período com início antes do fim.' });
      } else if (body.end.getTime() > now().getTime()) {
        context.addIssue({
          code: 'custom',
          path: ['end'],
          message:
            'O campo end não pode estar no futuro: só se concilia um período já encerrado. Uma data AAAA-MM-DD é 00:00 de São Paulo ' +
            'nesse dia (para incluir ontem inteiro, use a data de hoje), ou informe uma data e hora até agora.',
        });
      } else if (body.end.getTime() - body.start.getTime() > MAX_PERIOD_DAYS * DAY_MS) {
        context.addIssue({
          code: 'custom',
          path: ['end'],
          message: `O período pode ter no máximo ${MAX_PERIOD_DAYS} dias. Divida-o em mais de uma conciliação.`,
        });
      }
    })
    .openapi('CreateReconciliationRun', { example: { start: '2026-11-01', end: '2026-12-01', fix: false } });
}

export const CreateReconciliationRunSchema = createReconciliationRunSchema();

export type CreateReconciliationRunInput = z.output<typeof CreateReconciliationRunSchema>;

/** Query of GET /v1/reconciliation-runs. */
export const ListReconciliationRunsQuerySchema = z.object({ ...paginationShape }).strict();

export const FindingKindSchema = z.enum(FINDING_KINDS).openapi('ReconciliationFindingKind', {
  description:
    'missing_at_provider: o pagamento existe no Orquestra e não no provedor; unknown_to_orquestra: a cobrança existe no provedor e não no ' +
    'Orquestra (feita fora dele); status_difference, amount_difference, fee_difference, refund_difference: os dois lados discordam ' +
    'do status, do valor, da tarifa ou do valor reembolsado.',
});

/** Query of GET /v1/reconciliation-runs/{id}/findings. */
export const ListFindingsQuerySchema = z
  .object({
    kind: FindingKindSchema.optional(),
    ...paginationShape,
    starting_after: paginationShape.starting_after.openapi({ example: 'rcf_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
  })
  .strict();

/** Query of GET /v1/reconciliation-runs/{id}/findings.csv: the whole list, optionally one kind. */
export const FindingsCsvQuerySchema = z.object({ kind: FindingKindSchema.optional() }).strict();

export const ReconciliationRunIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,100}$/)
  .openapi({ description: 'Id da execução de conciliação.', example: 'rec_01j9z0k3x7m2q8r4t6v8w0y2a4' });

export const ReconciliationRunIdParamsSchema = z.object({ id: ReconciliationRunIdSchema });

/** What to do about this operation's fields (they win over the payment hints of the same name). */
export const RECONCILIATION_FIELD_HINTS = {
  start: 'Informe o início do período (incluído): uma data AAAA-MM-DD (00:00 de São Paulo) ou uma data e hora RFC 3339 com fuso.',
  end: 'Informe o fim do período (não incluído, até agora): uma data AAAA-MM-DD (00:00 de São Paulo) ou uma data e hora RFC 3339 com fuso.',
  fix: 'Use true para sincronizar os pagamentos com status divergente, ou omita o campo.',
  kind: `Use um destes tipos: ${FINDING_KINDS.join(', ')}.`,
  starting_after: 'Informe o id do último item da página anterior.',
} as const;
