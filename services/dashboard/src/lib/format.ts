/**
 * How the dashboard shows money and dates: R$ from integer cents (no floating point on the way:
 * reais and centavos are split as integers, only the grouping of the reais uses Intl) and every
 * date in São Paulo's time zone, as the API's days are.
 */
export const TIME_ZONE = 'America/Sao_Paulo';

const integerFormat = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });
const dateTimeFormat = new Intl.DateTimeFormat('pt-BR', { timeZone: TIME_ZONE, dateStyle: 'short', timeStyle: 'short' });
const dateFormat = new Intl.DateTimeFormat('pt-BR', { timeZone: TIME_ZONE, dateStyle: 'short' });

/** 123456 → "R$ 1.234,56"; -50 → "-R$ 0,50"; null → "—". */
export function formatBrl(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return '—';
  const whole = Math.trunc(cents);
  const negative = whole < 0;
  const absolute = Math.abs(whole);
  const reais = Math.trunc(absolute / 100);
  const centavos = absolute % 100;
  return `${negative ? '-' : ''}R$ ${integerFormat.format(reais)},${String(centavos).padStart(2, '0')}`;
}

/**
 * "10,50", "1.234,5", "R$ 7" or "7.50" → cents; undefined when the text is not an amount.
 * A dot followed by exactly one or two digits at the end is read as the decimal separator.
 */
export function parseBrlToCents(text: string): number | undefined {
  const cleaned = text.replace(/R\$/i, '').replace(/\s/g, '');
  if (!cleaned) return undefined;
  let integer: string;
  let fraction = '';
  const comma = /^(\d{1,3}(?:\.\d{3})*|\d+),(\d{1,2})$/.exec(cleaned);
  const dot = /^(\d+)\.(\d{1,2})$/.exec(cleaned);
  if (comma) [, integer = '', fraction = ''] = comma;
  else if (dot) [, integer = '', fraction = ''] = dot;
  else if (/^(\d{1,3}(?:\.\d{3})+|\d+)$/.test(cleaned)) integer = cleaned;
  else return undefined;
  const reais = Number(integer.replace(/\./g, ''));
  const cents = reais * 100 + Number(fraction.padEnd(2, '0') || '0');
  return Number.isSafeInteger(cents) ? cents : undefined;
}

/** An ISO date-time (or epoch seconds) as "28/11/2026, 16:47" in São Paulo; "—" when absent. */
export function formatDateTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : dateTimeFormat.format(date);
}

/** A calendar day "2026-11-28" as "28/11/2026" (no time zone shift: it is already a São Paulo day). */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '—';
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (match) return `${match[3]}/${match[2]}/${match[1]}`;
  const date = new Date(day);
  return Number.isNaN(date.getTime()) ? day : dateFormat.format(date);
}

/** Today in São Paulo as YYYY-MM-DD, minus `daysBack` days. */
export function saoPauloDay(daysBack = 0, now: Date = new Date()): string {
  const shifted = new Date(now.getTime() - daysBack * 86_400_000);
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(shifted);
  return parts;
}

/** 0.8765 → "87,7%"; null → "—". */
export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return '—';
  return `${new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 }).format(rate * 100)}%`;
}
