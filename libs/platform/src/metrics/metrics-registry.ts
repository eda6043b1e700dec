import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DueWorker } from '../jobs';
import type { OutboxRelay } from '../outbox';

/**
 * One Prometheus registry per process: Node's default process metrics plus what the platform
 * measures itself (RPC durations, the outbox backlog, due-work lag). Services add their own
 * metrics to `registry`.
 * Names follow Prometheus conventions: `orquestra_` prefix, base units (seconds), `_total` counters.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly rpcDuration: Histogram<'method' | 'code'>;
  /** Commands sent to the store, by command name and collection (runService counts them through connectDatabase). */
  readonly storeCommands: Counter<'command' | 'collection'>;
  /** Messages this process published to or consumed from the broker (runService wires the EventBus). */
  readonly busMessages: Counter<'direction'>;

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    this.rpcDuration = new Histogram({
      name: 'orquestra_grpc_server_handling_seconds',
      help: 'Time to handle one unary gRPC call, by method and normalized result code.',
      labelNames: ['method', 'code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.storeCommands = new Counter({
      name: 'orquestra_store_commands_total',
      help: 'Commands sent to the store (MongoDB wire protocol), by command name and collection.',
      labelNames: ['command', 'collection'],
      registers: [this.registry],
    });
    this.busMessages = new Counter({
      name: 'orquestra_bus_messages_total',
      help: 'Event messages published to the broker (confirmed) or delivered by it to this process.',
      labelNames: ['direction'],
      registers: [this.registry],
    });
  }

  /**
   * The outbox backlog, read from the database at scrape time: documents whose events are not yet
   * published, and the age of the oldest. A growing age means the broker or the relay is stuck.
   */
  watchOutbox(outbox: OutboxRelay): void {
    // Both gauges come from one read per scrape.
    let pending: Promise<{ documents: number; oldestAgeMs: number }> | undefined;
    const read = () => {
      pending ??= outbox.backlog().finally(() => setImmediate(() => (pending = undefined)));
      return pending;
    };
    new Gauge({
      name: 'orquestra_outbox_pending_documents',
      help: 'Documents holding events not yet published to the broker.',
      registers: [this.registry],
      async collect() {
        this.set((await read()).documents);
      },
    });
    new Gauge({
      name: 'orquestra_outbox_oldest_event_age_seconds',
      help: 'Age of the oldest event not yet published (0 when none waits).',
      registers: [this.registry],
      async collect() {
        this.set((await read()).oldestAgeMs / 1000);
      },
    });
  }

  /**
   * Due work of every DueWorker started in this process: how late the oldest due document is, and
   * how many documents each worker finished or failed on.
   */
  watchDueWork(): void {
    new Gauge({
      name: 'orquestra_due_work_lag_seconds',
      help: 'How long the oldest due document of each worker has been waiting (0 when nothing is due).',
      labelNames: ['worker'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const worker of DueWorker.started) {
          this.set({ worker: worker.name }, (await worker.lagMs().catch(() => 0)) / 1000);
        }
      },
    });
    const outcomes = new Counter({
      name: 'orquestra_due_work_items_total',
      help: 'Due documents handled, by worker and outcome (done, failed: retried after the lease).',
      labelNames: ['worker', 'outcome'],
      registers: [this.registry],
    });
    DueWorker.onOutcome = (worker, outcome) => outcomes.inc({ worker, outcome });
  }

  /** The Prometheus text exposition of every metric. */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
