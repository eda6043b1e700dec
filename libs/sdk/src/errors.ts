// The error hierarchy of the SDK. Every failure a call can end in is one of these, so callers
// branch on the class (or on `code`) and never parse messages. `message` is the API's Portuguese
// text, which says what to do; `param` names the offending field (customer.document).

/** The spec's error body (§7): `{"error": {type, message, code, param}}`. */
export interface ApiErrorBody {
  type: string;
  message: string;
  code: string;
  param: string | null;
}

export interface OrquestraErrorInit {
  message: string;
  code: string;
  type?: string;
  param?: string | null;
  statusCode?: number | null;
  requestId?: string | null;
  headers?: Headers | null;
}

/** Base class: raised for every failed call. */
export class OrquestraError extends Error {
  /** Normalized reason, e.g. parameter_invalid, restricted_key, all_providers_failed. */
  readonly code: string;
  /** Error type of the body, e.g. invalid_request_error. */
  readonly type: string;
  /** The offending field in dotted notation, or null. */
  readonly param: string | null;
  /** HTTP status, or null when no response came back. */
  readonly statusCode: number | null;
  /** X-Request-Id of the failed request (quote it when asking for support). */
  readonly requestId: string | null;
  readonly headers: Headers | null;

  constructor(init: OrquestraErrorInit) {
    super(init.message);
    this.name = new.target.name;
    this.code = init.code;
    this.type = init.type ?? 'api_error';
    this.param = init.param ?? null;
    this.statusCode = init.statusCode ?? null;
    this.requestId = init.requestId ?? null;
    this.headers = init.headers ?? null;
  }
}

/** Raised when the request is invalid (400): a field is missing or wrong; see `param`. */
export class InvalidRequestError extends OrquestraError {}
/** Raised when the API key is missing, malformed or revoked (401). */
export class AuthenticationError extends OrquestraError {}
/** Raised when the key may not do this (403), e.g. restricted_key or live_mode_forbidden. */
export class PermissionError extends OrquestraError {}
/** Raised when the resource or route does not exist (404). */
export class NotFoundError extends OrquestraError {}
/** Raised when an Idempotency-Key was reused with another body, or is still in progress (409 idempotency_error). */
export class IdempotencyError extends OrquestraError {}
/** Raised when the resource's state forbids the action (409), e.g. payment_not_cancelable. */
export class ConflictError extends OrquestraError {}
/** Raised when the request is well-formed but cannot be carried out (422), e.g. no_eligible_account. */
export class UnprocessableError extends OrquestraError {}
/** Raised when a card was declined. */
export class CardError extends OrquestraError {}
/** Raised when too many requests were sent (429), after the retries ran out. */
export class RateLimitError extends OrquestraError {}
/** Raised when providers failed or timed out (502/503/504 with provider_error). */
export class ProviderError extends OrquestraError {}
/** Raised on any other server error (5xx), after the retries ran out. */
export class ApiError extends OrquestraError {}
/** Raised when no response arrived (connection refused, reset, timeout), after the retries ran out. */
export class ConnectionError extends OrquestraError {}
/** Raised when the caller's AbortSignal (request option `signal`) aborted the call; `cause` is the signal's reason. */
export class RequestAbortedError extends OrquestraError {}

function isErrorBody(value: unknown): value is { error: ApiErrorBody } {
  const error = (value as { error?: Partial<ApiErrorBody> } | null)?.error;
  return typeof error === 'object' && error !== null && typeof error.code === 'string' && typeof error.message === 'string';
}

/** The typed error for an HTTP answer that is not 2xx. */
export function errorFromResponse(status: number, body: unknown, headers: Headers): OrquestraError {
  const requestId = headers.get('x-request-id');
  if (!isErrorBody(body)) {
    return new ApiError({
      message: `Resposta inesperada da API (HTTP ${status}).`,
      code: 'unexpected_response',
      statusCode: status,
      requestId,
      headers,
    });
  }
  const init: OrquestraErrorInit = { ...body.error, statusCode: status, requestId, headers };
  if (body.error.type === 'card_error') return new CardError(init);
  if (body.error.type === 'idempotency_error') return new IdempotencyError(init);
  if (body.error.type === 'provider_error') return new ProviderError(init);
  switch (status) {
    case 400:
      return new InvalidRequestError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 422:
      return new UnprocessableError(init);
    case 429:
      return new RateLimitError(init);
    default:
      return status >= 500 ? new ApiError(init) : new OrquestraError(init);
  }
}
