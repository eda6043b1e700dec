/** What the three tools share: age limits, the not-sent answers with their Portuguese text, dates. */
import type { NotSentReason, Sale, ToolAnswer, ToolPlan } from './ad-tool';

export const DAY_MS = 86_400_000;

const REASON_TEXT: Record<NotSentReason, string> = {
  missing_email: 'Venda sem e-mail do cliente: a ferramenta exige o e-mail. Informe customer.email nas próximas vendas.',
  too_old: 'Venda mais antiga do que a ferramenta aceita (7 dias; 45 para reembolsos e chargebacks).',
  missing_test_code: 'Venda de teste sem código de evento de teste: configure options.test_event_code na integração para enviá-las.',
  not_for_tool: 'Este evento não é enviado a esta ferramenta.',
};

export function notSent(reason: NotSentReason, detail?: string): ToolPlan {
  return { send: false, reason, reasonText: detail ? `${REASON_TEXT[reason]} ${detail}` : REASON_TEXT[reason] };
}

/** Whether `at` is more than `days` days before `now`. */
export function olderThan(at: string, days: number, now: Date): boolean {
  return now.getTime() - Date.parse(at) > days * DAY_MS;
}

export const unixSeconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

/** A tracking value, or null when absent or blank. */
export function trackingValue(sale: Sale, key: string): string | null {
  const value = sale.tracking[key];
  return typeof value === 'string' && value.trim().length > 0 ? value : null;
}

/** Drops undefined and null members, so that bodies carry only what is known. */
export function compact<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined && value !== null)) as Partial<T>;
}

/** The money of the sale in reais (the tools' `value`), from integer cents without float drift. */
export const reais = (cents: number): number => Number((cents / 100).toFixed(2));

/** HTTP alone: 2xx delivered; 408, 429, 5xx and no answer (0) retried; any other 4xx refused for good. */
export function defaultOutcome(status: number): ToolAnswer['outcome'] {
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 0 || status === 408 || status === 429 || status >= 500) return 'retry';
  return 'refused';
}
