/**
 * CPU limits for a local stack's service processes, the way Kubernetes applies a container's
 * `resources.limits.cpu`: each process in a cgroup of its own with a CFS bandwidth quota
 * (`<millicores> / 1000 × period` µs of CPU per 100 ms period). The benchmark's `--cpu-limit`
 * (tools/bench, docs/performance.md) uses it to run every service replica as a small "pod", so
 * that one replica is CPU-bound well below the machine's cores and more replicas can be seen to add
 * throughput.
 *
 * Works with the cgroup v1 `cpu` controller (`cpu.cfs_quota_us`, `cpu.cfs_period_us`) and with
 * cgroup v2 when its `cgroup.controllers` lists `cpu` (`cpu.max`). Needs the hierarchy to be
 * writable (root, or a delegated subtree). The pure parts (quota arithmetic, mountinfo and
 * /proc/<pid>/cgroup parsing, cpu.stat) are exported for the unit tests.
 */
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The Kubernetes default CFS period (kubelet's cpuCFSQuotaPeriod), µs. */
export const DEFAULT_PERIOD_US = 100_000;
/** The kernel refuses a quota below 1 ms. */
export const MIN_QUOTA_US = 1_000;
export const MIN_MILLICORES = 10;
export const MAX_MILLICORES = 64_000;

export class CpuLimitError extends Error {}

/** A CPU limit in millicores (`200` = 0.2 of a core) as a CFS quota per period, µs. */
export function cfsQuota(millicores: number, periodUs = DEFAULT_PERIOD_US): { quotaUs: number; periodUs: number } {
  if (!Number.isInteger(millicores) || millicores < MIN_MILLICORES || millicores > MAX_MILLICORES) {
    throw new CpuLimitError(`a CPU limit must be an integer number of millicores in ${MIN_MILLICORES}…${MAX_MILLICORES}, got '${millicores}'`);
  }
  if (!Number.isInteger(periodUs) || periodUs < 1_000 || periodUs > 1_000_000) {
    throw new CpuLimitError(`a CFS period must be an integer in 1000…1000000 µs, got '${periodUs}'`);
  }
  const quotaUs = Math.round((millicores * periodUs) / 1000);
  if (quotaUs < MIN_QUOTA_US) throw new CpuLimitError(`${millicores}m of a ${periodUs} µs period is ${quotaUs} µs, below the kernel's ${MIN_QUOTA_US} µs`);
  return { quotaUs, periodUs };
}

/** One line of /proc/self/mountinfo that matters here. */
export interface Mount {
  /** Path inside the filesystem that is mounted (`/` unless a subtree is). */
  root: string;
  mountPoint: string;
  fsType: string;
  /** The filesystem's own options (for cgroup v1, the controllers: `rw,cpu,cpuacct`). */
  superOptions: string[];
  readOnly: boolean;
}

/** Reads /proc/self/mountinfo (proc(5)): `id parent major:minor root mountpoint options [optional…] - fstype source superoptions`. */
export function parseMountinfo(text: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(' ');
    const dash = fields.indexOf('-');
    if (dash < 6 || fields.length < dash + 4) continue;
    const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
    const options = (fields[5] ?? '').split(',');
    const superOptions = (fields[dash + 3] ?? '').split(',');
    mounts.push({
      root: unescape(fields[3] ?? '/'),
      mountPoint: unescape(fields[4] ?? ''),
      fsType: fields[dash + 1] ?? '',
      superOptions,
      readOnly: options.includes('ro') || superOptions.includes('ro'),
    });
  }
  return mounts;
}

/** Where CPU-limited cgroups can be made: the hierarchy's mount point and its version. */
export interface CpuHierarchy {
  version: 1 | 2;
  mountPoint: string;
  /** The mount's root inside the hierarchy: /proc/<pid>/cgroup paths are relative to the hierarchy's root, not the mount point. */
  root: string;
}

/**
 * The cpu hierarchy to use: cgroup v2 if a cgroup2 mount's `cgroup.controllers` lists `cpu`, else
 * the cgroup v1 mount with the `cpu` controller; undefined when neither exists or it is read-only.
 */
export function findCpuHierarchy(mounts: Mount[], controllersOf: (mountPoint: string) => string | undefined): CpuHierarchy | undefined {
  for (const mount of mounts) {
    if (mount.fsType !== 'cgroup2' || mount.readOnly) continue;
    if ((controllersOf(mount.mountPoint) ?? '').split(/\s+/).includes('cpu')) return { version: 2, mountPoint: mount.mountPoint, root: mount.root };
  }
  const v1 = mounts.find((m) => m.fsType === 'cgroup' && !m.readOnly && m.superOptions.includes('cpu'));
  return v1 ? { version: 1, mountPoint: v1.mountPoint, root: v1.root } : undefined;
}

/**
 * The cpu cgroup a process is in, from /proc/<pid>/cgroup (`id:controllers:path` lines): v1 the
 * line whose controllers include `cpu`, v2 the `0::` line.
 */
export function cpuCgroupOf(procCgroup: string, version: 1 | 2): string | undefined {
  for (const line of procCgroup.split('\n')) {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line.trim());
    if (!match) continue;
    const [, id, controllers = '', cgroupPath] = match;
    if (version === 2 ? id === '0' && controllers === '' : controllers.split(',').includes('cpu')) return cgroupPath;
  }
  return undefined;
}

/** A cgroup name must be one path segment: letters, digits, `.`, `_`, `-` (no `/`, no `..`). */
export function checkedCgroupName(name: string): string {
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/.test(name)) throw new CpuLimitError(`'${name}' is not a usable cgroup name (letters, digits, '.', '_', '-')`);
  return name;
}

/** Bandwidth counters of one cgroup's cpu.stat, in the same units on v1 and v2. */
export interface CpuStat {
  /** CFS periods in which the cgroup had runnable work. */
  periods: number;
  /** Of those, periods in which it used up its quota and waited. */
  throttledPeriods: number;
  /** Time its threads were held back by the quota, ms (v1 `throttled_time` ns; v2 `throttled_usec`). */
  throttledMs: number;
}

/** Reads cpu.stat (`key value` lines) of either version. */
export function parseCpuStat(text: string): CpuStat {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const [key, value] = line.trim().split(/\s+/);
    if (key && value !== undefined && /^\d+$/.test(value)) values.set(key, Number(value));
  }
  const throttledMs = values.has('throttled_usec') ? (values.get('throttled_usec') ?? 0) / 1_000 : (values.get('throttled_time') ?? 0) / 1_000_000;
  return { periods: values.get('nr_periods') ?? 0, throttledPeriods: values.get('nr_throttled') ?? 0, throttledMs };
}

/** What changed between two cpu.stat readings. */
export function cpuStatDelta(before: CpuStat, after: CpuStat): CpuStat {
  return {
    periods: after.periods - before.periods,
    throttledPeriods: after.throttledPeriods - before.throttledPeriods,
    throttledMs: after.throttledMs - before.throttledMs,
  };
}

/** One placed process and where it must be. */
interface Placement {
  cgroup: string;
  pid: number;
}

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/**
 * A run's parent cgroup (`<mountPoint>/<name>`, itself unlimited) and one leaf per process with the
 * CPU limit. Create it, `place()` each process right after it starts, `verify()` they are where they
 * must be, read `stats()`, and `remove()` at the end (also after a failure: processes still inside
 * go back to the hierarchy's root first).
 */
export class CpuLimitedCgroups {
  private readonly placements: Placement[] = [];
  private readonly leaves = new Set<string>();
  readonly dir: string;
  readonly quota: { quotaUs: number; periodUs: number };

  private constructor(
    readonly hierarchy: CpuHierarchy,
    readonly name: string,
    readonly millicores: number,
  ) {
    this.dir = path.join(hierarchy.mountPoint, name);
    this.quota = cfsQuota(millicores);
  }

  /**
   * Makes the run's parent cgroup. Throws CpuLimitError, saying why, when there is no writable cpu
   * controller (no cgroup v1 `cpu` mount, no cgroup v2 with `cpu` in cgroup.controllers, read-only,
   * not root).
   */
  static create(options: { name: string; millicores: number; mountinfo?: string }): CpuLimitedCgroups {
    // Validated before anything is touched.
    cfsQuota(options.millicores);
    const name = checkedCgroupName(options.name);
    let text: string;
    try {
      text = options.mountinfo ?? readFileSync('/proc/self/mountinfo', 'utf8');
    } catch (error) {
      throw new CpuLimitError(`a CPU limit needs cgroups, and /proc/self/mountinfo is unreadable (${errno(error)})`);
    }
    const readControllers = (mountPoint: string) => {
      try {
        return readFileSync(path.join(mountPoint, 'cgroup.controllers'), 'utf8');
      } catch {
        return undefined;
      }
    };
    const hierarchy = findCpuHierarchy(parseMountinfo(text), readControllers);
    if (!hierarchy) {
      throw new CpuLimitError(
        'a CPU limit needs a writable cpu cgroup controller, and this machine has none: no cgroup v1 hierarchy with the cpu controller ' +
          'and no cgroup v2 hierarchy whose cgroup.controllers lists cpu is mounted read-write (run as root with /sys/fs/cgroup writable, or without a CPU limit)',
      );
    }
    try {
      accessSync(hierarchy.mountPoint, constants.W_OK);
    } catch (error) {
      throw new CpuLimitError(`a CPU limit needs a writable cpu cgroup controller: ${hierarchy.mountPoint} (cgroup v${hierarchy.version}) is not writable (${errno(error)}; run as root)`);
    }
    const cgroups = new CpuLimitedCgroups(hierarchy, name, options.millicores);
    let made = false;
    try {
      if (hierarchy.version === 2) enableCpu(hierarchy.mountPoint);
      mkdirSync(cgroups.dir);
      made = true;
      if (hierarchy.version === 2) enableCpu(cgroups.dir);
    } catch (error) {
      if (made) cgroups.removeDir(cgroups.dir);
      if (error instanceof CpuLimitError) throw error;
      throw new CpuLimitError(`a CPU limit needs a writable cpu cgroup controller: cannot create ${cgroups.dir} (${errno(error)})`);
    }
    return cgroups;
  }

  /** The path /proc/<pid>/cgroup shows for a leaf. */
  procPath(leaf: string): string {
    return path.posix.join(this.hierarchy.root, this.name, leaf);
  }

  /** Puts a process into the leaf `<leaf>` (made with the quota on first use). */
  place(leaf: string, pid: number | undefined): void {
    if (pid === undefined || !Number.isInteger(pid) || pid <= 0) throw new CpuLimitError(`cannot limit ${leaf}: its process has no pid (did it start?)`);
    const dir = path.join(this.dir, checkedCgroupName(leaf));
    try {
      if (!this.leaves.has(leaf)) {
        mkdirSync(dir, { recursive: true });
        this.leaves.add(leaf);
        if (this.hierarchy.version === 2) {
          writeFileSync(path.join(dir, 'cpu.max'), `${this.quota.quotaUs} ${this.quota.periodUs}`);
        } else {
          writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(this.quota.periodUs));
          writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(this.quota.quotaUs));
        }
      }
      // Moves every thread of the process (cgroup.procs, not tasks).
      writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
    } catch (error) {
      throw new CpuLimitError(`cannot put ${leaf} (pid ${pid}) into ${dir}: ${errno(error)}`);
    }
    const existing = this.placements.findIndex((p) => p.cgroup === leaf);
    if (existing >= 0) this.placements.splice(existing, 1);
    this.placements.push({ cgroup: leaf, pid });
  }

  /**
   * Reads /proc/<pid>/cgroup of every placed process that is still running; throws if one is
   * anywhere but its own leaf. Answers the leaves checked, and how many processes had exited.
   */
  verify(): { checked: string[]; exited: string[] } {
    const checked: string[] = [];
    const exited: string[] = [];
    const wrong: string[] = [];
    for (const { cgroup, pid } of this.placements) {
      let text: string;
      try {
        text = readFileSync(`/proc/${pid}/cgroup`, 'utf8');
      } catch {
        exited.push(cgroup);
        continue;
      }
      const actual = cpuCgroupOf(text, this.hierarchy.version);
      if (actual === this.procPath(cgroup)) checked.push(cgroup);
      else wrong.push(`${cgroup} (pid ${pid}) is in '${actual ?? 'no cpu cgroup'}', not '${this.procPath(cgroup)}'`);
    }
    if (wrong.length > 0) throw new CpuLimitError(`processes outside their CPU-limited cgroup: ${wrong.join('; ')}`);
    return { checked, exited };
  }

  /** Every leaf's cpu.stat, by leaf name. */
  stats(): Record<string, CpuStat> {
    const stats: Record<string, CpuStat> = {};
    for (const leaf of this.leaves) {
      try {
        stats[leaf] = parseCpuStat(readFileSync(path.join(this.dir, leaf, 'cpu.stat'), 'utf8'));
      } catch {
        // Removed already.
      }
    }
    return stats;
  }

  /**
   * Removes every leaf and the parent. A process still inside (a stack that failed to stop) is moved
   * to the hierarchy's root first, so it runs on without the limit rather than keep the cgroup alive.
   * Answers what was removed and what could not be.
   */
  async remove(): Promise<{ removed: string[]; failed: string[] }> {
    const removed: string[] = [];
    const failed: string[] = [];
    for (const dir of [...[...this.leaves].map((leaf) => path.join(this.dir, leaf)), this.dir]) {
      if (!existsSync(dir)) continue;
      if (await this.removeWhenEmpty(dir)) removed.push(dir);
      else failed.push(dir);
    }
    this.leaves.clear();
    return { removed, failed };
  }

  private async removeWhenEmpty(dir: string): Promise<boolean> {
    for (let attempt = 0; attempt < 20; attempt++) {
      let pids: string[] = [];
      try {
        pids = readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
      } catch {
        // Gone, or unreadable: rmdir says which.
      }
      for (const pid of pids) {
        try {
          writeFileSync(path.join(this.hierarchy.mountPoint, 'cgroup.procs'), pid);
        } catch {
          // Exited meanwhile.
        }
      }
      if (this.removeDir(dir)) return true;
      // An exited process leaves its cgroup a moment after its parent saw it exit.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  }

  private removeDir(dir: string): boolean {
    try {
      rmdirSync(dir);
      return true;
    } catch (error) {
      return errno(error) === 'ENOENT';
    }
  }
}

/** cgroup v2: lets a cgroup's children use the cpu controller (its `cgroup.subtree_control`). */
function enableCpu(dir: string): void {
  const file = path.join(dir, 'cgroup.subtree_control');
  if (readFileSync(file, 'utf8').split(/\s+/).includes('cpu')) return;
  try {
    writeFileSync(file, '+cpu');
  } catch (error) {
    throw new CpuLimitError(`a CPU limit needs the cgroup v2 cpu controller enabled for ${dir}'s children, and writing '+cpu' to ${file} failed (${errno(error)})`);
  }
}
