import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { api, eventually, pixPayment } from './support/api';
import { SPANS_FILE } from './support/stack-info';

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
        return services.every((service) => found.some((span) => span.service === service)) ? found : undefined;
      },
      `spans of trace ${traceId} from ${services.join(', ')}`,
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
    // Every span but the root chain hangs from a span of the same trace.
    const ids = new Set(spans.map((span) => span.spanId));
    const orphans = spans.filter((span) => span.parentSpanId && !ids.has(span.parentSpanId));
    expect(orphans.length).toBeLessThanOrEqual(1); // only the caller's own (unexported) parent
  });
});
