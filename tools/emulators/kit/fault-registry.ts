/** Which faults are injected on the API port: per client id, or global for every caller. */

export interface FaultConfig {
  latency_ms?: number;
  /** Share of requests answered 500 (0..1). */
  error_rate?: number;
  /** Share of requests answered 429 (0..1). */
  rate_limit_rate?: number;
  /** Refuse every request: destroy the socket (`reset`, default) or answer 503. */
  outage?: boolean;
  outage_mode?: 'reset' | '503';
  /** Accept the request and never answer. */
  hang?: boolean;
}

export class FaultRegistry {
  private readonly perClient = new Map<string, FaultConfig>();
  private global: FaultConfig | undefined;
  /** How many requests or connections a fault has acted on. */
  injected = 0;

  set(clientId: string | undefined, faults: FaultConfig): void {
    if (clientId) this.perClient.set(clientId, faults);
    else this.global = faults;
  }

  /** Clears one client's faults, or all of them (global included) without an id. */
  clear(clientId?: string): void {
    if (clientId) {
      this.perClient.delete(clientId);
      return;
    }
    this.perClient.clear();
    this.global = undefined;
  }

  /** A client's own faults replace the global ones; unidentified callers get the global ones. */
  for(clientId: string | undefined): FaultConfig | undefined {
    return (clientId ? this.perClient.get(clientId) : undefined) ?? this.global;
  }

  /** A global outage in reset mode: connections are dropped before TLS. */
  globalOutage(): boolean {
    return this.global?.outage === true && (this.global.outage_mode ?? 'reset') === 'reset';
  }

  count(): void {
    this.injected += 1;
  }
}
