/**
 * Exact latency percentiles from every recorded value (a sorted array; a 30-s phase holds at most
 * a few hundred thousand values), in fractional ms; autocannon's own summary rounds to whole ms.
 */
export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export class LatencyRecorder {
  private values = new Float64Array(1 << 16);
  private length = 0;

  record(ms: number): void {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = ms;
  }

  get count(): number {
    return this.length;
  }

  summary(): LatencySummary {
    const sorted = this.values.slice(0, this.length).sort();
    const n = sorted.length;
    // Nearest rank: the smallest value with at least p% of the values at or below it.
    const at = (p: number) => sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))] ?? 0;
    let sum = 0;
    for (const v of sorted) sum += v;
    return { count: n, p50: at(50), p90: at(90), p95: at(95), p99: at(99), max: sorted[n - 1] ?? 0, mean: n === 0 ? 0 : sum / n };
  }
}
