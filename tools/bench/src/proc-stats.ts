/**
 * Linux /proc readers: memory and CPU time of one process, CPU time of the whole machine, and
 * finding the store's and broker's processes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc CPU times (USER_HZ; 100 on practically every Linux). */
export const CLOCK_TICKS = (() => {
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
})();

export interface ProcMemory {
  /** Resident set size now, bytes. */
  rssBytes: number;
  /** Peak resident set size since the process started ("high water mark"), bytes. */
  hwmBytes: number;
}

/** VmRSS / VmHWM of a process; undefined once it has exited. */
export function readMemory(pid: number): ProcMemory | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rssBytes: kb('VmRSS'), hwmBytes: kb('VmHWM') };
}

/** utime + stime of a process (all its threads), in clock ticks; undefined once it has exited. */
export function readCpuTicks(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime field 15.
  return Number(fields[11]) + Number(fields[12]);
}

/** Busy and total clock ticks of all CPUs (first line of /proc/stat). */
export function readMachineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number) as number[];
  const idleAll = (idle ?? 0) + (iowait ?? 0);
  const busy = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
  return { busy, total: busy + idleAll };
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

function environ(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** Pids whose command line contains `needle` (what `pgrep -f` does), this process excluded. */
export function pgrep(needle: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => pid !== process.pid && cmdline(pid).includes(needle));
}

const portOf = (url: string, fallback: string) => /:(\d+)(?:\/|\?|$)/.exec(url.replace(/^[a-z+]+:\/\/[^@]*@/, 'x://'))?.[1] ?? fallback;

/**
 * The mongo-java-server JVM serving `mongoUrl`'s port: tools/infra/infra.sh starts it as
 * `java … OrquestraStore --port <port> --host … --backend memory|h2`. Several may run on a shared
 * machine (the tests' store, `npm start`'s, the bench's), so only the one on that port counts;
 * none when `MONGO_URL` names another kind of server.
 */
export function findStore(mongoUrl: string): number[] {
  const port = portOf(mongoUrl, '27017');
  const serving = new RegExp(`^\\S*java .*\\bOrquestraStore --port ${port}\\b`);
  return pgrep('OrquestraStore').filter((pid) => serving.test(cmdline(pid)));
}

/** The store's backend and heap limit from its command line (`--backend memory`, `-Xmx1g`). */
export function storeSettings(pid: number): { backend: string; maxHeap: string; classpath: string } {
  const line = cmdline(pid);
  return {
    backend: /--backend (\S+)/.exec(line)?.[1] ?? 'unknown',
    maxHeap: /-Xmx(\S+)/.exec(line)?.[1] ?? 'default',
    classpath: /-cp (\S+)/.exec(line)?.[1] ?? '',
  };
}

/** The RabbitMQ Erlang VM (beam.smp) serving `amqpUrl`'s port; every beam.smp when none says. */
export function findRabbitMq(amqpUrl: string): number[] {
  const port = portOf(amqpUrl, '5672');
  const all = pgrep('beam.smp').filter((pid) => cmdline(pid).includes('rabbit'));
  const mine = all.filter((pid) => environ(pid).includes(`RABBITMQ_NODE_PORT=${port}`));
  return mine.length > 0 ? mine : all;
}
