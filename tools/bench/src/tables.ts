/**
 * The figures of a run as tables (header + rows of strings), rendered as aligned text for the
 * terminal (report.ts) and as markdown for docs/performance.md (markdown.ts).
 */
import { clientErrors } from './goal';
import type { BenchReport, PhaseReport } from './report';

export interface Table {
  header: string[];
  rows: string[][];
}

const ms = (value: number) => value.toFixed(1);
const mib = (bytes: number) => (bytes / 1024 ** 2).toFixed(0);

/** Throughput, client-visible errors and latency of every phase. */
export function loadTable(phases: PhaseReport[]): Table {
  return {
    header: ['run', 'responses', 'req/s', '201/s', 'errors', 'p50 ms', 'p90 ms', 'p95 ms', 'p99 ms', 'max ms'],
    rows: phases.map((p) => [
      p.label,
      String(p.load.responses),
      p.load.responsesPerS.toFixed(1),
      p.load.successesPerS.toFixed(1),
      String(clientErrors(p.load)),
      ms(p.load.latency.p50),
      ms(p.load.latency.p90),
      ms(p.load.latency.p95),
      ms(p.load.latency.p99),
      ms(p.load.latency.max),
    ]),
  };
}

const counts = (entries: Record<string, number>) =>
  Object.entries(entries)
    .map(([key, n]) => `${key} ${n}`)
    .join(', ') || 'none';

/** Where the work went: charges created at the emulator and provider calls, per account. */
export function distributionTable(phases: PhaseReport[]): Table {
  return {
    header: ['run', 'statuses', 'charges at the emulator', 'provider calls (account: result count)', 'idle after'],
    rows: phases.map((p) => {
      const transport = Object.entries(p.load.transportErrors).map(([code, n]) => `${code} ${n}`);
      const calls = Object.entries(p.providerCalls).map(([account, results]) => `${account}: ${counts(results)}`);
      return [
        p.label,
        [counts(p.load.statusCounts), ...transport].join(', '),
        counts(p.chargesByAccount),
        calls.join('; ') || 'none',
        `${p.settleS.toFixed(0)} s`,
      ];
    }),
  };
}

/** Peak memory of every watched process and its CPU use in each phase (100 = one core). */
export function resourceTable(report: BenchReport): Table {
  const { phases } = report;
  const names = [...new Set(phases.flatMap((p) => p.resources.processes.map((r) => r.name)))];
  const find = (p: PhaseReport, name: string) => p.resources.processes.find((r) => r.name === name);
  const rows = names.map((name) => {
    const samples = phases.map((p) => find(p, name)).filter((r) => r !== undefined);
    return [
      name,
      mib(Math.max(...samples.map((r) => r.peakRssBytes))),
      mib(Math.max(...samples.map((r) => r.hwmBytes))),
      ...phases.map((p) => find(p, name)?.cpuPercent.toFixed(0) ?? '-'),
    ];
  });
  rows.push(['(other processes, kernel)', '', '', ...phases.map((p) => p.resources.otherCpuPercent.toFixed(0))]);
  rows.push(['(whole machine)', '', '', ...phases.map((p) => p.resources.machineCpuPercent.toFixed(0))]);
  return { header: ['process', 'peak RSS MiB', 'VmHWM MiB', ...phases.map((p) => `CPU% ${p.phase}`)], rows };
}

export function peakRssLine(report: BenchReport): string {
  const stack = Math.max(...report.phases.map((p) => p.resources.peakStackRssBytes));
  const all = Math.max(...report.phases.map((p) => p.resources.peakStackAndInfraRssBytes));
  return `Peak summed RSS: stack (emulators + 6 services) ${mib(stack)} MiB; with store + broker ${mib(all)} MiB`;
}

export function goalLine(report: BenchReport): string | undefined {
  const goal = report.goal;
  if (!goal) return undefined;
  return (
    `Failover goal (0 client errors, p99 ≤ ${goal.limit}× healthy; reference = mean of the healthy runs before and after): ${goal.ok ? 'HOLDS' : 'MISSED'} — ` +
    `${goal.failoverErrors} client errors (healthy ${goal.healthyErrors}), p99 ${ms(goal.failoverP99Ms)} ms vs ${ms(goal.healthyP99Ms)} ms = ${goal.p99Ratio.toFixed(2)}×`
  );
}

export function overheadLine(report: BenchReport): string | undefined {
  const o = report.overheadMs;
  if (!o) return undefined;
  return `Platform overhead (healthy − emulator alone, 201 responses): p50 ${ms(o.p50)} ms, p90 ${ms(o.p90)} ms, p95 ${ms(o.p95)} ms, p99 ${ms(o.p99)} ms`;
}

/** Mean time per gRPC method and per provider account, one column per phase. */
export function methodTable(phases: PhaseReport[]): Table {
  const names = [...new Set(phases.flatMap((p) => p.methodTimes.map((m) => m.name)))];
  return {
    header: ['method', ...phases.map((p) => `${p.phase} ms (calls)`)],
    rows: names.map((name) => [
      name,
      ...phases.map((p) => {
        const m = p.methodTimes.find((t) => t.name === name);
        return m ? `${ms(m.meanMs)} (${m.calls})` : '-';
      }),
    ]),
  };
}

/** Event-to-webhook latency per gateway phase: POST /v1/payments answered → its payment.created webhook arrived. */
export function webhookTable(phases: PhaseReport[]): Table | undefined {
  const measured = phases.filter((p) => p.webhooks);
  if (measured.length === 0) return undefined;
  return {
    header: ['run', 'webhooks', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'],
    rows: measured.map((p) => {
      const w = p.webhooks!;
      return [p.phase, `${w.delivered}/${w.expected}`, ms(w.latency.p50), ms(w.latency.p90), ms(w.latency.p99), ms(w.latency.max)];
    }),
  };
}
