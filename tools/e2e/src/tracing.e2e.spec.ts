import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { api, eventually, pixPayment } from './support/api';
import { SPANS_FILE } from './support/stack-info';
import { WebhookReceiver } from './support/webhook-receiver';

interface SpanLine {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
}

const spansOf = (traceId: string): SpanLine[] =>
  readFileSync(SPANS_FILE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SpanLine)
    .filter((span) => span.traceId === traceId);

describe('distributed tracing (OpenTelemetry, OTLP)', () => {
  it('follows one payment creation as one trace: REST → gRPC → provider HTTP → RabbitMQ → consumer', async () => {
    // The caller's own trace context (W3C traceparent) is continued, as from a merchant's traced bot.
    const traceId = randomBytes(16).toString('hex');
    const response = await api('POST', '/v1/payments', {
      body: pixPayment(),
      idempotencyKey: `trace-${traceId}`,
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(response.status).toBe(201);

    const services = ['gateway', 'payments', 'routing', 'providers', 'notifications'];
    const spans = await eventually(
      async () => {
        const found = spansOf(traceId);
        // Each service exports its spans in its own batches: wait for the last of the ones checked below.
        // A parent span ends, and is exported, after its children: wait until every parent but the
        // caller's own (never exported) is there too, or the trace is reported broken.
        const ids = new Set(found.map((span) => span.spanId));
        const orphans = found.filter((span) => span.parentSpanId && !ids.has(span.parentSpanId));
        const complete =
          orphans.length <= 1 &&
          services.every((service) => found.some((span) => span.service === service)) &&
          found.some((span) => span.service === 'payments' && span.kind === 4) &&
          found.some((span) => span.service === 'notifications' && span.kind === 5) &&
          found.some((span) => span.service === 'providers' && span.kind === 3);
        return complete ? found : undefined;
      },
      `spans of trace ${traceId} from ${services.join(', ')}, each span's parent among them`,
      // Generous: on a loaded CI machine the event consumers may be catching up with earlier suites.
      45_000,
    );
    const names = spans.map((span) => `${span.service}:${span.name}`);
    // gRPC server spans of the services the gateway and payments called.
    expect(names).toEqual(expect.arrayContaining(['payments:grpc.orquestra.payments.v1.PaymentsService/CreatePayment']));
    expect(names.some((name) => name.startsWith('routing:grpc.orquestra.routing.v1.RoutingService/'))).toBe(true);
    expect(names).toEqual(expect.arrayContaining(['providers:grpc.orquestra.providers.v1.ProvidersService/CreateCharge']));
    // The provider's API was called over HTTP inside the trace (client span, kind 3).
    expect(spans.some((span) => span.service === 'providers' && span.kind === 3 && /^(PUT|POST|GET)/.test(span.name))).toBe(true);
    // The events went through RabbitMQ and were consumed in the same trace.
    expect(spans.some((span) => span.service === 'payments' && span.kind === 4)).toBe(true); // producer
    expect(spans.some((span) => span.service === 'notifications' && span.kind === 5)).toBe(true); // consumer
    // (Every span but the caller's own root hangs from a span of the same trace: the wait above
    // requires it, and times out, failing, on a trace whose propagation broke.)
  });

  it('carries the trace of a payment through to its payment.succeeded webhook delivery', async () => {
    const receiver = await new WebhookReceiver().start();
    const hook = await api('POST', '/v1/webhook-endpoints', { body: { url: `${receiver.url}/traced`, events: ['payment.succeeded'] } });
    expect(hook.status).toBe(201);
    try {
      // The payment is created in the caller's trace; it is paid later by the provider's own webhook
      // (here the sandbox's, asked for in another, unrelated trace). payments applies the provider's
      // report in the trace of the payment's creation, so payment.succeeded is delivered in it.
      const traceId = randomBytes(16).toString('hex');
      const otherTraceId = randomBytes(16).toString('hex');
      const created = await api('POST', '/v1/payments', {
        body: pixPayment(),
        idempotencyKey: `trace-wh-${traceId}`,
        headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
      });
      expect(created.status).toBe(201);
      const paid = await api('POST', `/v1/payments/${created.body.id}/simulate`, { headers: { traceparent: `00-${otherTraceId}-${randomBytes(8).toString('hex')}-01` } });
      expect(paid.body.status).toBe('succeeded');

      const delivered = await eventually(
        async () => receiver.at('/traced').find((r) => r.event.type === 'payment.succeeded' && r.event.data.object.id === created.body.id),
        'the payment.succeeded delivery',
        45_000,
      );
      // The receiver is handed the same trace (W3C traceparent on the webhook request).
      expect(delivered.traceparent.split('-')[1]).toBe(traceId);
      const spans = await eventually(
        async () => {
          const found = spansOf(traceId);
          // The delivery's parent (the consumer's span) ends, and is exported, after the delivery.
          const deliver = found.find((span) => span.service === 'notifications' && span.name === 'webhook.deliver');
          return deliver && found.some((span) => span.spanId === deliver.parentSpanId) && found.some((span) => span.service === 'notifications' && span.kind === 3)
            ? found
            : undefined;
        },
        `the webhook delivery spans of trace ${traceId}`,
        45_000,
      );
      // The delivery hangs from the trace: its parent is a span of the same trace (the consumer's),
      // which the wait above required to arrive.
      const deliver = spans.find((span) => span.service === 'notifications' && span.name === 'webhook.deliver')!;
      const post = spans.find((span) => span.service === 'notifications' && span.kind === 3 && span.parentSpanId === deliver.spanId);
      expect(post?.name).toMatch(/^POST/);
      // …and the chain reaches back to the payment's change in payments and the gateway's request.
      expect(spans.some((span) => span.service === 'payments' && span.name === 'payment.apply_provider_update')).toBe(true);
      expect(spans.some((span) => span.service === 'payments' && span.kind === 4)).toBe(true);
      expect(spans.some((span) => span.service === 'gateway')).toBe(true);
    } finally {
      await api('DELETE', `/v1/webhook-endpoints/${hook.body.id}`);
      await receiver.stop();
    }
  });
});
