/**
 * The HTTP core every adapter talks through: one keep-alive pool per account (with its mTLS
 * identity), timeouts, a request id on every request, one hook for metrics and logs, and the
 * wire table of transport-errors.ts. An adapter adds only what is its provider's: auth headers,
 * paths, bodies, and its own table for the answers this core hands back.
 */
import { newId } from '@orquestra/platform';
import { Agent, request, type Dispatcher } from 'undici';
import type { AdapterContext } from '../provider-adapter';
import { tlsConnectOptions, type ProviderTlsOptions } from './tls-context';
import {
  providerErrorForWire,
  transportCode,
  wireOutcomeOfFailure,
  wireOutcomeOfStatus,
  type RequestPurpose,
  type WireOutcome,
} from './transport-errors';

/** One finished exchange, for metrics and logs. Carries no path, header or body: those hold secrets and personal data (an Efí path names the Pix key). */
export interface HttpExchange {
  provider: string;
  operation: RequestPurpose['operation'];
  httpMethod: string;
  /** Our id of the request, sent as `x-request-id`. */
  requestId: string;
  /** The answer's status, when there was one. */
  status?: number;
  /** What the wire table saw, when it classified the exchange as a failure. */
  outcome?: WireOutcome;
  /** The transport error code of a failure without an answer (ECONNRESET, UND_ERR_HEADERS_TIMEOUT…). */
  transportCode?: string;
  seconds: number;
}

export type HttpExchangeObserver = (exchange: HttpExchange) => void;

export interface ProviderHttpOptions {
  /** Names the provider in errors, logs and metrics. */
  provider: string;
  /** The API base; request paths are appended to it. */
  baseUrl: string;
  /** Per request: connecting, and waiting for the answer's headers and body (undici's timers tick at ~0.5–1 s). */
  timeoutMs: number;
  /** The pool's TLS: an extra CA added to Node's roots (never replacing them), the account's client certificate. */
  tls?: ProviderTlsOptions;
  /** Body parser; JSON by default. Asaas needs its exact-decimal parser. */
  parse?: (text: string) => unknown;
  observe?: HttpExchangeObserver;
}

export interface HttpRequest {
  method: Dispatcher.HttpMethod;
  /** Appended to the base URL (query included). */
  path: string;
  /** What the request is, for the wire table: a create names its payment method. */
  purpose: RequestPurpose | Exclude<RequestPurpose['operation'], 'create'>;
  headers?: Record<string, string>;
  /** The serialized body; its content type goes in `headers`. */
  body?: string;
}

export interface HttpAnswer {
  status: number;
  /** The parsed body, or its text when it is not what the parser reads (an HTML page from a proxy). */
  body: unknown;
  requestId: string;
}

/**
 * Forwards every callback of undici's request handler and notes when the request was written to
 * the socket (`onRequestSent`, or an answer starting): the line between "never left" and "may have
 * been acted on" in the wire table.
 */
class SentTracker implements Dispatcher.DispatchHandler {
  sent = false;

  constructor(private readonly inner: Dispatcher.DispatchHandler) {}

  onConnect(abort: (err?: Error) => void): void {
    this.inner.onConnect?.(abort);
  }

  onRequestSent(): void {
    this.sent = true;
    (this.inner as { onRequestSent?: () => void }).onRequestSent?.();
  }

  onBodySent(chunkSize: number, totalBytesSent: number): void {
    this.inner.onBodySent?.(chunkSize, totalBytesSent);
  }

  onResponseStarted(): void {
    this.sent = true;
    this.inner.onResponseStarted?.();
  }

  onHeaders(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    this.sent = true;
    return this.inner.onHeaders?.(statusCode, headers, resume, statusText) ?? true;
  }

  onData(chunk: Buffer): boolean {
    return this.inner.onData?.(chunk) ?? true;
  }

  onComplete(trailers: string[] | null): void {
    this.inner.onComplete?.(trailers);
  }

  onError(err: Error): void {
    this.inner.onError?.(err);
  }
}

function parseJson(text: string): unknown {
  return JSON.parse(text);
}

export class ProviderHttp {
  readonly #agent: Agent;
  private readonly baseUrl: string;

  constructor(private readonly options: ProviderHttpOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#agent = new Agent({
      connect: { timeout: options.timeoutMs, ...tlsConnectOptions(options.tls ?? {}) },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      // An idle connection is kept 30 s; a server announcing a shorter keep-alive is believed.
      keepAliveTimeout: 30_000,
    });
  }

  /** Releases the pool. */
  close(): Promise<void> {
    return this.#agent.close();
  }

  /**
   * Sends one request. Answers every status but 429 and 5xx (the adapter's own table reads them);
   * those, and failures without an answer, throw the wire table's ProviderError.
   */
  async send(request_: HttpRequest): Promise<HttpAnswer> {
    const req = { ...request_, purpose: typeof request_.purpose === 'string' ? { operation: request_.purpose } : request_.purpose };
    const requestId = newId('request');
    const started = performance.now();
    const tracker = { handler: undefined as SentTracker | undefined };
    const agent = this.#agent;
    // A per-request dispatcher: undici's `request` only calls `dispatch` on it.
    const dispatcher = {
      dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
        tracker.handler = new SentTracker(handler);
        return agent.dispatch(options, tracker.handler);
      },
    } as unknown as Dispatcher;
    const what = `${this.options.provider} ${req.purpose.operation} ${req.method} ${requestId}`;
    const record = (fields: Partial<HttpExchange>) =>
      this.options.observe?.({
        provider: this.options.provider,
        operation: req.purpose.operation,
        httpMethod: req.method,
        requestId,
        seconds: (performance.now() - started) / 1000,
        ...fields,
      });
    let status: number;
    let text: string;
    try {
      const response = await request(`${this.baseUrl}${req.path}`, {
        method: req.method,
        headers: { ...req.headers, 'x-request-id': requestId },
        ...(req.body === undefined ? {} : { body: req.body }),
        dispatcher,
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (err) {
      const outcome = wireOutcomeOfFailure(err, tracker.handler?.sent ?? false);
      record({ outcome, transportCode: transportCode(err) });
      throw providerErrorForWire(outcome, req.purpose, `${what} (${transportCode(err)})`);
    }
    const outcome = wireOutcomeOfStatus(status);
    record({ status, ...(outcome ? { outcome } : {}) });
    if (outcome) throw providerErrorForWire(outcome, req.purpose, what, status);
    let body: unknown = text;
    try {
      body = text ? (this.options.parse ?? parseJson)(text) : undefined;
    } catch {
      // Not what the parser reads (an HTML page from a proxy): keep the text for the message.
    }
    return { status, body, requestId };
  }
}

/** The pool of one account built from its AdapterContext; `extra` adds what the provider needs (a client certificate, a parser). */
export function accountHttp(provider: string, context: Pick<AdapterContext, 'baseUrl' | 'timeoutMs' | 'caPem' | 'observe'>, extra: Partial<ProviderHttpOptions> = {}): ProviderHttp {
  return new ProviderHttp({
    provider,
    baseUrl: context.baseUrl,
    timeoutMs: context.timeoutMs,
    ...(context.observe ? { observe: context.observe } : {}),
    ...extra,
    tls: { caPem: context.caPem, ...extra.tls },
  });
}
