/**
 * `npm run bench`: starts a stack of its own, loads the gateway's `POST /v1/payments` while both
 * Efí accounts are up (at each connection count, then paced at half the best rate) and again while
 * account A is down, measures what a payment costs every process (CPU, store commands, broker
 * messages), then the latency of `GET /v1/payments` as the payments grow; prints the figures with
 * the issue's targets and writes them to `.local/bench/<timestamp>.{json,md}`. The stack is stopped
 * and its databases dropped at the end, on failure and on Ctrl-C. tools/bench/bench.sh provisions,
 * builds and bundles first. See docs/performance.md.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { dropBenchData, startBenchStack } from './bench-stack';
import { machineInfo } from './machine';
import { HelpRequested, parseOptions, UsageError } from './options';
import { log } from './phases';
import { issueTargets } from './issue-targets';
import { findRabbitMq, findStore, storeSettings } from './proc-stats';
import { formatReport, overhead, writeReport, type BenchReport } from './report';
import type { WatchedProcess } from './resource-sampler';
import { runAll } from './runs';
import type { Check } from './checks';
import { CpuLimitedCgroups, CpuLimitError, REPO_ROOT, type ReplicaInfo, type RunningStack } from './stack-api';

let running: RunningStack | undefined;
let interrupted = false;
let cleanup: (() => Promise<void>) | undefined;

async function stopStack(): Promise<void> {
  const stack = running;
  running = undefined;
  if (stack) {
    log('stopping the bench stack (SIGTERM)…');
    await stack.stop();
  }
}

function onSignal(signal: NodeJS.Signals): void {
  if (interrupted) return;
  interrupted = true;
  log(`${signal}: stopping`);
  // Before the stack has started there is nothing to stop yet: startBenchStack's callback sees the flag.
  if (running) void (cleanup ?? stopStack)().finally(() => process.exit(130));
}

function watchedProcesses(stack: RunningStack, mongoUrl: string, amqpUrl: string) {
  const infra = { store: findStore(mongoUrl), rabbitmq: findRabbitMq(amqpUrl) };
  const numbered = (name: string, pids: number[]) => pids.map((pid, i): WatchedProcess => ({ name: pids.length > 1 ? `${name}#${i + 1}` : name, pid, group: 'infra' }));
  const watched: WatchedProcess[] = [
    // The launcher names the emulators `<provider>-emulator`; everything else it starts is a service.
    ...stack.processes.processes.map((p): WatchedProcess => ({ name: p.name, pid: p.child.pid ?? -1, group: p.name.endsWith('-emulator') ? 'emulator' : 'service' })),
    ...numbered('store (mongo-java-server)', infra.store),
    ...numbered('rabbitmq (beam.smp)', infra.rabbitmq),
    { name: 'bench (autocannon)', pid: process.pid, group: 'bench' },
  ];
  return { infra, watched };
}

/** Live heap one payment takes in the memory backend (measured: 100 000 payments, 1.3 GiB), with room. */
const HEAP_PER_PAYMENT = 16 * 1024;
const HEAP_BASE = 512 * 1024 ** 2;

/**
 * The memory backend holds every document on the JVM heap: a store reused from an earlier start
 * with a smaller heap would run out in the middle of the list runs. Fail before the long part.
 */
function checkStoreHeap(pid: number | undefined, listSizes: number[]): void {
  if (pid === undefined || listSizes.length === 0) return;
  const { backend, maxHeap } = storeSettings(pid);
  const [, amount, unit] = /^(\d+)([kmg])$/i.exec(maxHeap) ?? [];
  if (backend !== 'memory' || !amount || !unit) return;
  const heap = Number(amount) * 1024 ** ({ k: 1, m: 2, g: 3 }[unit.toLowerCase() as 'k' | 'm' | 'g']);
  const need = Math.max(...listSizes) * HEAP_PER_PAYMENT + HEAP_BASE;
  if (heap < need) {
    throw new UsageError(
      `the bench store (pid ${pid}) runs with -Xmx${maxHeap}, and ${Math.max(...listSizes)} payments need about ${(need / 1024 ** 3).toFixed(1)} GiB of heap: ` +
        `stop it (kill ${pid}) so that bench.sh starts one with STORE_HEAP (default 3g), or lower --list-sizes`,
    );
  }
}

/** Puts each service replica into its leaf `<service>-<n>` (n from 1) the moment it is spawned. */
function placeIn(cgroups: CpuLimitedCgroups) {
  return (replica: ReplicaInfo, pid: number | undefined) => cgroups.place(`${replica.service}-${replica.index + 1}`, pid);
}

/** Checks at the start that every replica landed in its cgroup (else nothing measured would be limited), and describes the limit. */
function limitInfo(cgroups: CpuLimitedCgroups, stack: RunningStack): NonNullable<BenchReport['cpuLimit']> {
  const { checked, exited } = cgroups.verify();
  if (exited.length > 0) throw new Error(`service replicas exited after the start: ${exited.join(', ')}`);
  if (checked.length !== stack.replicaList.length) throw new Error(`${checked.length} of ${stack.replicaList.length} service replicas are in a CPU-limited cgroup`);
  log(`every service replica is in its cgroup (read from /proc/<pid>/cgroup): ${checked.join(', ')}`);
  return { millicores: cgroups.millicores, ...cgroups.quota, cgroupVersion: cgroups.hierarchy.version, dir: cgroups.dir, cgroups: checked };
}

/** At the end: still every replica in its own cgroup (none restarted outside, none moved). */
function placementCheck(cgroups: CpuLimitedCgroups, expected: number): Check {
  const name = `every service replica ran in its ${cgroups.millicores}m cgroup (/proc/<pid>/cgroup at the end)`;
  try {
    const { checked, exited } = cgroups.verify();
    return { name, ok: checked.length === expected && exited.length === 0, detail: `${checked.length} of ${expected} in place${exited.length > 0 ? `; exited: ${exited.join(', ')}` : ''}` };
  } catch (error) {
    return { name, ok: false, detail: (error as Error).message };
  }
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2), process.env);
  const mongoUrl = process.env.MONGO_URL;
  const amqpUrl = process.env.AMQP_URL;
  if (!mongoUrl || !amqpUrl) throw new UsageError('MONGO_URL and AMQP_URL are required (run through tools/bench/bench.sh)');
  const runId = randomBytes(3).toString('hex');
  const startedAt = new Date().toISOString();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const dbPrefix = `bench_${runId}_`;
  // --cpu-limit: every service replica in its own cgroup with the quota, made before the stack so
  // that a machine without a writable cpu controller fails at once.
  let cgroups: CpuLimitedCgroups | undefined;
  if (options.cpuLimitMillicores > 0) {
    try {
      cgroups = CpuLimitedCgroups.create({ name: `orquestra-bench-${runId}`, millicores: options.cpuLimitMillicores });
    } catch (error) {
      throw error instanceof CpuLimitError ? new UsageError(`--cpu-limit ${options.cpuLimitMillicores}: ${error.message}`) : error;
    }
    log(`CPU limit ${options.cpuLimitMillicores}m per service replica: cgroup v${cgroups.hierarchy.version} ${cgroups.dir}/<service>-<n> (quota ${cgroups.quota.quotaUs} µs per ${cgroups.quota.periodUs} µs)`);
  }
  const removeCgroups = async () => {
    const limited = cgroups;
    cgroups = undefined;
    if (!limited) return;
    const { removed, failed } = await limited.remove();
    log(`removed ${removed.length} cgroups under ${limited.dir}${failed.length > 0 ? `; could not remove ${failed.join(', ')} (rmdir them once empty)` : ''}`);
  };
  let cleaning: Promise<void> | undefined;
  // Once, whoever asks first (the end of the run, a failure or a signal); later callers wait for the same work.
  cleanup = () =>
    (cleaning ??= (async () => {
      await stopStack();
      await removeCgroups().catch((error: Error) => log(`could not remove the cgroups: ${error.message}`));
      if (options.keepData) return log(`kept the databases ${dbPrefix}* and the exchange ${dbPrefix}events`);
      try {
        const dropped = await dropBenchData({ dbPrefix, mongoUrl, amqpUrl });
        log(`dropped ${dropped.join(', ')}`);
      } catch (error) {
        log(`could not drop the bench data (prefix ${dbPrefix}): ${(error as Error).message}`);
      }
    })());
  try {
    log(`run ${runId}: starting the bench stack (port offset ${options.portOffset}, databases ${dbPrefix}*)…`);
    const bench = await startBenchStack({
      runId,
      dbPrefix,
      portOffset: options.portOffset,
      mongoUrl,
      amqpUrl,
      replicas: options.replicas,
      ...(cgroups ? { onProcessStarted: placeIn(cgroups) } : {}),
      onStarted: (stack) => {
        running = stack;
        if (interrupted) void cleanup?.().finally(() => process.exit(130));
      },
    });
    const { stack, seed } = bench;
    const { infra, watched } = watchedProcesses(stack, mongoUrl, amqpUrl);
    checkStoreHeap(infra.store[0], options.listSizes);
    log(`watching ${watched.map((w) => `${w.name}=${w.pid}`).join(' ')}`);
    const cpuLimit = cgroups ? limitInfo(cgroups, stack) : undefined;
    const accountNames: Record<string, string> = {
      [seed.emulatorClient.clientId]: 'A',
      [seed.testProviderAccountId]: 'A',
      [seed.secondEmulatorClientId]: 'B',
      [seed.secondTestProviderAccountId ?? 'B']: 'B',
    };
    // Every replica's metrics (one per service unless --replicas).
    const metricsPorts = stack.replicaList.map((replica) => replica.metrics);
    const context = { options, watched, efiControlUrl: stack.efiControlUrl, metricsPorts, accountNames, ...(cgroups ? { cgroups } : {}) };
    const { phases, lists, checks, goal } = await runAll(bench, context, { mongoUrl, storePid: infra.store[0] }, runId);
    if (cgroups && cpuLimit) checks.push(placementCheck(cgroups, cpuLimit.cgroups.length));

    const overheadMs = overhead(phases);
    const targets = issueTargets({ phases, overheadMs, goal });
    const report: BenchReport = { runId, startedAt, options, machine: machineInfo(infra), ...(cpuLimit ? { cpuLimit } : {}), phases, goal, overheadMs, lists, targets, checks };
    const files = writeReport(report, path.join(REPO_ROOT, '.local', 'bench'));
    console.log(formatReport(report));
    console.log(`\nWritten to ${path.relative(REPO_ROOT, files.json)} and ${path.relative(REPO_ROOT, files.markdown)}`);
    // A missed goal is a finding, not a crash, but scripts should see it.
    return checks.some((c) => !c.ok) || goal?.ok === false ? 1 : 0;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  async (error: Error) => {
    console.error(error instanceof UsageError ? error.message : `bench failed: ${error.stack ?? error.message}`);
    await (cleanup ?? stopStack)().catch(() => undefined);
    process.exit(error instanceof HelpRequested ? 0 : error instanceof UsageError ? 2 : 1);
  },
);
