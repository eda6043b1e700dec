import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * One Prometheus registry per process: Node's default process metrics plus what the platform
 * measures itself (RPC durations). Services add their own metrics to `registry`.
 * Names follow Prometheus conventions: `orquestra_` prefix, base units (seconds), `_total` counters.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly rpcDuration: Histogram<'method' | 'code'>;

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
  }

  /** The Prometheus text exposition of every metric. */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
