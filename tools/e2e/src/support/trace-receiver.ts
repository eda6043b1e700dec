import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';

/**
 * A minimal OTLP/HTTP JSON trace receiver (what an OpenTelemetry Collector's otlphttp receiver
 * accepts at /v1/traces). Every received span is appended to `file` as one JSON line
 * `{service, traceId, spanId, parentSpanId, name, kind}`, for the tracing suite to read.
 */
export async function startTraceReceiver(file: string): Promise<{ server: Server; endpoint: string }> {
  writeFileSync(file, '');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpTraces;
        const lines: string[] = [];
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value?.stringValue ?? '';
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              lines.push(JSON.stringify({ service, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId ?? '', name: span.name, kind: span.kind }));
            }
          }
        }
        if (lines.length > 0) appendFileSync(file, `${lines.join('\n')}\n`);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  return { server, endpoint: `http://127.0.0.1:${port}` };
}

interface OtlpTraces {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value?: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number }> }>;
  }>;
}
