import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { HttpExchange } from '../adapters/http/provider-http';
import type { BreakerRegistry, BreakerState } from './breaker-registry';

const STATES: BreakerState[] = ['closed', 'half_open', 'open'];

/** Seconds: from a kept-alive answer (~10 ms) to the longest provider timeout. */
const LATENCY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Provider-call metrics: latency and errors per account, and every breaker's state (one series per
 * state, 1 for the current one, the usual Prometheus enum pattern).
 */
export class ProviderMetrics {
  private readonly duration: Histogram<'provider' | 'account_id' | 'result'>;
  private readonly errors: Counter<'provider' | 'account_id' | 'kind'>;
  private readonly exchanges: Histogram<'provider' | 'operation' | 'outcome'>;

  constructor(
    registry: Registry,
    breakers: BreakerRegistry,
    private readonly logger?: Logger,
  ) {
    this.exchanges = new Histogram({
      name: 'orquestra_provider_http_request_duration_seconds',
      help: 'Duration of single HTTP requests to providers, by operation and outcome (the status class, or what the wire table saw).',
      labelNames: ['provider', 'operation', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'orquestra_provider_request_duration_seconds',
      help: 'Duration of calls to provider accounts, by result (ok, or the ProviderError kind, or breaker_open).',
      labelNames: ['provider', 'account_id', 'result'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
    this.errors = new Counter({
      name: 'orquestra_provider_request_errors_total',
      help: 'Failed calls to provider accounts, by ProviderError kind (breaker_open when not attempted).',
      labelNames: ['provider', 'account_id', 'kind'],
      registers: [registry],
    });
    new Gauge({
      name: 'orquestra_provider_breaker_state',
      help: 'Circuit-breaker state per provider account: 1 for the current state, 0 otherwise.',
      labelNames: ['provider', 'account_id', 'state'],
      registers: [registry],
      collect() {
        this.reset();
        for (const { accountId, provider, state } of breakers.states()) {
          for (const candidate of STATES) this.set({ provider, account_id: accountId, state: candidate }, candidate === state ? 1 : 0);
        }
      },
    });
  }

  /**
   * One HTTP exchange of the HTTP core (several make one call: a token, a lookup, the create). A
   * failure the wire table classified is logged too; the exchange carries no path, header or body.
   */
  observeExchange(exchange: HttpExchange): void {
    const outcome = exchange.outcome ?? `${Math.floor((exchange.status ?? 0) / 100)}xx`;
    this.exchanges.observe({ provider: exchange.provider, operation: exchange.operation, outcome }, exchange.seconds);
    if (exchange.outcome) this.logger?.warn({ provider_request: exchange }, 'provider request failed on the wire');
  }

  observe(provider: string, accountId: string, result: string, seconds: number): void {
    this.duration.observe({ provider, account_id: accountId, result }, seconds);
    if (result !== 'ok') this.errors.inc({ provider, account_id: accountId, kind: result });
  }
}
