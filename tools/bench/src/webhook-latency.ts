import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LatencyRecorder } from './latency';

/**
 * Event-to-webhook latency against a RUNNING stack (never in CI): registers a test-mode endpoint on
 * a local receiver for `payment.created`, creates Pix payments at a small concurrency, and measures
 * from the moment POST /v1/payments answered (the event is already written, in the payment's
 * outbox) to the moment its webhook arrived: outbox relay → RabbitMQ → notifications log and
 * fan-out → due-work delivery → HTTP. Also from the request's start, as an upper bound.
 *
 *   set -a; source stack.env; set +a     # or ORQUESTRA_BASE_URL / ORQUESTRA_TEST_KEY by hand
 *   node dist/tools/bench/webhook-latency.js [payments=200] [concurrency=4]
 */
async function main(): Promise<void> {
  const baseUrl = process.env.ORQUESTRA_BASE_URL;
  const key = process.env.ORQUESTRA_TEST_KEY;
  if (!baseUrl || !key) throw new Error('set ORQUESTRA_BASE_URL and ORQUESTRA_TEST_KEY (source stack.env)');
  const total = Number(process.argv[2] ?? 200);
  const concurrency = Number(process.argv[3] ?? 4);
  const arrived = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(200).end();
      const paymentId = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { object: { id: string } } }).data.object.id;
      if (!arrived.has(paymentId)) arrived.set(paymentId, at);
      waiters.get(paymentId)?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const endpoint = (await (
    await fetch(`${baseUrl}/v1/webhook-endpoints`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench`, events: ['payment.created'], description: 'webhook latency bench' }),
    })
  ).json()) as { id: string };
  const fromAnswer = new LatencyRecorder();
  const fromRequest = new LatencyRecorder();
  let lost = 0;
  let next = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          next += 1;
          const sent = performance.now();
          const response = await fetch(`${baseUrl}/v1/payments`, {
            method: 'POST',
            headers: { ...headers, 'idempotency-key': randomUUID() },
            body: JSON.stringify({ method: 'pix', amount: 1990, customer: { name: 'Bench' } }),
          });
          const answered = performance.now();
          const payment = (await response.json()) as { id?: string };
          if (!payment.id) continue;
          const id = payment.id;
          if (!arrived.has(id)) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(() => {
                lost += 1;
                resolve();
              }, 30_000);
              waiters.set(id, () => {
                clearTimeout(timer);
                resolve();
              });
            });
          }
          const at = arrived.get(id);
          if (at === undefined) continue;
          fromAnswer.record(Math.max(0, at - answered));
          fromRequest.record(at - sent);
        }
      }),
    );
  } finally {
    await fetch(`${baseUrl}/v1/webhook-endpoints/${endpoint.id}`, { method: 'DELETE', headers });
    server.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const row = (label: string, s: ReturnType<LatencyRecorder['summary']>) =>
    `| ${label} | ${s.count} | ${s.p50.toFixed(0)} | ${s.p90.toFixed(0)} | ${s.p99.toFixed(0)} | ${s.max.toFixed(0)} |`;
  console.log(`${total} payments, concurrency ${concurrency}, ${(total / seconds).toFixed(1)} payments/s, ${lost} webhooks not seen within 30 s\n`);
  console.log('| measured from | webhooks | p50 ms | p90 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|---:|');
  console.log(row('POST /v1/payments answered (event written)', fromAnswer.summary()));
  console.log(row('POST /v1/payments sent', fromRequest.summary()));
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
