/**
 * The figures of a run as tables (header + rows of strings), rendered as aligned text for the
 * terminal (report.ts) and as markdown for docs/performance.md (markdown.ts).
 */
import { clientErrors } from './goal';
import type { ListLatencyRun } from './list-latency';
import { commandsPerPayment, cpuPerPayment, createsPayments, groupOf, messagesPerPayment, servicesCpuPerPayment } from './per-payment';
import type { BenchReport, PhaseReport } from './report';
import type { TargetVerdict } from './issue-targets';

export interface Table {
  header: string[];
  rows: string[][];
}

const ms = (value: number) => value.toFixed(1);
const mib = (bytes: number) => (bytes / 1024 ** 2).toFixed(0);

/** Throughput, client-visible errors and latency of every phase. */
export function loadTable(phases: PhaseReport[]): Table {
  return {
    header: ['run', 'connections', 'responses', 'req/s', '201/s', 'errors', 'p50 ms', 'p90 ms', 'p95 ms', 'p99 ms', 'max ms'],
    rows: phases.map((p) => [
      p.label,
      p.load.ratePerS !== undefined ? `paced ${p.load.ratePerS}/s (≤ ${p.load.connections})` : String(p.load.connections),
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
  return { header: ['process', 'peak RSS MiB', 'VmHWM MiB', ...phases.map((p) => `CPU% ${p.id}`)], rows };
}

/** The process name of cgroup `<service>-<n>`: the launcher's replica name (`payments`, `payments-2`). */
export function processOfCgroup(cgroup: string): string {
  const match = /^(.+)-(\d+)$/.exec(cgroup);
  if (!match) return cgroup;
  return match[2] === '1' ? (match[1] ?? cgroup) : cgroup;
}

/**
 * With --cpu-limit: per replica cgroup and run, the share of CFS periods in which it hit its quota,
 * the time it was held back, and its CPU use as a share of the limit (most throttled first): the
 * service that was the limit is on top.
 */
export function throttlingTable(report: BenchReport): Table | undefined {
  const limit = report.cpuLimit;
  const runs = report.phases.filter((p) => p.throttling);
  if (!limit || runs.length === 0) return undefined;
  const first = runs[0]?.throttling ?? {};
  const cgroups = [...new Set(runs.flatMap((p) => Object.keys(p.throttling ?? {})))].sort((a, b) => (first[b]?.throttledMs ?? 0) - (first[a]?.throttledMs ?? 0));
  const limitPercent = limit.millicores / 10;
  return {
    header: ['cgroup', ...runs.flatMap((p) => [`${p.id} throttled periods`, `${p.id} throttled s`, `${p.id} CPU % of limit`])],
    rows: cgroups.map((cgroup) => [
      cgroup,
      ...runs.flatMap((p) => {
        const stat = p.throttling?.[cgroup];
        const cpu = p.resources.processes.find((r) => r.name === processOfCgroup(cgroup))?.cpuPercent;
        if (!stat) return ['-', '-', '-'];
        return [
          `${stat.periods > 0 ? ((100 * stat.throttledPeriods) / stat.periods).toFixed(0) : '0'}% of ${stat.periods}`,
          (stat.throttledMs / 1000).toFixed(1),
          cpu === undefined ? '-' : ((100 * cpu) / limitPercent).toFixed(0),
        ];
      }),
    ]),
  };
}

/** `CPU limit 200m per service replica (CFS quota 20000 µs per 100000 µs, cgroup v1, 10 cgroups)`. */
export function cpuLimitLine(report: BenchReport): string | undefined {
  const limit = report.cpuLimit;
  if (!limit) return undefined;
  return `CPU limit ${limit.millicores}m per service replica (CFS quota ${limit.quotaUs} µs per ${limit.periodUs} µs, cgroup v${limit.cgroupVersion} ${limit.dir}, ${limit.cgroups.length} cgroups); store, broker, emulators and the load generator unlimited`;
}

export function peakRssLine(report: BenchReport): string {
  const stack = Math.max(...report.phases.map((p) => p.resources.peakStackRssBytes));
  const all = Math.max(...report.phases.map((p) => p.resources.peakStackAndInfraRssBytes));
  return `Peak summed RSS during the load runs: services + emulators ${mib(stack)} MiB; with store + broker ${mib(all)} MiB`;
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
  return `Platform overhead at half the best rate (gateway − emulator alone at the same rate, 201 responses): p50 ${ms(o.p50)} ms, p90 ${ms(o.p90)} ms, p95 ${ms(o.p95)} ms, p99 ${ms(o.p99)} ms`;
}

/** Mean time per gRPC method and per provider account, one column per phase. */
export function methodTable(phases: PhaseReport[]): Table {
  const names = [...new Set(phases.flatMap((p) => p.methodTimes.map((m) => m.name)))];
  return {
    header: ['method', ...phases.map((p) => `${p.id} ms (calls)`)],
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
  const measured = phases.flatMap((p) => (p.webhooks ? [{ id: p.id, ...p.webhooks }] : []));
  if (measured.length === 0) return undefined;
  return {
    header: ['run', 'webhooks', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'],
    rows: measured.map((w) => [w.id, `${w.delivered}/${w.expected}`, ms(w.latency.p50), ms(w.latency.p90), ms(w.latency.p99), ms(w.latency.max)]),
  };
}

const GROUP_ORDER = ['service', 'emulator', 'infra', 'bench'];
const perPaymentHeader = (phases: PhaseReport[]) => phases.map((p) => `${p.id} (${p.payments} payments)`);

/**
 * CPU ms per payment of every process in each gateway run (from the start of the load until the
 * stack was idle, so the work a payment leaves behind counts), the Node.js services' total first.
 */
export function cpuCostTable(phases: PhaseReport[]): Table {
  const runs = phases.filter(createsPayments);
  const rank = (name: string) => GROUP_ORDER.indexOf((runs[0] && groupOf(runs[0], name)) ?? 'bench');
  const names = [...new Set(runs.flatMap((p) => Object.keys(p.cpuMs)))].sort((a, b) => rank(a) - rank(b));
  const rows = [['Node.js services together', ...runs.map((p) => servicesCpuPerPayment(p).toFixed(2))]];
  for (const name of names) rows.push([name, ...runs.map((p) => cpuPerPayment(p)[name]?.toFixed(2) ?? '-')]);
  return { header: ['process (CPU ms per payment)', ...perPaymentHeader(runs)], rows };
}

/** Store commands per payment: every service's total, then its commands. */
export function storeCommandsTable(phases: PhaseReport[]): Table {
  const runs = phases.filter(createsPayments);
  const costs = runs.map(commandsPerPayment);
  const services = [...new Set(costs.flatMap((c) => Object.keys(c.byService)))].sort();
  const rows = [['all services', ...costs.map((c) => c.total.toFixed(2))]];
  for (const service of services) {
    rows.push([service, ...costs.map((c) => c.byService[service]?.toFixed(2) ?? '-')]);
    const commands = [...new Set(costs.flatMap((c) => Object.keys(c.byCommand[service] ?? {})))].sort();
    for (const command of commands) rows.push([`  ${service}: ${command}`, ...costs.map((c) => c.byCommand[service]?.[command]?.toFixed(2) ?? '-')]);
  }
  return { header: ['service / command (per payment)', ...perPaymentHeader(runs)], rows };
}

/** Broker messages per payment (published / consumed) by service. */
export function busMessagesTable(phases: PhaseReport[]): Table {
  const runs = phases.filter(createsPayments);
  const costs = runs.map(messagesPerPayment);
  const services = [...new Set(costs.flatMap((c) => Object.keys(c.byService)))].sort();
  const pair = (m: { published: number; consumed: number } | undefined) => (m ? `${m.published.toFixed(2)} / ${m.consumed.toFixed(2)}` : '-');
  return {
    header: ['service (published / consumed per payment)', ...perPaymentHeader(runs)],
    rows: [['all services', ...costs.map((c) => pair(c))], ...services.map((service) => [service, ...costs.map((c) => pair(c.byService[service]))])],
  };
}

/** GET /v1/payments latency per query (one request at a time), one column per store size. */
export function listTable(lists: ListLatencyRun[]): Table | undefined {
  if (lists.length === 0) return undefined;
  const queries = [...new Set(lists.flatMap((l) => l.queries.map((q) => q.query)))];
  return {
    header: ['GET /v1/payments?', ...lists.map((l) => `${l.payments} payments: p50 / p99 ms (returned)`)],
    rows: queries.map((query) => [
      query,
      ...lists.map((l) => {
        const q = l.queries.find((x) => x.query === query);
        return q ? `${ms(q.latency.p50)} / ${ms(q.latency.p99)} (${q.returned})${q.errors > 0 ? ` ${q.errors} errors` : ''}` : '-';
      }),
    ]),
  };
}

/** GET /v1/analytics/overview latency per query (one request at a time), one column per store size. */
export function analyticsTable(lists: ListLatencyRun[]): Table | undefined {
  const runs = lists.flatMap((l) => (l.analytics ? [l.analytics] : []));
  if (runs.length === 0) return undefined;
  const queries = [...new Set(runs.flatMap((r) => r.queries.map((q) => q.query)))];
  return {
    header: ['GET /v1/analytics/overview?', ...runs.map((r) => `${r.payments} payments: p50 / p99 ms (created, days with payments)`)],
    rows: queries.map((query) => [
      query,
      ...runs.map((r) => {
        const q = r.queries.find((x) => x.query === query);
        return q ? `${ms(q.latency.p50)} / ${ms(q.latency.p99)} (${q.created}, ${q.daysWithPayments})${q.errors > 0 ? ` ${q.errors} errors` : ''}` : '-';
      }),
    ]),
  };
}

export function analyticsRebuildLine(lists: ListLatencyRun[]): string | undefined {
  const runs = lists.flatMap((l) => (l.analytics ? [l.analytics] : []));
  if (runs.length === 0) return undefined;
  return runs.map((r) => `rebuild-analytics at ${r.payments} payments: ${r.rebuildS.toFixed(1)} s${r.rebuildOk ? '' : ' (FAILED)'}`).join('; ');
}

export function listSeedLine(lists: ListLatencyRun[]): string | undefined {
  if (lists.length === 0) return undefined;
  return lists
    .map((l) => `${l.payments} payments: ${l.seeded} copied in ${l.seedS.toFixed(1)} s${l.storeRssBytes !== undefined ? `, store RSS ${mib(l.storeRssBytes)} MiB` : ''}`)
    .join('; ');
}

export function targetsTable(targets: TargetVerdict[]): Table {
  return {
    header: ['target (issue 11)', 'measured', 'result'],
    rows: targets.map((t) => [t.target, t.measured, t.met === undefined ? 'not measured' : t.met ? 'met' : 'MISSED']),
  };
}
