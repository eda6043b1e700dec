/**
 * Samples the memory (VmRSS) of the watched processes every `intervalMs` and measures their CPU
 * use between start() and stop(): peak RSS per process, peak of the summed RSS, CPU% per process
 * (100% = one core fully busy), and the machine's CPU use, so that load from anything else on the
 * machine shows up as "other".
 */
import { CLOCK_TICKS, readCpuTicks, readMachineTicks, readMemory } from './proc-stats';

export type ProcessGroupName = 'service' | 'emulator' | 'infra' | 'bench';

export interface WatchedProcess {
  name: string;
  pid: number;
  /** service: the six Node.js services; emulator: the provider emulators; infra: store and broker; bench: this load generator. */
  group: ProcessGroupName;
}

/** The services and the emulators: what the benchmark started (the stack), as opposed to store, broker and itself. */
export const inStack = (p: WatchedProcess): boolean => p.group === 'service' || p.group === 'emulator';

/** CPU time each watched process used since `start`, in ms (all its threads). */
export function cpuMsSince(watched: WatchedProcess[], start: Map<number, number>): Record<string, number> {
  return Object.fromEntries(
    watched.map((p) => {
      const before = start.get(p.pid) ?? 0;
      const ticks = Math.max(0, (readCpuTicks(p.pid) ?? before) - before);
      return [p.name, (ticks / CLOCK_TICKS) * 1000];
    }),
  );
}

/** The CPU clock ticks of every watched process now: the start of a cpuMsSince measurement. */
export function cpuTicksNow(watched: WatchedProcess[]): Map<number, number> {
  return new Map(watched.map((p) => [p.pid, readCpuTicks(p.pid) ?? 0]));
}

export interface ProcessResources {
  name: string;
  pid: number;
  group: ProcessGroupName;
  peakRssBytes: number;
  /** VmHWM when sampling stopped: the process's peak RSS since it started (warm-up included). */
  hwmBytes: number;
  /** Average over the window; 100 = one core. */
  cpuPercent: number;
}

export interface ResourceReport {
  windowS: number;
  samples: number;
  cores: number;
  processes: ProcessResources[];
  /** Highest sum of the services' and emulators' RSS seen in one sample. */
  peakStackRssBytes: number;
  /** Highest sum of stack + infra RSS seen in one sample. */
  peakStackAndInfraRssBytes: number;
  /** Whole machine, 100 × cores = every core busy. */
  machineCpuPercent: number;
  /** Machine CPU not accounted for by any watched process (other work on the machine, kernel). */
  otherCpuPercent: number;
}

export class ResourceSampler {
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private samples = 0;
  private readonly peakRss = new Map<number, number>();
  private readonly startTicks = new Map<number, number>();
  private machineStart = { busy: 0, total: 0 };
  private peakStack = 0;
  private peakAll = 0;

  constructor(
    private readonly watched: WatchedProcess[],
    private readonly intervalMs: number,
    private readonly cores: number,
  ) {}

  start(): void {
    this.startedAt = performance.now();
    this.machineStart = readMachineTicks();
    for (const [pid, ticks] of cpuTicksNow(this.watched)) this.startTicks.set(pid, ticks);
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
  }

  private sample(): void {
    let stack = 0;
    let all = 0;
    for (const p of this.watched) {
      const rss = readMemory(p.pid)?.rssBytes ?? 0;
      this.peakRss.set(p.pid, Math.max(this.peakRss.get(p.pid) ?? 0, rss));
      if (inStack(p)) stack += rss;
      if (p.group !== 'bench') all += rss;
    }
    this.peakStack = Math.max(this.peakStack, stack);
    this.peakAll = Math.max(this.peakAll, all);
    this.samples++;
  }

  stop(): ResourceReport {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.sample();
    const windowS = (performance.now() - this.startedAt) / 1000;
    const machineEnd = readMachineTicks();
    const percentOf = (ticks: number) => (windowS > 0 ? (ticks / CLOCK_TICKS / windowS) * 100 : 0);
    let watchedTicks = 0;
    const processes = this.watched.map((p): ProcessResources => {
      const ticks = Math.max(0, (readCpuTicks(p.pid) ?? this.startTicks.get(p.pid) ?? 0) - (this.startTicks.get(p.pid) ?? 0));
      watchedTicks += ticks;
      return {
        name: p.name,
        pid: p.pid,
        group: p.group,
        peakRssBytes: this.peakRss.get(p.pid) ?? 0,
        hwmBytes: readMemory(p.pid)?.hwmBytes ?? 0,
        cpuPercent: percentOf(ticks),
      };
    });
    const busy = machineEnd.busy - this.machineStart.busy;
    const total = machineEnd.total - this.machineStart.total;
    const machineCpuPercent = total > 0 ? (busy / total) * 100 * this.cores : 0;
    return {
      windowS,
      samples: this.samples,
      cores: this.cores,
      processes,
      peakStackRssBytes: this.peakStack,
      peakStackAndInfraRssBytes: this.peakAll,
      machineCpuPercent,
      otherCpuPercent: Math.max(0, machineCpuPercent - percentOf(watchedTicks)),
    };
  }
}
