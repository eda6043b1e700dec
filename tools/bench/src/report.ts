/** The record of one benchmark run: its shape, the terminal rendering and the files written. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Check } from './checks';
import type { FailoverGoal } from './goal';
import type { LoadResult } from './load';
import type { MachineInfo } from './machine';
import { markdownSection } from './markdown';
import type { BenchOptions, PhaseName } from './options';
import type { MethodTime, ProviderCalls } from './service-metrics';
import type { ResourceReport } from './resource-sampler';
import type { WebhookLatency } from './webhook-probe';
import { distributionTable, goalLine, loadTable, methodTable, overheadLine, peakRssLine, resourceTable, webhookTable, type Table } from './tables';

export interface PhaseReport {
  phase: PhaseName;
  label: string;
  load: LoadResult;
  resources: ResourceReport;
  /** Charges the Efí emulator created during the phase, per account (A, B). */
  chargesByAccount: Record<string, number>;
  /** Calls of the providers service per account and result during the phase. */
  providerCalls: ProviderCalls;
  /** Mean time per gRPC method and per provider account during the phase, slowest first. */
  methodTimes: MethodTime[];
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
  phases: PhaseReport[];
  /** Healthy vs failover; absent with --skip-failover. */
  goal: FailoverGoal | undefined;
  /** healthy − emulator alone, successful responses, ms; absent with --skip-emulator-baseline. */
  overheadMs: { p50: number; p90: number; p95: number; p99: number } | undefined;
  checks: Check[];
}

export function overhead(phases: PhaseReport[]): BenchReport['overheadMs'] {
  const platform = phases.find((p) => p.phase === 'healthy')?.load.successLatency;
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
    `Run ${report.runId} at ${report.startedAt}: ${options.connections} connections, ${options.durationS} s per run, ${options.warmupS} s warm-up before the healthy run`,
    `Machine: ${machine.cores} cores (${machine.cpuModel}), ${machine.memTotalGiB} GiB, node ${machine.node}, FerretDB ${machine.ferretdb}, RabbitMQ ${machine.rabbitmq}`,
    '',
    'Load (latency of every response, ms; errors = non-201 responses + requests without a response)',
    text(loadTable(report.phases)),
    list(distributionTable(report.phases)),
  ];
  for (const line of [goalLine(report), overheadLine(report)]) if (line) out.push('', line);
  const webhooks = webhookTable(report.phases);
  if (webhooks) out.push('', 'Event → webhook (POST /v1/payments answered → its payment.created webhook arrived, ms; goal p99 ≤ 500)', text(webhooks));
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
