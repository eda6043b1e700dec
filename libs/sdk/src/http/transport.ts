import { randomUUID } from 'node:crypto';
import { ConnectionError, errorFromResponse, OrquestraError } from '../errors';
import { DEFAULT_RETRY_SETTINGS, isReplaySafe, isRetryableStatus, retryDelayMs, type RetrySettings } from './retry-policy';

export interface ClientOptions {
  /** svc_test_… or svc_live_…. */
  apiKey: string;
  /** Where the API lives, without /v1 (e.g. https://api.orquestra.com.br). */
  baseUrl: string;
  /** Per try; a try that takes longer is aborted (and retried when safe). Default 30 s. */
  timeoutMs?: number;
  retry?: Partial<RetrySettings>;
  /** Replace fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** Sleep function (tests). */
  sleep?: (ms: number) => Promise<void>;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Query;
  body?: unknown;
  /**
   * For routes that accept Idempotency-Key: `true` sends a fresh UUID (the same one on every
   * retry), a string sends that key. Absent: no key (and a POST is then not retried).
   */
  idempotencyKey?: string | true;
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  /** The Idempotency-Key that was sent, if any. */
  idempotencyKey: string | null;
  /** How many tries it took (1 = no retry). */
  tries: number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** HTTP with the API's conventions: bearer key, JSON, idempotency keys, retries, typed errors. */
export class Transport {
  private readonly retry: RetrySettings;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly baseUrl: string;

  constructor(private readonly options: ClientOptions) {
    if (!options.apiKey) throw new Error('Orquestra: informe apiKey (svc_test_… ou svc_live_…).');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retry = { ...DEFAULT_RETRY_SETTINGS, ...options.retry };
    this.fetchImpl = options.fetch ?? fetch;
    this.sleep = options.sleep ?? defaultSleep;
  }

  async request<T>(spec: RequestSpec): Promise<ApiResponse<T>> {
    const idempotencyKey = spec.idempotencyKey === true ? randomUUID() : (spec.idempotencyKey ?? null);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.apiKey}`,
      accept: 'application/json',
      'user-agent': 'orquestra-sdk-node/0.1',
    };
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    const url = `${this.baseUrl}${spec.path}${queryString(spec.query)}`;
    const replaySafe = isReplaySafe(spec.method, idempotencyKey !== null);

    for (let tries = 1; ; tries += 1) {
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          method: spec.method,
          headers,
          body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
        });
      } catch (cause) {
        // No answer: the request may or may not have been applied; only a replay-safe one goes again.
        const wait = replaySafe ? retryDelayMs(tries, null, this.retry) : undefined;
        if (wait === undefined) throw connectionError(cause);
        await this.sleep(wait);
        continue;
      }
      const body = await parseBody(response);
      if (response.ok) return { data: body as T, status: response.status, headers: response.headers, idempotencyKey, tries };
      const wait = replaySafe && isRetryableStatus(response.status) ? retryDelayMs(tries, response.headers.get('retry-after'), this.retry) : undefined;
      if (wait === undefined) throw errorFromResponse(response.status, body, response.headers);
      await this.sleep(wait);
    }
  }
}

function connectionError(cause: unknown): OrquestraError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const timedOut = cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError');
  const error = new ConnectionError({
    message: timedOut
      ? 'A API não respondeu a tempo. Consulte o recurso antes de repetir uma operação sem Idempotency-Key.'
      : `Não foi possível falar com a API (${reason}). Verifique baseUrl e a rede.`,
    code: timedOut ? 'timeout' : 'connection_error',
  });
  (error as { cause?: unknown }).cause = cause;
  return error;
}
