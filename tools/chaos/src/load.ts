/**
 * The chaos run's load: `lanes` merchants' workers, each creating Pix payments one after the other
 * through the real SDK (@orquestra/node) with its retries and one Idempotency-Key per payment, the
 * way a merchant's code should call the API. The SDK's fetch is wrapped to record every try, so the
 * report tells the tries that failed (absorbed by a retry or not) from what the merchant's code saw.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Orquestra, OrquestraError } from '@orquestra/node';
import type { RequestRecord, TryRecord } from './audit';

export interface CreatedPayment {
  id: string;
  provider_payment_id: string;
  provider_account_id: string;
}

export interface Load {
  tries: TryRecord[];
  requests: RequestRecord[];
  payments: CreatedPayment[];
  /** Stops the lanes and waits for the requests in flight. */
  stop(): Promise<void>;
}

export function startLoad(options: { baseUrl: string; apiKey: string; lanes: number; pauseMs?: number }): Load {
  const tries: TryRecord[] = [];
  const requests: RequestRecord[] = [];
  const payments: CreatedPayment[] = [];
  // Which create a try belongs to (the SDK's fetch does not say): set around each create.
  const current = new AsyncLocalStorage<string>();
  const recordingFetch: typeof fetch = async (input, init) => {
    const start = Date.now();
    const request = current.getStore() ?? '';
    try {
      const response = await fetch(input, init);
      const ok = response.status < 500 && response.status !== 429;
      tries.push({ start, end: Date.now(), ok, outcome: String(response.status), request });
      return response;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      tries.push({ start, end: Date.now(), ok: false, outcome: cause?.code ?? (error as Error).name, request });
      throw error;
    }
  };
  // The SDK's retry budget (by default 3 tries of up to 30 s, about 90 s) cut into shorter tries:
  // 6 tries of up to 15 s, so a try held by a process that was killed is given up on and
  // repeated sooner, and the report sees each one.
  const client = new Orquestra({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    timeoutMs: 15_000,
    retry: { maxRetries: 5, initialDelayMs: 250, maxDelayMs: 2_000 },
    fetch: recordingFetch,
  });
  let running = true;
  let sequence = 0;
  const lane = async () => {
    while (running) {
      sequence += 1;
      const idempotencyKey = randomUUID();
      const start = Date.now();
      const triesBefore = tries.length;
      try {
        const payment = await current.run(idempotencyKey, () => client.payments.create(
          { method: 'pix', amount: 1_000 + (sequence % 500), description: 'Pedido de teste (chaos)', customer: { name: 'Maria Silva', email: 'maria@example.com' } },
          { idempotencyKey },
        ));
        requests.push({ start, end: Date.now(), ok: true, tries: tries.length - triesBefore, idempotencyKey, paymentId: payment.id });
        payments.push({ id: payment.id, provider_payment_id: payment.provider_payment_id ?? '', provider_account_id: payment.provider_account_id ?? '' });
      } catch (error) {
        const code = error instanceof OrquestraError ? `${error.statusCode ?? 'no answer'} ${error.code}` : (error as Error).name;
        requests.push({ start, end: Date.now(), ok: false, tries: tries.length - triesBefore, idempotencyKey, error: code });
      }
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  };
  const lanes = Array.from({ length: options.lanes }, lane);
  return {
    tries,
    requests,
    payments,
    stop: async () => {
      running = false;
      await Promise.all(lanes);
    },
  };
}
