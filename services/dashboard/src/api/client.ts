/**
 * The dashboard's one way to the server: same-origin JSON calls to /dashboard/api (the owner
 * session is an HttpOnly cookie the browser sends by itself). Every mutating call carries the
 * X-CSRF-Token of GET /dashboard/api/me; every call carries the chosen mode (X-Orquestra-Mode).
 * Errors come back as ApiError with the API's own Portuguese message.
 */
import { currentMode } from '../lib/mode';

export const API_BASE = '/dashboard/api';

/** The spec's error body, as the API answers it (message already in Portuguese). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

export interface Me {
  owner: { id: string; email: string; totp_enabled: boolean };
  merchant: { id: string; name: string };
  csrf_token: string;
}

let csrfToken: string | undefined;
/** Called when the session is gone (401 on a call that needs one): the app shows the sign-in page. */
let onSignedOut: (() => void) | undefined;

export function setSignedOutHandler(handler: () => void): void {
  onSignedOut = handler;
}

export function rememberCsrf(token: string | undefined): void {
  csrfToken = token;
}

const MUTATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export interface CallOptions {
  body?: unknown;
  /** Query parameters; empty values are left out. */
  query?: Record<string, string | number | boolean | undefined | null>;
  /** Sent as Idempotency-Key (refunds, payouts). */
  idempotencyKey?: string;
  /** The sign-in and sign-up calls: no session yet, no CSRF token, a 401 is an answer, not a sign-out. */
  anonymous?: boolean;
}

function urlOf(path: string, query: CallOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `${path.includes('?') ? '&' : '?'}${search}` : ''}`;
}

async function send(method: string, path: string, options: CallOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-orquestra-mode': currentMode() };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (MUTATING.has(method) && !options.anonymous && csrfToken) headers['x-csrf-token'] = csrfToken;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  try {
    return await fetch(urlOf(path, options.query), {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Não foi possível falar com o servidor. Verifique a conexão e tente de novo.');
  }
}

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string; param?: string | null } };
    if (body.error?.message) return new ApiError(response.status, body.error.code ?? 'error', body.error.message, body.error.param ?? null);
  } catch {
    // not JSON: fall through to a generic message
  }
  if (response.status === 404) return new ApiError(404, 'not_found', 'Não encontrado.');
  return new ApiError(response.status, 'error', `O servidor respondeu com erro (${response.status}). Tente de novo em instantes.`);
}

/** Calls /dashboard/api<path>; JSON answer or ApiError. A stale CSRF token is refreshed once. */
export async function api<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  if (MUTATING.has(method) && !options.anonymous && !csrfToken) await refreshMe();
  let response = await send(method, path, options);
  if (response.status === 403 && MUTATING.has(method) && !options.anonymous) {
    const error = await errorOf(response.clone());
    if (error.code === 'csrf_invalid') {
      await refreshMe();
      response = await send(method, path, options);
    }
  }
  if (!response.ok) {
    const error = await errorOf(response);
    if (response.status === 401 && !options.anonymous && error.code !== 'totp_required') onSignedOut?.();
    throw error;
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The public API acting as the merchant in the chosen mode: /dashboard/api/v1<path>. */
export function v1<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  return api<T>(method, `/v1${path}`, options);
}

/** GET /dashboard/api/me (also renews the CSRF token); undefined when signed out. */
export async function refreshMe(): Promise<Me | undefined> {
  const response = await send('GET', '/me', {});
  if (response.status === 401) {
    csrfToken = undefined;
    return undefined;
  }
  if (!response.ok) throw await errorOf(response);
  const me = (await response.json()) as Me;
  csrfToken = me.csrf_token;
  return me;
}

/** A fresh key for one user action (a retry of the same click reuses it). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** A list answer of the API. */
export interface List<T> {
  data: T[];
  has_more?: boolean;
}
