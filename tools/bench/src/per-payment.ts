/**
 * What one payment costs, from a phase's totals (from the start of the load until the stack was
 * idle again) divided by the payments the phase created: CPU ms of every process, store commands
 * and broker messages of every service.
 */
import type { PhaseReport } from './report';
import type { ProcessGroupName } from './resource-sampler';

/** Gateway phases create payments; the emulator-alone phase only charges. */
export const createsPayments = (phase: PhaseReport): boolean => phase.phase !== 'emulator' && phase.payments > 0;

export function groupOf(phase: PhaseReport, name: string): ProcessGroupName | undefined {
  return phase.resources.processes.find((p) => p.name === name)?.group;
}

/** CPU ms per payment of every watched process. */
export function cpuPerPayment(phase: PhaseReport): Record<string, number> {
  return Object.fromEntries(Object.entries(phase.cpuMs).map(([name, ms]) => [name, ms / phase.payments]));
}

/** The Node.js services together (the target: ≤ 5 ms). */
export function servicesCpuPerPayment(phase: PhaseReport): number {
  return Object.entries(phase.cpuMs)
    .filter(([name]) => groupOf(phase, name) === 'service')
    .reduce((sum, [, ms]) => sum + ms, 0) / phase.payments;
}

/** Store commands per payment: per service and command, per service, and in all. */
export function commandsPerPayment(phase: PhaseReport): { byCommand: Record<string, Record<string, number>>; byService: Record<string, number>; total: number } {
  const byCommand: Record<string, Record<string, number>> = {};
  const byService: Record<string, number> = {};
  let total = 0;
  for (const [service, commands] of Object.entries(phase.storeCommands)) {
    for (const [command, n] of Object.entries(commands)) {
      (byCommand[service] ??= {})[command] = n / phase.payments;
      byService[service] = (byService[service] ?? 0) + n / phase.payments;
      total += n / phase.payments;
    }
  }
  return { byCommand, byService, total };
}

/** Broker messages per payment, per service and in all. */
export function messagesPerPayment(phase: PhaseReport): { byService: Record<string, { published: number; consumed: number }>; published: number; consumed: number } {
  const byService: Record<string, { published: number; consumed: number }> = {};
  let published = 0;
  let consumed = 0;
  for (const [service, counts] of Object.entries(phase.busMessages)) {
    byService[service] = { published: counts.published / phase.payments, consumed: counts.consumed / phase.payments };
    published += counts.published / phase.payments;
    consumed += counts.consumed / phase.payments;
  }
  return { byService, published, consumed };
}
