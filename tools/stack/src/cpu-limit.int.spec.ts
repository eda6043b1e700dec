/**
 * A real CPU-limited cgroup (cpu-limit.ts): a busy process put into a 100m cgroup gets about a
 * tenth of a core, is throttled in nearly every period, shows in its /proc/<pid>/cgroup, and the
 * cgroups are gone afterwards. Skipped, saying why, only on a machine without a writable cpu
 * cgroup controller (not root, read-only /sys/fs/cgroup).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { CpuLimitedCgroups, CpuLimitError } from './cpu-limit';

/** Tries to make (and remove) a cgroup: the reason it cannot, or undefined. */
function unavailable(): string | undefined {
  try {
    const probe = CpuLimitedCgroups.create({ name: `orquestra-probe-${randomBytes(3).toString('hex')}`, millicores: 100 });
    // Empty (no leaf yet): removed at once.
    rmdirSync(probe.dir);
    return undefined;
  } catch (error) {
    if (error instanceof CpuLimitError) return error.message;
    throw error;
  }
}

const reason = unavailable();
if (reason) console.warn(`cpu-limit.int.spec skipped: ${reason}`);

/** CPU time (user + system) of a process so far, ms, from /proc/<pid>/stat (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

(reason ? describe.skip : describe)(`a CPU-limited cgroup${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let cgroups: CpuLimitedCgroups | undefined;
  let child: ChildProcess | undefined;

  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    await cgroups?.remove();
  });

  it('holds a busy process to its quota, throttles it, and is removed at the end', async () => {
    cgroups = CpuLimitedCgroups.create({ name: `orquestra-test-${randomBytes(3).toString('hex')}`, millicores: 100 });
    expect(cgroups.quota).toEqual({ quotaUs: 10_000, periodUs: 100_000 });
    child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    const pid = child.pid ?? -1;
    cgroups.place('busy-1', pid);
    expect(cgroups.verify()).toEqual({ checked: ['busy-1'], exited: [] });
    expect(readFileSync(`/proc/${pid}/cgroup`, 'utf8')).toContain(cgroups.procPath('busy-1'));

    const before = cgroups.stats()['busy-1'];
    const cpuBefore = cpuMs(pid);
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const elapsedMs = Date.now() - started;
    const used = cpuMs(pid) - cpuBefore;
    const after = cgroups.stats()['busy-1'];

    // Unlimited, it would take a whole core (~2000 ms); 100m allows ~200 ms, one period's slack either side.
    expect(used).toBeLessThan(0.1 * elapsedMs + 150);
    expect(used).toBeGreaterThan(0.1 * elapsedMs * 0.4);
    expect(before && after).toBeTruthy();
    const periods = (after?.periods ?? 0) - (before?.periods ?? 0);
    const throttled = (after?.throttledPeriods ?? 0) - (before?.throttledPeriods ?? 0);
    expect(periods).toBeGreaterThanOrEqual(15);
    expect(throttled / periods).toBeGreaterThan(0.8);
    expect((after?.throttledMs ?? 0) - (before?.throttledMs ?? 0)).toBeGreaterThan(elapsedMs * 0.5);

    // Removal with the process still inside moves it out first (a stack that failed to stop).
    const { removed, failed } = await cgroups.remove();
    expect(failed).toEqual([]);
    expect(removed).toEqual([`${cgroups.dir}/busy-1`, cgroups.dir]);
    expect(existsSync(cgroups.dir)).toBe(false);
    expect(readFileSync(`/proc/${pid}/cgroup`, 'utf8')).not.toContain(cgroups.name);
  });

  it('refuses to place a process that did not start, and reports one outside its cgroup', async () => {
    cgroups = CpuLimitedCgroups.create({ name: `orquestra-test-${randomBytes(3).toString('hex')}`, millicores: 200 });
    expect(() => cgroups?.place('gateway-1', undefined)).toThrow(/no pid/);
    child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    cgroups.place('gateway-1', child.pid);
    // Moved out behind the launcher's back: verify() must notice.
    const mount = cgroups.hierarchy.mountPoint;
    writeFileSync(`${mount}/cgroup.procs`, String(child.pid));
    expect(() => cgroups?.verify()).toThrow(/gateway-1 .* is in '\/', not '.*gateway-1'/);
  });
});
