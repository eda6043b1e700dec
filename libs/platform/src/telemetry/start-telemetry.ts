/**
 * OpenTelemetry for one service process. Import this (through the service's own `telemetry.ts`)
 * FIRST in main.ts: instrumentations patch http, express, @grpc/grpc-js, mongodb, amqplib and
 * pino as they are required, so they must be registered before anything else loads them. That is
 * why this module is a separate entry (`@orquestra/platform/telemetry`) importing nothing of ours.
 *
 * The exporter is configured by the standard `OTEL_*` variables (OTLP: OTEL_EXPORTER_OTLP_ENDPOINT,
 * OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_TRACES_EXPORTER, OTEL_BSP_*), which the SDK reads itself; this
 * module only looks at whether any is set. Without them nothing is recorded: every span is a
 * non-recording one (ParentBased over AlwaysOff, unless OTEL_TRACES_SAMPLER says otherwise), which
 * still carries a trace id into logs and across services but costs no attributes, events or span
 * processing on the hot path. With an exporter the SDK's sampler settings apply (default: every
 * trace; the chart documents ratio sampling for production).
 */
import { NodeSDK } from '@opentelemetry/sdk-node';
import { AmqplibInstrumentation } from '@opentelemetry/instrumentation-amqplib';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { AlwaysOffSampler, ParentBasedSampler } from '@opentelemetry/sdk-trace';

const EXPORT_VARIABLES = ['OTEL_TRACES_EXPORTER', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'];

let started: NodeSDK | undefined;

// eslint-disable-next-line no-restricted-syntax -- the OTEL_* variables belong to the SDK, which reads them itself
export function startTelemetry(serviceName: string, env: Record<string, string | undefined> = process.env): NodeSDK {
  if (started) return started;
  const exporting = EXPORT_VARIABLES.some((name) => Boolean(env[name]) && env[name] !== 'none');
  // Without an exporter only the instrumentations that carry the trace context between processes
  // (HTTP, gRPC, the broker, provider calls) and into logs (pino) are registered: the store's and
  // express's produce only spans, which nothing records then, and the store's built a statement
  // string for every command (about 2 % of a busy service's CPU in the benchmark's profiles).
  const instrumentations = [
    new HttpInstrumentation({
      // Probes and scrapes are noise in traces.
      ignoreIncomingRequestHook: (request) => /^\/(healthz|readyz|metrics)\b/.test(request.url ?? ''),
    }),
    new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
    new AmqplibInstrumentation(),
    // Provider API calls (undici) and fetch.
    new UndiciInstrumentation(),
    // Adds trace_id / span_id to every pino record logged inside a span.
    new PinoInstrumentation(),
    ...(exporting ? [new ExpressInstrumentation(), new MongoDBInstrumentation({ enhancedDatabaseReporting: false })] : []),
  ];
  const sdk = new NodeSDK({
    serviceName: env['OTEL_SERVICE_NAME'] ?? serviceName,
    instrumentations,
    ...(exporting ? {} : { spanProcessors: [] }),
    ...(exporting || env['OTEL_TRACES_SAMPLER'] ? {} : { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }) }),
  });
  sdk.start();
  started = sdk;
  const stop = () => void sdk.shutdown().catch(() => undefined);
  process.once('beforeExit', stop);
  return sdk;
}
