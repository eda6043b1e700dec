import { randomUUID } from 'node:crypto';
import { Orquestra, type CreatePaymentParams } from '@orquestra/node';
import { stackInfo } from './stack-info';

export interface ApiResponse<T = Record<string, any>> {
  status: number;
  body: T;
  headers: Headers;
}

/** A thin REST client over fetch: what a merchant's code or bot would send. */
export async function api<T = Record<string, any>>(
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; rawBody?: string; idempotencyKey?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const key = options.key === undefined ? stackInfo().testKey : options.key;
  if (key) headers.authorization = `Bearer ${key}`;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['content-type'] = 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${stackInfo().baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    // leave as text: the assertions will say what came back
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

export function pixPayment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    method: 'pix',
    amount: 1990,
    description: 'Pedido de teste',
    customer: { name: 'Maria Silva', email: 'maria@example.com' },
    metadata: { order_id: randomUUID() },
    ...overrides,
  };
}

/** The typed SDK (libs/sdk) as a merchant's code would use it, on this stack. */
export function sdk(key?: string): Orquestra {
  // No automatic retries: a test must see the first answer.
  return new Orquestra({ apiKey: key ?? stackInfo().testKey, baseUrl: stackInfo().baseUrl, retry: { maxRetries: 0 } });
}

/** Creates a Pix payment through the SDK (its create always sends an Idempotency-Key). */
export async function createPix(overrides: Record<string, unknown> = {}, key?: string): Promise<Record<string, any>> {
  const payment = await sdk(key).payments.create(pixPayment(overrides) as unknown as CreatePaymentParams, { idempotencyKey: randomUUID() });
  return payment as unknown as Record<string, any>;
}

export async function emulator(method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${stackInfo().efiControlUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return text ? (JSON.parse(text) as Record<string, any>) : {};
}

/**
 * Polls `probe` until it answers something, for background work across the stack (a relayed
 * event, a consumer, a webhook). The default deadline is generous (a loaded 2-core CI machine runs
 * the whole stack): it only costs time when the thing never happens.
 */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
