import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { DueWorker, EVENT_ID_HEADER, SIGNATURE_HEADER, signWebhookPayload } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { EventDoc, EventModel } from '../db/event.model';
import type { WebhookDeliveryDoc } from '../db/webhook-delivery.model';
import type { WebhookDeliveryStore } from '../db/webhook-delivery.store';
import type { WebhookEndpointDoc } from '../db/webhook-endpoint.model';
import type { WebhookEndpointStore } from '../db/webhook-endpoint.store';
import { nextAttemptAt, type RetryPolicy } from '../domain/retry-schedule';
import type { DeliveryMetrics } from './delivery-metrics';
import type { WebhookSender } from './webhook-sender';

const tracer = trace.getTracer('orquestra-notifications');

/** The body every receiver gets: the public event object (spec §6). */
export function webhookBody(event: EventDoc): string {
  return JSON.stringify({ id: event._id, object: 'event', type: event.type, created: event.created, data: event.data });
}

/**
 * What the fan-out already read for a delivery it queued: the logged event and the endpoint. The
 * first attempt uses them instead of reading both again (two store reads per webhook). The endpoint
 * may have changed in the milliseconds since: a disabling is then seen by the next attempt, as it
 * would be if it came during the send, and a secret rotation keeps the previous secret valid for
 * its overlap, so the signature verifies either way.
 */
export interface DeliveryHint {
  event: EventDoc;
  endpoint: WebhookEndpointDoc;
}

export interface DeliveryWorkerOptions {
  events: EventModel;
  endpoints: WebhookEndpointStore;
  deliveries: WebhookDeliveryStore;
  sender: WebhookSender;
  logger: Logger;
  policy: RetryPolicy;
  disableAfterMs: number;
  pollIntervalMs: number;
  concurrency: number;
  /** Longer than one attempt can take, so a live claim is never taken over. */
  leaseMs: number;
  metrics?: DeliveryMetrics;
}

/**
 * Sends due deliveries (due work: safe on any number of replicas; a replica that dies mid-send
 * leaves its claim to expire, and the delivery is sent again — receivers dedupe by event id).
 */
export function createWebhookDeliveryWorker(options: DeliveryWorkerOptions): DueWorker<WebhookDeliveryDoc, DeliveryHint> {
  return new DueWorker<WebhookDeliveryDoc, DeliveryHint>({
    name: 'webhook-delivery',
    collection: options.deliveries.collection,
    filter: { status: 'pending' },
    logger: options.logger,
    pollIntervalMs: options.pollIntervalMs,
    concurrency: options.concurrency,
    leaseMs: options.leaseMs,
    handle: (delivery, logger, hint) => deliverOnce(delivery, options, logger, hint),
  });
}

/**
 * One attempt of a delivery the DueWorker claimed (its due_at is the claim's lease end, which the
 * attempt's record replaces with the next try or null).
 */
export async function deliverOnce(delivery: WebhookDeliveryDoc, options: DeliveryWorkerOptions, logger: Logger, hint?: DeliveryHint): Promise<void> {
  const endpoint = hint?.endpoint._id === delivery.endpoint_id ? hint.endpoint : await options.endpoints.byId(delivery.endpoint_id);
  // A resend by hand goes out even to a disabled endpoint (the merchant asked for it).
  if (!endpoint || (!endpoint.enabled && !delivery.manual)) {
    await options.deliveries.cancel(delivery);
    return;
  }
  const event = hint?.event._id === delivery.event_id ? hint.event : await options.events.findById(delivery.event_id).lean<EventDoc>();
  if (!event) throw new Error(`event ${delivery.event_id} of delivery ${delivery._id} is not in the log`);
  const body = webhookBody(event);
  const headers = {
    [SIGNATURE_HEADER]: signWebhookPayload(body, options.endpoints.signingSecrets(endpoint)),
    [EVENT_ID_HEADER]: event._id,
    'Service-Event-Type': event.type,
    'Service-Delivery-Id': delivery._id,
  };
  // The attempt continues the trace of the change that produced the event (see WebhookDeliveryDoc.trace).
  const parent = delivery.trace ? propagation.extract(ROOT_CONTEXT, delivery.trace) : context.active();
  const result = await tracer.startActiveSpan(
    'webhook.deliver',
    { kind: SpanKind.INTERNAL, attributes: { 'orquestra.event_id': event._id, 'orquestra.event_type': event.type, 'orquestra.webhook_endpoint_id': endpoint._id, 'orquestra.delivery_id': delivery._id } },
    parent,
    async (span) => {
      try {
        const sent = await options.sender.send(endpoint.url, body, headers, endpoint.mode);
        span.setAttribute('http.response.status_code', sent.status_code);
        if (sent.status_code < 200 || sent.status_code >= 300) span.setStatus({ code: SpanStatusCode.ERROR, message: sent.error });
        return sent;
      } finally {
        span.end();
      }
    },
  );
  options.metrics?.attempt(result, delivery.created_at, delivery.attempts.length === 0);
  const now = new Date();
  const delivered = result.status_code >= 200 && result.status_code < 300;
  const gone = result.status_code === 410;
  const updated = await options.deliveries.recordAttempt(delivery, (current) => {
    const attempt = { at: now, status_code: result.status_code, latency_ms: result.latency_ms, error: result.error };
    if (delivered) return { attempt, status: 'delivered', due_at: null };
    if (gone) return { attempt, status: 'failed', due_at: null };
    const failedAttempts = current.attempts.filter((a) => a.at.getTime() >= current.window_start.getTime()).length + 1;
    const next = nextAttemptAt({ failedAttempts, windowStart: current.window_start, now, policy: options.policy, retryAfterMs: result.retry_after_ms });
    return { attempt, status: next ? 'pending' : 'failed', due_at: next };
  });
  logger.info(
    { delivery_id: delivery._id, event_id: event._id, endpoint_id: endpoint._id, status_code: result.status_code, latency_ms: result.latency_ms, next: updated.due_at },
    delivered ? 'webhook delivered' : 'webhook attempt failed',
  );
  if (delivered) {
    // Always: a failure of a concurrent attempt may have marked the endpoint failing after it was
    // read above, and a 2xx must clear that (markHealthy only writes when something is to clear).
    await options.endpoints.markHealthy(endpoint._id);
  } else if (endpoint.enabled) {
    const disabled = await options.endpoints.markFailing(endpoint._id, { gone, disableAfterMs: options.disableAfterMs, now });
    if (disabled) logger.warn({ endpoint_id: endpoint._id, reason: gone ? 'gone' : 'failing' }, 'webhook endpoint disabled');
  }
}
