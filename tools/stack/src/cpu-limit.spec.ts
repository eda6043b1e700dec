import { cfsQuota, checkedCgroupName, cpuCgroupOf, cpuStatDelta, CpuLimitedCgroups, CpuLimitError, findCpuHierarchy, parseCpuStat, parseMountinfo } from './cpu-limit';

// Lines of real /proc/self/mountinfo files: a cgroup v1 host (cpu alone, and cpu,cpuacct together),
// a cgroup v2 host, and a container that mounts its own subtree of the hierarchy.
const V1 = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu',
  '33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct',
  '34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset',
  '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n');
const V1_COMBINED = '25 24 0:22 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:8 - cgroup cgroup rw,cpu,cpuacct';
const V2 = '30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot';
const CONTAINER_RO = '702 700 0:29 /kubepods/pod1/abc /sys/fs/cgroup/cpu ro,nosuid - cgroup cgroup rw,cpu,cpuacct';

describe('cfsQuota', () => {
  it('turns millicores into µs of CPU per 100 ms period, like a pod limit', () => {
    expect(cfsQuota(200)).toEqual({ quotaUs: 20_000, periodUs: 100_000 });
    expect(cfsQuota(1_500)).toEqual({ quotaUs: 150_000, periodUs: 100_000 });
    expect(cfsQuota(250, 50_000)).toEqual({ quotaUs: 12_500, periodUs: 50_000 });
  });

  it('refuses limits the kernel or Kubernetes would not take', () => {
    expect(() => cfsQuota(0)).toThrow(CpuLimitError);
    expect(() => cfsQuota(5)).toThrow(/10…64000/);
    expect(() => cfsQuota(12.5)).toThrow(/integer/);
    expect(() => cfsQuota(Number.NaN)).toThrow(/millicores/);
    // 10m of a 5 ms period is 50 µs: below the kernel's 1 ms minimum.
    expect(() => cfsQuota(10, 5_000)).toThrow(/below the kernel's 1000 µs/);
    expect(() => cfsQuota(200, 500)).toThrow(/period/);
  });
});

describe('finding the cpu hierarchy', () => {
  it('reads mount point, root, type and controllers, unescaping paths', () => {
    const [mount] = parseMountinfo(CONTAINER_RO);
    expect(mount).toEqual({ root: '/kubepods/pod1/abc', mountPoint: '/sys/fs/cgroup/cpu', fsType: 'cgroup', superOptions: ['rw', 'cpu', 'cpuacct'], readOnly: true });
    expect(parseMountinfo('40 31 0:1 / /mnt/with\\040space rw - tmpfs tmpfs rw')[0]?.mountPoint).toBe('/mnt/with space');
    expect(parseMountinfo('garbage\n\n')).toEqual([]);
  });

  it('takes the cgroup v1 cpu controller when no cgroup v2 hierarchy has cpu', () => {
    // The unified hierarchy of a v1 host has no controllers.
    expect(findCpuHierarchy(parseMountinfo(V1), () => '')).toEqual({ version: 1, mountPoint: '/sys/fs/cgroup/cpu', root: '/' });
    expect(findCpuHierarchy(parseMountinfo(V1_COMBINED), () => undefined)).toEqual({ version: 1, mountPoint: '/sys/fs/cgroup/cpu,cpuacct', root: '/' });
  });

  it('takes cgroup v2 when its cgroup.controllers lists cpu (not cpuset alone)', () => {
    expect(findCpuHierarchy(parseMountinfo(V2), () => 'cpuset cpu io memory pids\n')).toEqual({ version: 2, mountPoint: '/sys/fs/cgroup', root: '/' });
    expect(findCpuHierarchy(parseMountinfo(V2), () => 'cpuset io memory\n')).toBeUndefined();
  });

  it('finds nothing on read-only mounts or without cgroups', () => {
    expect(findCpuHierarchy(parseMountinfo(CONTAINER_RO), () => undefined)).toBeUndefined();
    expect(findCpuHierarchy(parseMountinfo('22 1 0:5 / /proc rw - proc proc rw'), () => undefined)).toBeUndefined();
  });

  it('fails with a message saying what is missing', () => {
    expect(() => CpuLimitedCgroups.create({ name: 'orquestra-bench-x', millicores: 200, mountinfo: '22 1 0:5 / /proc rw - proc proc rw' })).toThrow(
      /writable cpu cgroup controller.*cgroup v1.*cgroup v2.*cgroup\.controllers lists cpu/,
    );
  });
});

describe('cgroup paths and counters', () => {
  it("reads a process's cpu cgroup from /proc/<pid>/cgroup, v1 and v2", () => {
    const v1 = '9:name=systemd:/\n4:memory:/x\n2:cpuacct:/\n1:cpu:/orquestra-bench-a1/payments-1\n0::/';
    expect(cpuCgroupOf(v1, 1)).toBe('/orquestra-bench-a1/payments-1');
    expect(cpuCgroupOf('3:cpu,cpuacct:/kubepods/p/c\n', 1)).toBe('/kubepods/p/c');
    expect(cpuCgroupOf(v1, 2)).toBe('/');
    expect(cpuCgroupOf('0::/orquestra-bench-a1/gateway-2\n', 2)).toBe('/orquestra-bench-a1/gateway-2');
    // cpuset is not cpu.
    expect(cpuCgroupOf('3:cpuset:/a\n', 1)).toBeUndefined();
  });

  it('takes one path segment as a cgroup name, nothing that climbs or nests', () => {
    expect(checkedCgroupName('payments-2')).toBe('payments-2');
    expect(checkedCgroupName('orquestra-bench-0a1b2c')).toBe('orquestra-bench-0a1b2c');
    for (const bad of ['', '..', '../etc', 'a/b', '.hidden', 'x'.repeat(101), 'with space']) expect(() => checkedCgroupName(bad)).toThrow(CpuLimitError);
  });

  it('reads cpu.stat of v1 (ns) and v2 (µs) in the same units, and differences', () => {
    const v1 = parseCpuStat('nr_periods 62\nnr_throttled 61\nthrottled_time 4816654290\nnr_bursts 0\nburst_time 0\n');
    expect(v1).toEqual({ periods: 62, throttledPeriods: 61, throttledMs: 4816.65429 });
    const v2 = parseCpuStat('usage_usec 600000\nuser_usec 590000\nsystem_usec 10000\nnr_periods 30\nnr_throttled 29\nthrottled_usec 2400000\n');
    expect(v2).toEqual({ periods: 30, throttledPeriods: 29, throttledMs: 2400 });
    expect(parseCpuStat('')).toEqual({ periods: 0, throttledPeriods: 0, throttledMs: 0 });
    expect(cpuStatDelta(v2, v1)).toEqual({ periods: 32, throttledPeriods: 32, throttledMs: 4816.65429 - 2400 });
  });
});
