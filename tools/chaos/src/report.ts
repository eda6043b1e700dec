import type { ChargeAudit, EventAudit, FaultFigures } from './audit';

export interface ChaosReport {
  runId: string;
  startedAt: string;
  short: boolean;
  replicas: Record<string, number>;
  lanes: number;
  loadSeconds: number;
  requests: number;
  payments: number;
  /** Payments stored whose create the clients saw fail (the answer was lost): the merchant learns of them by webhook. */
  unseenPayments: string[];
  failedTries: number;
  clientErrors: number;
  errorsByCode: Record<string, number>;
  faults: FaultFigures[];
  charges: ChargeAudit;
  events: EventAudit;
  balancer: { forwarded: Record<number, number>; retriedElsewhere: number; failed: number } | null;
  /** Faults the run could not inject or repair (the run then stops injecting and audits). */
  harnessErrors: string[];
  /** Processes of the stack that died on their own during the run (crashes). */
  dead: string[];
  /** Every failed try: when it started, how long it took, its status or error, and the fault whose window it fell in. */
  failedTryList: Array<{ at: string; ms: number; outcome: string; fault: string }>;
}

/** Recovery target of issue 21: back to no failed tries within 10 s of the fault. */
export const RECOVERY_TARGET_MS = 10_000;

/**
 * Issue 21's targets, each met or not. `gate`: whether a miss fails the run. The short run (CI, a
 * shared and loaded machine) gates correctness only; its recovery time is reported, not gated.
 */
export function targetsMet(report: ChaosReport): Array<{ target: string; value: string; ok: boolean; gate: boolean }> {
  const slowest = report.faults.reduce((max, f) => Math.max(max, f.recoveryMs), 0);
  return [
    { target: 'no process died on its own', value: report.dead.length ? report.dead.join(', ') : 'none', ok: report.dead.length === 0, gate: true },
    { target: 'every fault injected and repaired', value: report.harnessErrors.length ? report.harnessErrors.join('; ') : 'all', ok: report.harnessErrors.length === 0, gate: true },
    { target: '0 double charges (Efí emulator)', value: String(report.charges.doubleCharged.length), ok: report.charges.doubleCharged.length === 0, gate: true },
    { target: 'every payment’s charge at the emulator', value: `${report.charges.missingCharge.length} missing`, ok: report.charges.missingCharge.length === 0, gate: true },
    { target: '0 lost events (log)', value: String(report.events.missingFromLog.length), ok: report.events.missingFromLog.length === 0, gate: true },
    { target: '0 lost events (webhook receiver)', value: String(report.events.undelivered.length), ok: report.events.undelivered.length === 0, gate: true },
    { target: '0 deliveries of events never emitted', value: String(report.events.invented), ok: report.events.invented === 0, gate: true },
    { target: '0 errors seen by the merchant’s code (after the SDK’s retries)', value: String(report.clientErrors), ok: report.clientErrors === 0, gate: true },
    { target: `recovery ≤ ${RECOVERY_TARGET_MS / 1000} s after each fault`, value: `${(slowest / 1000).toFixed(1)} s (slowest)`, ok: slowest <= RECOVERY_TARGET_MS, gate: !report.short },
  ];
}

export function formatReport(report: ChaosReport): string {
  const lines: string[] = [];
  lines.push(`# Chaos run ${report.runId} (${report.short ? 'short' : 'full'}), ${report.startedAt}`);
  lines.push('');
  lines.push(`Replicas: ${Object.entries(report.replicas).map(([s, n]) => `${s} ${n}`).join(', ')}. Load: ${report.lanes} SDK lanes for ${report.loadSeconds.toFixed(0)} s, ${report.requests} creates (${(report.requests / report.loadSeconds).toFixed(1)}/s), ${report.payments} payments, ${report.failedTries} failed tries (retried by the SDK), ${report.clientErrors} errors seen by the caller${report.clientErrors ? ` (${Object.entries(report.errorsByCode).map(([c, n]) => `${c}: ${n}`).join(', ')})` : ''}.`);
  lines.push('');
  lines.push('| fault | creates in window | failed tries | of which started after the fault | errors seen by the caller | recovery |');
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const f of report.faults) lines.push(`| ${f.name} | ${f.requests} | ${f.failedTries} | ${f.failedTriesStartedAfter} | ${f.clientErrors} | ${(f.recoveryMs / 1000).toFixed(1)} s |`);
  lines.push('');
  if (report.unseenPayments.length) lines.push(`Payments stored whose create the caller saw fail (the answer was lost; the merchant learns of them by their webhook): ${report.unseenPayments.length}.`);
  lines.push(`Charges: ${report.charges.payments} payments, ${report.charges.doubleCharged.length} double charged, ${report.charges.missingCharge.length} without their charge; charges of no payment the merchant knows (a create that died with its process after the provider call, before storing its payment): ${report.charges.unknownLive} payable, ${report.charges.unknownRemoved} removed.`);
  lines.push(`Events: ${report.events.emitted} emitted, ${report.events.missingFromLog.length} missing from the log, ${report.events.undelivered.length} never delivered, ${report.events.duplicated} delivered more than once (${report.events.extraCopies} extra copies), ${report.events.invented} deliveries of events never emitted.`);
  if (report.balancer) lines.push(`Gateway balancer: ${Object.entries(report.balancer.forwarded).map(([p, n]) => `:${p} ${n}`).join(', ')}; ${report.balancer.retriedElsewhere} requests refused by a dead gateway sent to the other; ${report.balancer.failed} answered 502.`);
  if (report.failedTryList.length) {
    lines.push('');
    lines.push(`Failed tries: ${report.failedTryList.map((t) => `${t.at.slice(11, 23)} ${t.outcome} after ${t.ms} ms${t.fault ? ` (${t.fault})` : ''}`).join('; ')}.`);
  }
  lines.push('');
  lines.push('| target | measured | met |');
  lines.push('| --- | --- | --- |');
  for (const t of targetsMet(report)) lines.push(`| ${t.target} | ${t.value} | ${t.ok ? 'yes' : t.gate ? 'NO' : 'no (reported, not gated in the short run)'} |`);
  return lines.join('\n') + '\n';
}
