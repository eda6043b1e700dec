import { computeSignature, SIGNATURE_HEADER, type Event } from '@orquestra/node';
import { abortableSleep } from '../io';

/** The body a real webhook delivery carries for this event (the notifications service's shape). */
export function deliveryBody(event: Event): string {
  return JSON.stringify({ id: event.id, object: 'event', type: event.type, created: event.created, data: event.data });
}

/** `Service-Signature` exactly as a real delivery signs it: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signatureHeader(secret: string, body: string, timestampSeconds = Math.floor(Date.now() / 1000)): string {
  return `t=${timestampSeconds},v1=${computeSignature(secret, timestampSeconds, body)}`;
}

export interface ForwardOptions {
  url: string;
  secret: string;
  fetch?: typeof fetch;
  signal: AbortSignal;
  /** Tries when nothing answers (connection refused, timeout); an HTTP answer of any status is final. */
  maxTries?: number;
  /** First pause between tries, doubled each time. */
  initialDelayMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Told before each new try (the command prints it). */
  onRetry?: (attempt: number, delayMs: number, reason: string) => void;
}

export type ForwardResult = { status: number; tries: number } | { error: string; tries: number };

/**
 * POSTs the event to the local URL with the headers of a real delivery (Service-Signature,
 * Service-Event-Id, Service-Event-Type), signed afresh at every try so the timestamp is current.
 * Retries with doubling pauses only while nothing answers: the local server may be restarting.
 */
export async function forwardEvent(event: Event, options: ForwardOptions): Promise<ForwardResult> {
  const body = deliveryBody(event);
  const send = options.fetch ?? fetch;
  const sleep = options.sleep ?? abortableSleep;
  const maxTries = options.maxTries ?? 5;
  let delay = options.initialDelayMs ?? 500;
  for (let tries = 1; ; tries += 1) {
    try {
      const response = await send(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'orquestra-cli (orq listen)',
          [SIGNATURE_HEADER]: signatureHeader(options.secret, body),
          'Service-Event-Id': event.id,
          'Service-Event-Type': event.type,
        },
        body,
        signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs ?? 10_000)]),
      });
      // The answer is not read beyond its status, but drain it so the connection is reused.
      await response.arrayBuffer().catch(() => undefined);
      return { status: response.status, tries };
    } catch (cause) {
      const reason = describe(cause);
      if (options.signal.aborted || tries >= maxTries) return { error: reason, tries };
      options.onRetry?.(tries, delay, reason);
      await sleep(delay, options.signal);
      delay *= 2;
    }
  }
}

function describe(cause: unknown): string {
  // Duck-typed: fetch's errors may come from another realm (instanceof Error is not reliable).
  const error = cause as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } } | null;
  if (error?.name === 'TimeoutError') return 'sem resposta a tempo';
  return error?.cause?.code ?? error?.code ?? error?.cause?.message ?? error?.message ?? String(cause);
}
