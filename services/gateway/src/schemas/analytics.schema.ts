import { saoPauloDate } from '@orquestra/platform';
import { z } from './zod-openapi';

// Query of GET /v1/analytics/overview (docs/analytics.md). The range is a run of calendar days in
// America/Sao_Paulo, both ends included, given either as `days` (the last N days including today)
// or as `start` and `end` (YYYY-MM-DD). The gateway turns both forms into the two dates the
// payments service takes, so the service never sees `days` nor has to know what "today" is here.

/** The longest range one overview may cover (a leap year). */
export const MAX_RANGE_DAYS = 366;
export const DEFAULT_DAYS = 30;
export const ANALYTICS_TIMEZONE = 'America/Sao_Paulo';

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day (no 2026-02-30) written as YYYY-MM-DD. */
export function isCalendarDay(value: string): boolean {
  const parts = DATE.exec(value);
  if (!parts) return false;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1970 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whole days from `from` to `to` (YYYY-MM-DD; calendar arithmetic, no time zone involved). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** The calendar day `offset` days after `day` (negative: before). */
export function addDays(day: string, offset: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);
}

const dateParam = (bound: 'start' | 'end', description: string, example: string) =>
  z
    .string()
    .refine(isCalendarDay, {
      message: `O parâmetro ${bound} deve ser uma data válida no formato AAAA-MM-DD (dia de São Paulo), por exemplo ${example}.`,
    })
    .optional()
    .openapi({ description, example });

export interface OverviewRange {
  start_date: string;
  end_date: string;
}

/** The parameters as sent (the OpenAPI document shows these). */
export const AnalyticsOverviewQueryObject = z
  .object({
    days: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_RANGE_DAYS)
      .optional()
      .openapi({
        type: 'integer',
        description: `Os últimos N dias, incluindo hoje (em America/Sao_Paulo), de 1 a ${MAX_RANGE_DAYS}. Padrão ${DEFAULT_DAYS} quando nem days nem start e end são enviados. Não combine com start e end.`,
        example: 30,
      }),
    start: dateParam('start', 'Primeiro dia do período (AAAA-MM-DD, dia de São Paulo, incluído). Exige end.', '2026-11-01'),
    end: dateParam('end', 'Último dia do período (AAAA-MM-DD, dia de São Paulo, incluído). Exige start.', '2026-11-30'),
  })
  .strict();

/**
 * Query of GET /v1/analytics/overview, parsed into the São Paulo days it covers. `now` is the clock
 * (tests pass their own): "today" is the São Paulo date of that instant.
 */
export function analyticsOverviewQuerySchema(now: () => Date = () => new Date()) {
  return AnalyticsOverviewQueryObject
    .superRefine((query, context) => {
      const hasRange = query.start !== undefined || query.end !== undefined;
      if (query.days !== undefined && hasRange) {
        context.addIssue({
          code: 'custom',
          path: ['days'],
          message: 'Use days ou start e end, não os dois. Remova days para consultar um período com início e fim.',
        });
        return;
      }
      if (query.start !== undefined && query.end === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['end'],
          params: { code: 'parameter_missing' },
          message: 'O parâmetro end é obrigatório quando start é enviado. Informe o último dia do período (AAAA-MM-DD).',
        });
        return;
      }
      if (query.end !== undefined && query.start === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['start'],
          params: { code: 'parameter_missing' },
          message: 'O parâmetro start é obrigatório quando end é enviado. Informe o primeiro dia do período (AAAA-MM-DD).',
        });
        return;
      }
      // A malformed date already has its own issue; comparing it would only add noise.
      if (query.start === undefined || query.end === undefined || !isCalendarDay(query.start) || !isCalendarDay(query.end)) return;
      const span = daysBetween(query.start, query.end) + 1;
      if (span < 1) {
        context.addIssue({
          code: 'custom',
          // Named as the payments service names it (docs/analytics.md), like the reconciliation period.
          path: ['start'],
          message: 'O parâmetro start não pode ser posterior a end. Informe um primeiro dia igual ou anterior ao último.',
        });
      } else if (span > MAX_RANGE_DAYS) {
        context.addIssue({
          code: 'custom',
          path: ['end'],
          message: `O período pode ter no máximo ${MAX_RANGE_DAYS} dias (recebido: ${span}). Divida-o em consultas menores.`,
        });
      }
    })
    .transform((query): OverviewRange => {
      if (query.start !== undefined && query.end !== undefined) return { start_date: query.start, end_date: query.end };
      const today = saoPauloDate(now());
      return { start_date: addDays(today, -((query.days ?? DEFAULT_DAYS) - 1)), end_date: today };
    });
}

export const AnalyticsOverviewQuerySchema = analyticsOverviewQuerySchema();

/** What to do about this operation's parameters (they win over the shared hints of the same name). */
export const ANALYTICS_FIELD_HINTS = {
  days: `Informe um número inteiro de 1 a ${MAX_RANGE_DAYS} (os últimos N dias, incluindo hoje), ou use start e end.`,
  start: 'Informe o primeiro dia do período no formato AAAA-MM-DD.',
  end: 'Informe o último dia do período no formato AAAA-MM-DD.',
} as const;
