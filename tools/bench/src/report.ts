/** The record of one benchmark run: its shape, the terminal rendering and the files written. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Check } from './checks';
import type { FailoverGoal } from './goal';
import type { LoadResult } from './load';
import type { MachineInfo } from './machine';
import { markdownSection } from './markdown';
import type { BenchOptions, PhaseName } from './options';
import type { ListLatencyRun } from './list-latency';
import type { BusMessages, MethodTime, ProviderCalls, StoreCommands } from './service-metrics';
import type { TargetVerdict } from './issue-targets';
import type { ResourceReport } from './resource-sampler';
import type { WebhookLatency } from './webhook-probe';
import type { CpuStat } from './stack-api';
import {
  analyticsRebuildLine,
  analyticsTable,
  busMessagesTable,
  cpuCostTable,
  cpuLimitLine,
  distributionTable,
  goalLine,
  listSeedLine,
  listTable,
  loadTable,
  methodTable,
  overheadLine,
  peakRssLine,
  resourceTable,
  storeCommandsTable,
  throttlingTable,
  webhookTable,
  type Table,
} from './tables';

export interface PhaseReport {
  /** Unique within the run: `healthy c8`, `half_rate 150/s`. */
  id: string;
  phase: PhaseName;
  label: string;
  load: LoadResult;
  resources: ResourceReport;
  /** Charges the Efí emulator created from the start of the load until the stack was idle, per account (A, B). */
  chargesByAccount: Record<string, number>;
  /** Payments the phase created (= its charges): the divisor of the per-payment figures. */
  payments: number;
  /** CPU time of every watched process from the start of the load until the stack was idle, ms. */
  cpuMs: Record<string, number>;
  /** Commands each service sent to the store over the same span. */
  storeCommands: StoreCommands;
  /** Messages each service published and consumed over the same span. */
  busMessages: BusMessages;
  /** Calls of the providers service per account and result during the phase. */
  providerCalls: ProviderCalls;
  /** Mean time per gRPC method and per provider account during the phase, slowest first. */
  methodTimes: MethodTime[];
  /**
   * With --cpu-limit: each replica cgroup's CPU throttling from the start of the load until the
   * stack was idle (cpu.stat deltas), by cgroup (`payments-1`).
   */
  throttling?: Record<string, CpuStat>;
  /** Seconds until the stack's CPU fell below a quarter core after the phase (work left behind). */
  settleS: number;
  /** payment.created webhooks of the phase's payments and their event-to-webhook latency (gateway phases). */
  webhooks?: WebhookLatency;
}

export interface BenchReport {
  runId: string;
  startedAt: string;
  options: BenchOptions;
  machine: MachineInfo;
  /** With --cpu-limit: the limit, its CFS quota, and the cgroups every service replica was verified in. */
  cpuLimit?: { millicores: number; quotaUs: number; periodUs: number; cgroupVersion: 1 | 2; dir: string; cgroups: string[] };
  phases: PhaseReport[];
  /** Healthy vs failover; absent with --skip-failover. */
  goal: FailoverGoal | undefined;
  /** half rate − emulator alone at the same rate, successful responses, ms; absent with --skip-emulator-baseline. */
  overheadMs: { p50: number; p90: number; p95: number; p99: number } | undefined;
  /** GET /v1/payments latency at each store size. */
  lists: ListLatencyRun[];
  /** The issue's targets with what this run measured. */
  targets: TargetVerdict[];
  checks: Check[];
}

export function overhead(phases: PhaseReport[]): BenchReport['overheadMs'] {
  const platform = phases.find((p) => p.phase === 'half_rate')?.load.successLatency;
  const emulator = phases.find((p) => p.phase === 'emulator')?.load.successLatency;
  if (!platform?.count || !emulator?.count) return undefined;
  return { p50: platform.p50 - emulator.p50, p90: platform.p90 - emulator.p90, p95: platform.p95 - emulator.p95, p99: platform.p99 - emulator.p99 };
}

function text({ header, rows }: Table): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function list({ header, rows }: Table): string {
  return rows.map((row) => `  ${row[0]}: ${row.slice(1).map((cell, i) => `${header[i + 1]} ${cell}`).join('; ')}`).join('\n');
}

export function formatReport(report: BenchReport): string {
  const { options, machine } = report;
  const out = [
    `Run ${report.runId} at ${report.startedAt}: connections ${options.connections.join(' and ')}, ${options.durationS} s per run, ${options.warmupS} s warm-up before the first run, replicas ${options.replicas || 'one of each service'}`,
    `Machine: ${machine.cores} cores (${machine.cpuModel}), ${machine.memTotalGiB} GiB, node ${machine.node}`,
    `Store: ${machine.store}; RabbitMQ ${machine.rabbitmq}`,
    ...(cpuLimitLine(report) ? [cpuLimitLine(report) ?? ''] : []),
    '',
    'Targets (issue 11)',
    ...report.targets.map((t) => `  ${(t.met === undefined ? 'not measured' : t.met ? 'met' : 'MISSED').padEnd(12)} ${t.target}: ${t.measured}`),
    '',
    'Load (latency of every response, ms; errors = non-201 responses + requests without a response)',
    text(loadTable(report.phases)),
    list(distributionTable(report.phases)),
  ];
  for (const line of [goalLine(report), overheadLine(report)]) if (line) out.push('', line);
  const webhooks = webhookTable(report.phases);
  if (webhooks) out.push('', 'Event → webhook (POST /v1/payments answered → its payment.created webhook arrived, ms; goal p99 ≤ 500)', text(webhooks));
  out.push('', 'CPU ms per payment (from the start of each run until the stack was idle again)', text(cpuCostTable(report.phases)));
  const throttling = throttlingTable(report);
  if (throttling) out.push('', 'CPU throttling per replica cgroup (cpu.stat, from the start of each run until the stack was idle; CPU % of limit over the measured load)', text(throttling));
  out.push('', 'Store commands per payment', text(storeCommandsTable(report.phases)));
  out.push('', 'Broker messages per payment (published / consumed)', text(busMessagesTable(report.phases)));
  const lists = listTable(report.lists);
  if (lists) out.push('', `GET /v1/payments, one request at a time, ${options.listRequests} per query (${listSeedLine(report.lists)})`, text(lists));
  const analytics = analyticsTable(report.lists);
  if (analytics) out.push('', `GET /v1/analytics/overview, one request at a time, ${options.analyticsRequests} per query (${analyticsRebuildLine(report.lists)})`, text(analytics));
  out.push('', 'Where the time goes (mean ms per call inside each service, from its /metrics; calls in brackets)', text(methodTable(report.phases)));
  out.push(
    '',
    `Resources (RSS sampled every ${options.sampleMs} ms during the measured runs; CPU% averaged over each run, 100 = one core, machine max ${machine.cores * 100})`,
    text(resourceTable(report)),
    peakRssLine(report),
  );
  if (report.checks.length > 0) {
    out.push('', 'Checks');
    for (const c of report.checks) out.push(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`);
  }
  return out.join('\n');
}

/** Writes `<dir>/<timestamp>.json` (everything) and `<dir>/<timestamp>.md` (the section for docs/performance.md). */
export function writeReport(report: BenchReport, dir: string): { json: string; markdown: string } {
  mkdirSync(dir, { recursive: true });
  const base = path.join(dir, report.startedAt.replace(/[:.]/g, '-'));
  writeFileSync(`${base}.json`, JSON.stringify(report, null, 2) + '\n');
  writeFileSync(`${base}.md`, markdownSection(report));
  return { json: `${base}.json`, markdown: `${base}.md` };
}
