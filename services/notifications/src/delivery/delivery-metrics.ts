import { Counter, Histogram, type Registry } from 'prom-client';
import type { SendResult } from './webhook-sender';

export type AttemptOutcome = 'delivered' | 'gone' | 'rate_limited' | 'http_error' | 'redirect' | 'timeout' | 'connection_error';

/** Sorts one attempt into an outcome: only a 2xx is delivered (docs/events.md "Deliveries"). */
export function attemptOutcome(result: Pick<SendResult, 'status_code' | 'error'>): AttemptOutcome {
  const code = result.status_code;
  if (code >= 200 && code < 300) return 'delivered';
  if (code === 410) return 'gone';
  if (code === 429) return 'rate_limited';
  if (code >= 300 && code < 400) return 'redirect';
  if (code > 0) return 'http_error';
  return /^timeout/.test(result.error) ? 'timeout' : 'connection_error';
}

/**
 * Webhook delivery metrics: attempts by outcome, the receivers' answer time, and how long a
 * delivery waited from being queued (the event's arrival) to its first successful attempt.
 */
export class DeliveryMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly duration: Histogram<'outcome'>;
  private readonly queuedToDelivered: Histogram;

  constructor(registry: Registry) {
    this.attempts = new Counter({
      name: 'orquestra_webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome (delivered, gone, rate_limited, http_error, redirect, timeout, connection_error).',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'orquestra_webhook_delivery_duration_seconds',
      help: "Time from sending a webhook to the receiver's answer (or the failure), by outcome.",
      labelNames: ['outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    this.queuedToDelivered = new Histogram({
      name: 'orquestra_webhook_first_attempt_delay_seconds',
      help: 'Time from queuing a delivery (the event reached notifications) to the end of its first attempt.',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
  }

  attempt(result: SendResult, queuedAt: Date, first: boolean): void {
    const outcome = attemptOutcome(result);
    this.attempts.inc({ outcome });
    this.duration.observe({ outcome }, result.latency_ms / 1000);
    if (first) this.queuedToDelivered.observe((Date.now() - queuedAt.getTime()) / 1000);
  }
}
