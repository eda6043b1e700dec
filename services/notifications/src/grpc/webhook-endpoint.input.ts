import { AppError } from '@orquestra/platform';
import { isValidEventPattern } from '../domain/event-type-pattern';
import { webhookUrlProblem } from '../domain/webhook-url';

/** Checks of endpoint input that need the catalogue and the key's mode (the gateway checks shapes). */
export function checkUrl(url: string, mode: 'test' | 'live'): string {
  const problem = webhookUrlProblem(url, mode);
  if (problem) throw new AppError('parameter_invalid', { param: 'url', message: problem });
  return url;
}

export function checkEvents(events: readonly string[]): string[] {
  if (events.length === 0) {
    throw new AppError('parameter_missing', { param: 'events', message: 'Informe ao menos um tipo de evento em events, por exemplo ["payment.succeeded"] ou ["*"].' });
  }
  events.forEach((pattern, index) => {
    if (!isValidEventPattern(pattern)) {
      throw new AppError('parameter_invalid', {
        param: `events[${index}]`,
        message: `Tipo de evento desconhecido: "${pattern.slice(0, 100)}". Use um tipo do catálogo (GET /v1/openapi.json, docs/events.md), um prefixo como payment.* ou *.`,
      });
    }
  });
  return [...new Set(events)];
}

export function checkOnlySource(onlySource: string): string | null {
  if (!onlySource) return null;
  if (!/^key:key_[0-9a-z]{1,64}$/.test(onlySource)) {
    throw new AppError('parameter_invalid', { param: 'only_source', message: 'only_source deve ser "key:" seguido do id de uma chave de API, por exemplo key:key_01j9z0k3x7m2q8r4t6v8w0y2a4.' });
  }
  return onlySource;
}
