import { randomUUID } from 'node:crypto';
import { ConnectionError, errorFromResponse, OrquestraError, RequestAbortedError } from '../errors';
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

/**
 * Options of one call, the last argument of every resource method (Stripe-style): they override
 * the client's settings for that request only.
 */
export interface RequestOptions {
  /** Another API key for this call (e.g. a restricted key, or another account's key). */
  apiKey?: string;
  /** Milliseconds per try; a try that takes longer is aborted (and retried when safe). */
  timeout?: number;
  /** Aborts the call, including any retry still to come; it then rejects with RequestAbortedError. */
  signal?: AbortSignal;
  /**
   * Your Idempotency-Key (≤ 255 printable characters) for the routes that take one (payments.create,
   * payments.refund, subscriptions.create and charge, payouts.create, subaccounts.create and
   * withdrawals.create), which otherwise send a fresh UUID, the same on every retry. Ignored by the
   * other routes, which the API does not deduplicate.
   */
  idempotencyKey?: string;
  /** Retries after the first try for this call (0 disables them). */
  maxRetries?: number;
}

/** What the SDK read from the HTTP answer a result came in. */
export interface LastResponse {
  /** X-Request-Id (quote it when asking for support). */
  requestId: string | null;
  statusCode: number;
  headers: Headers;
  /** The Idempotency-Key that was sent, if any. */
  idempotencyKey: string | null;
}

/**
 * A result with `lastResponse`: non-enumerable, so JSON.stringify, spreads and Object.keys of the
 * result are exactly the API's body.
 */
export type WithLastResponse<T> = T & { readonly lastResponse: LastResponse };

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

declare const __SDK_VERSION__: string | undefined;
/** Replaced by the package build with package.json's version; the monorepo's alias reports 0.0.0-dev. */
export const SDK_VERSION: string = typeof __SDK_VERSION__ === 'string' ? __SDK_VERSION__ : '0.0.0-dev';
const USER_AGENT = `orquestra-node/${SDK_VERSION} node/${process.versions.node}`;

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

  async request<T>(spec: RequestSpec, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    // Only routes that honour a key get one: elsewhere the API ignores it, and a POST carrying a key
    // it ignores would look safe to retry when it is not.
    const idempotencyKey =
      spec.idempotencyKey === undefined ? null : (options.idempotencyKey ?? (spec.idempotencyKey === true ? randomUUID() : spec.idempotencyKey));
    const apiKey = options.apiKey ?? this.options.apiKey;
    if (!apiKey) throw new Error('Orquestra: informe apiKey (svc_test_… ou svc_live_…).');
    const headers: Record<string, string> = {
      authorization: `Bearer ${apiKey}`,
      accept: 'application/json',
      'user-agent': USER_AGENT,
    };
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    const url = `${this.baseUrl}${spec.path}${queryString(spec.query)}`;
    const replaySafe = isReplaySafe(spec.method, idempotencyKey !== null);
    const retry = options.maxRetries === undefined ? this.retry : { ...this.retry, maxRetries: options.maxRetries };
    const timeout = options.timeout ?? this.options.timeoutMs ?? 30_000;
    const { signal } = options;

    for (let tries = 1; ; tries += 1) {
      if (signal?.aborted) throw abortedError(signal);
      let response: Response;
      let body: unknown;
      const trySignal = signal ? AbortSignal.any([signal, AbortSignal.timeout(timeout)]) : AbortSignal.timeout(timeout);
      try {
        response = await this.fetchImpl(url, {
          method: spec.method,
          headers,
          body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
          signal: trySignal,
        });
        body = await parseBody(response);
      } catch (cause) {
        if (signal?.aborted) throw abortedError(signal);
        // No answer: the request may or may not have been applied; only a replay-safe one goes again.
        const wait = replaySafe ? retryDelayMs(tries, null, retry) : undefined;
        if (wait === undefined) throw connectionError(cause);
        await this.pause(wait, signal);
        continue;
      }
      if (response.ok) return { data: body as T, status: response.status, headers: response.headers, idempotencyKey, tries };
      const wait = replaySafe && isRetryableStatus(response.status) ? retryDelayMs(tries, response.headers.get('retry-after'), retry) : undefined;
      if (wait === undefined) throw errorFromResponse(response.status, body, response.headers);
      await this.pause(wait, signal);
    }
  }

  /** The backoff wait, cut short (with RequestAbortedError) when the caller aborts. */
  private async pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (!signal) return this.sleep(ms);
    if (signal.aborted) throw abortedError(signal);
    let onAbort = (): void => undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortedError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([this.sleep(ms), aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}

function abortedError(signal: AbortSignal): OrquestraError {
  const error = new RequestAbortedError({ message: 'A chamada foi cancelada pelo AbortSignal do chamador.', code: 'request_aborted' });
  (error as { cause?: unknown }).cause = signal.reason;
  return error;
}

function connectionError(cause: unknown): OrquestraError {
  // Duck-typed: the timeout's DOMException is not an `instanceof Error` in every realm (jest's vm).
  const { name, message } = (typeof cause === 'object' && cause !== null ? cause : {}) as { name?: unknown; message?: unknown };
  const reason = typeof message === 'string' ? message : String(cause);
  const timedOut = name === 'TimeoutError' || name === 'AbortError';
  const error = new ConnectionError({
    message: timedOut
      ? 'A API não respondeu a tempo. Consulte o recurso antes de repetir uma operação sem Idempotency-Key.'
      : `Não foi possível falar com a API (${reason}). Verifique baseUrl e a rede.`,
    code: timedOut ? 'timeout' : 'connection_error',
  });
  (error as { cause?: unknown }).cause = cause;
  return error;
}
