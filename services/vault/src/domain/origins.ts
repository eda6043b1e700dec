import { AppError } from '@orquestra/platform';

export const MAX_ALLOWED_ORIGINS = 20;

/** `scheme://host[:port]` of a site, lower case, default ports dropped; undefined when it is not one. */
export function normalizeOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return undefined;
  if (/[/?#]./.test(value.trim().replace(/^[a-z]+:\/\//i, ''))) return undefined;
  return `${url.protocol}//${url.host}`;
}

/** The allowed_origins of a config update, normalized and without repeats; each refusal names the entry. */
export function normalizeAllowedOrigins(values: string[]): string[] {
  if (values.length > MAX_ALLOWED_ORIGINS) {
    throw new AppError('parameter_invalid', { param: 'allowed_origins', message: `allowed_origins aceita até ${MAX_ALLOWED_ORIGINS} sites.` });
  }
  const normalized: string[] = [];
  values.forEach((value, index) => {
    const origin = normalizeOrigin(value);
    if (!origin) {
      throw new AppError('parameter_invalid', {
        param: `allowed_origins[${index}]`,
        message: `"${value.slice(0, 200)}" não é um site: use esquema, domínio e porta opcional, como https://loja.exemplo.com.br ou http://localhost:3000 (sem caminho, consulta ou fragmento).`,
      });
    }
    if (!normalized.includes(origin)) normalized.push(origin);
  });
  return normalized;
}
