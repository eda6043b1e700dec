/**
 * Event-to-webhook latency under the benchmark's own load: a receiver on 127.0.0.1 subscribed (a
 * real webhook endpoint of the bench merchant) to `payment.created`. For every payment the load
 * creates, it takes the time POST /v1/payments answered (the event is written by then, in the
 * payment's outbox) and the time its signed webhook arrived: the whole pipeline of outbox relay →
 * RabbitMQ → notifications (log, fan-out) → due-work delivery → HTTP. Both times are on this
 * process's clock, so no clock skew enters.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LatencyRecorder, type LatencySummary } from './latency';

export interface WebhookLatency {
  /** Payments answered 201 during the phase. */
  expected: number;
  /** Of those, payments whose payment.created webhook arrived before the phase's report. */
  delivered: number;
  latency: LatencySummary;
}

export class WebhookProbe {
  private server: Server | undefined;
  private endpointId = '';
  private answered = new Map<string, number>();
  private arrived = new Map<string, number>();
  private recorder = new LatencyRecorder();

  constructor(
    private readonly baseUrl: string,
    private readonly testKey: string,
  ) {}

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const at = performance.now();
        res.writeHead(200).end();
        try {
          const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { object: { id: string } } }).data.object.id;
          if (this.arrived.has(id)) return; // a redelivery: the first arrival counts
          this.arrived.set(id, at);
          const answeredAt = this.answered.get(id);
          if (answeredAt !== undefined) this.recorder.record(Math.max(0, at - answeredAt));
        } catch {
          // not a webhook of ours
        }
      });
    });
    this.server = server;
    // The receiver answers at once; keep-alive like a real receiver behind a load balancer.
    server.keepAliveTimeout = 10_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench`;
    const response = await fetch(`${this.baseUrl}/v1/webhook-endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, events: ['payment.created'], description: 'bench: event-to-webhook latency' }),
    });
    if (response.status !== 201) throw new Error(`could not register the bench webhook endpoint: ${response.status} ${await response.text()}`);
    this.endpointId = ((await response.json()) as { id: string }).id;
  }

  /** The load generator saw POST /v1/payments answer 201 with this body. */
  onCreated(body: string): void {
    const at = performance.now();
    const id = /"id":"(pay_[a-z0-9]+)"/.exec(body)?.[1];
    if (!id) return;
    this.answered.set(id, at);
    // The webhook beat the load generator's own bookkeeping of the answer: sub-millisecond.
    const arrivedAt = this.arrived.get(id);
    if (arrivedAt !== undefined) this.recorder.record(Math.max(0, arrivedAt - at));
  }

  /** Starts a new phase's measurement. */
  reset(): void {
    this.answered = new Map();
    this.arrived = new Map();
    this.recorder = new LatencyRecorder();
  }

  /** Waits (up to `maxWaitMs`) for the webhooks still owed, then answers the phase's figures. */
  async collect(maxWaitMs = 60_000): Promise<WebhookLatency> {
    const deadline = Date.now() + maxWaitMs;
    const owed = () => [...this.answered.keys()].filter((id) => !this.arrived.has(id)).length;
    while (owed() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    return { expected: this.answered.size, delivered: this.answered.size - owed(), latency: this.recorder.summary() };
  }

  async stop(): Promise<void> {
    if (this.endpointId) {
      await fetch(`${this.baseUrl}/v1/webhook-endpoints/${this.endpointId}`, { method: 'DELETE', headers: { authorization: `Bearer ${this.testKey}` } }).catch(() => undefined);
    }
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
