import { Orquestra } from '@orquestra/node';
import { configPath, readConfig, type CliConfig } from './config';
import { CliError, type CliIo } from './io';

/** Where `npm start` serves the API. */
export const DEFAULT_BASE_URL = 'http://localhost:8080';

/** The options every command accepts (declared once on the program). */
export interface GlobalOptions {
  apiKey?: string;
  baseUrl?: string;
}

export interface Credentials {
  apiKey: string;
  baseUrl: string;
  /** Where the key came from, for the messages. */
  keySource: 'option' | 'environment' | 'config';
}

/** The base URL: --base-url, then ORQUESTRA_BASE_URL, then the saved one, then npm start's. */
export function resolveBaseUrl(options: GlobalOptions, io: CliIo, config: CliConfig): string {
  const value = options.baseUrl ?? io.env['ORQUESTRA_BASE_URL'] ?? config.base_url ?? DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`Endereço da API inválido: ${value}. Use, por exemplo, ${DEFAULT_BASE_URL}.`, 2);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`O endereço da API deve ser http(s): ${value}.`, 2);
  return value.replace(/\/+$/, '');
}

/** The key: --api-key, then ORQUESTRA_API_KEY, then the one `orq login` saved. */
export function resolveCredentials(options: GlobalOptions, io: CliIo): Credentials {
  const config = readConfig(configPath(io.env));
  const baseUrl = resolveBaseUrl(options, io, config);
  if (options.apiKey) return { apiKey: options.apiKey, baseUrl, keySource: 'option' };
  const fromEnv = io.env['ORQUESTRA_API_KEY'];
  if (fromEnv) return { apiKey: fromEnv, baseUrl, keySource: 'environment' };
  if (config.api_key) return { apiKey: config.api_key, baseUrl, keySource: 'config' };
  throw new CliError('Nenhuma chave de API: rode orq login, ou passe --api-key, ou defina ORQUESTRA_API_KEY.');
}

/** The SDK client every command talks to the API through. */
export function clientFor(credentials: Credentials): Orquestra {
  return new Orquestra({ apiKey: credentials.apiKey, baseUrl: credentials.baseUrl, timeoutMs: 30_000 });
}
