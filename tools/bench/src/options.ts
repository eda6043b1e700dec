import { cfsQuota, parseReplicas } from './stack-api';

/**
 * Benchmark options from flags (`--duration 20`, `--duration=20`) or the environment
 * (`BENCH_DURATION=20`); flags win. Every number is validated: a typo must not silently bench
 * with a default.
 */
export interface BenchOptions {
  /** Measured seconds per phase. */
  durationS: number;
  /**
   * Concurrent connections of each healthy run, in order (closed loop: each sends its next request
   * when the previous answered). The failover run uses the first.
   */
  connections: number[];
  /** Unmeasured seconds of the same load before each phase (JIT, caches, connection pools). */
  warmupS: number;
  /** Resource sampling interval. */
  sampleMs: number;
  /** Added to every default port of the stack (its own ports, beside a developer's stack). */
  portOffset: number;
  /** Client-side timeout of one request. */
  timeoutS: number;
  /** Skip the failover run (account A down). */
  skipFailover: boolean;
  /** Also load the Efí emulator directly at the half-rate run's rate (the floor the platform adds to). */
  emulatorBaseline: boolean;
  /**
   * Replicas per service, as ORQUESTRA_REPLICAS takes them (`2`, or `payments=2,gateway=2`); empty:
   * one of each. Several gateways run behind the stack launcher's HTTP balancer (tools/stack).
   */
  replicas: string;
  /**
   * CPU limit of every service replica, millicores (`200` = 0.2 core), like a pod's
   * `resources.limits.cpu`: each replica process runs in its own cgroup with that CFS quota
   * (tools/stack/src/cpu-limit.ts). 0: no limit.
   */
  cpuLimitMillicores: number;
  /** Payments of the bench merchant before each list-latency run, ascending; empty: no list runs. */
  listSizes: number[];
  /** Requests per query of a list-latency run (one at a time). */
  listRequests: number;
  /** Keep the bench databases and exchange after the run (default: dropped). */
  keepData: boolean;
  /** Requests per query of the analytics overview at each list size (one at a time); 0: no analytics runs. */
  analyticsRequests: number;
}

/**
 * healthy: both accounts up, closed loop; half_rate: the same at half the best healthy rate
 * (paced); failover: account A in outage; healthy_after: A back; emulator: the emulator alone at
 * the half rate.
 */
export type PhaseName = 'healthy' | 'half_rate' | 'failover' | 'healthy_after' | 'emulator';

const USAGE = `usage: npm run bench -- [options]            (env in brackets; flags win)
  --duration <s>       measured seconds per run                   [BENCH_DURATION, 30]
  --connections <n,…>  connections of each healthy run             [BENCH_CONNECTIONS, 8,64]
  --warmup <s>         unmeasured warm-up before the first run    [BENCH_WARMUP, 5]
  --sample-ms <ms>     RSS/CPU sampling interval                  [BENCH_SAMPLE_MS, 250]
  --port-offset <n>    stack port offset                          [BENCH_PORT_OFFSET, 3000]
  --timeout <s>        per-request client timeout                 [BENCH_TIMEOUT, 40]
  --skip-failover      healthy run only (no outage of account A)  [BENCH_SKIP_FAILOVER=1]
  --skip-emulator-baseline  do not load the Efí emulator directly [BENCH_SKIP_EMULATOR_BASELINE=1]
  --list-sizes <n,…>   payments before each list-latency run      [BENCH_LIST_SIZES, 10000,100000]
  --list-requests <n>  requests per list query                    [BENCH_LIST_REQUESTS, 100]
  --skip-list          no list-latency runs                       [BENCH_SKIP_LIST=1]
  --analytics-requests <n>  requests per analytics overview query [BENCH_ANALYTICS_REQUESTS, 200]
  --skip-analytics     no analytics overview runs                 [BENCH_SKIP_ANALYTICS=1]
  --keep-data          keep the bench databases/exchange          [BENCH_KEEP_DATA=1]
  --replicas <spec>    replicas per service: 2, or payments=2,…   [BENCH_REPLICAS, one each]
  --cpu-limit <m>      CPU limit of every service replica, millicores (200 = 0.2 core): each runs in its
                       own cgroup orquestra-bench-<run>/<service>-<n> with that CFS quota, like a pod's
                       resources.limits.cpu; needs a writable cpu cgroup controller (root)
                                                                  [BENCH_CPU_LIMIT, no limit]
  --help
Runs: healthy (accounts A and B up) at each --connections, the same paced at half the best healthy
rate, failover (A in outage at the Efí emulator, first --connections) and healthy again, the Efí
emulator alone at the half rate (the platform's overhead per percentile), then GET /v1/payments
latency after seeding the payments database up to each --list-sizes, and at each size
GET /v1/analytics/overview latency after rebuilding the bench merchant's analytics buckets.
With --cpu-limit the report adds each replica cgroup's CPU throttling per run (cpu.stat); the store,
broker, emulators and the load generator are never limited.`;

/**
 * 3000, not 2000: with +2000 the gateway would listen on 10080, one of the ports fetch() refuses
 * to connect to ("bad port", WHATWG Fetch), so the stack launcher's readiness probe would never
 * see it ready. Gateway 11080, Efí API/control 12443/12444, gRPC 53051–53055.
 */
export const DEFAULT_PORT_OFFSET = 3000;

/** The ports in the stack's range that fetch() refuses (https://fetch.spec.whatwg.org/#port-blocking). */
const FETCH_BAD_PORTS = new Set([5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);

function checkedOffset(offset: number): number {
  // Probed with fetch() by the launcher and the benchmark: the gateway and the emulator's control port.
  for (const [what, base] of [['gateway', 8080], ['Efí emulator control', 9444]] as const) {
    if (FETCH_BAD_PORTS.has(base + offset)) {
      throw new UsageError(`--port-offset ${offset} puts the ${what} on port ${base + offset}, which fetch() refuses to use; pick another offset`);
    }
  }
  return offset;
}

export class UsageError extends Error {}

/** The --replicas text, checked now (a typo must not bench one replica of each). */
function replicasSpec(text: string | undefined): string {
  const spec = (text ?? '').trim();
  try {
    parseReplicas(spec);
  } catch (error) {
    throw new UsageError(`--replicas (BENCH_REPLICAS): ${(error as Error).message}`);
  }
  return spec;
}
/** The --cpu-limit millicores, checked now (0 or unset: no limit). */
function cpuLimit(text: string | undefined): number {
  const value = (text ?? '').trim();
  if (value === '' || value === '0') return 0;
  const millicores = /^\d+m?$/.test(value) ? Number(value.replace(/m$/, '')) : Number.NaN;
  try {
    cfsQuota(millicores);
  } catch (error) {
    throw new UsageError(`--cpu-limit (BENCH_CPU_LIMIT): ${(error as Error).message}`);
  }
  return millicores;
}
/** `--help`: the usage text, and exit 0. */
export class HelpRequested extends UsageError {}

/** Flags without a value, and flags with one. */
const SWITCHES = new Set(['keep-data', 'skip-failover', 'skip-emulator-baseline', 'skip-list', 'skip-analytics', 'help']);
const VALUED = new Set(['replicas', 'cpu-limit', 'duration', 'connections', 'warmup', 'sample-ms', 'port-offset', 'timeout', 'list-sizes', 'list-requests', 'analytics-requests']);

function parseArgs(argv: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument '${arg}'\n${USAGE}`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq > 0 ? eq : undefined);
    if (!SWITCHES.has(name) && !VALUED.has(name)) throw new UsageError(`unknown option --${name}\n${USAGE}`);
    if (eq > 0) {
      flags.set(arg.slice(2, eq), arg.slice(eq + 1));
    } else if (SWITCHES.has(name)) {
      flags.set(name, '1');
    } else {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${arg} needs a value\n${USAGE}`);
      flags.set(name, value);
      i++;
    }
  }
  return flags;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const flags = parseArgs(argv);
  if (flags.has('help')) throw new HelpRequested(USAGE);

  const raw = (flag: string, envName: string): string | undefined => flags.get(flag) ?? env[envName];
  const on = (flag: string, envName: string) => (flags.get(flag) ?? env[envName]) === '1';
  const int = (flag: string, envName: string, fallback: number, min: number, max: number): number => {
    const text = raw(flag, envName);
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new UsageError(`--${flag} (${envName}) must be an integer in ${min}…${max}, got '${text}'`);
    }
    return value;
  };
  const ints = (flag: string, envName: string, fallback: number[], min: number, max: number): number[] => {
    const text = raw(flag, envName);
    if (text === undefined || text === '') return fallback;
    const values = text.split(',').map((part) => Number(part.trim()));
    if (values.some((value) => !Number.isInteger(value) || value < min || value > max)) {
      throw new UsageError(`--${flag} (${envName}) must be integers in ${min}…${max} separated by commas, got '${text}'`);
    }
    return values;
  };
  return {
    durationS: int('duration', 'BENCH_DURATION', 30, 1, 3_600),
    connections: ints('connections', 'BENCH_CONNECTIONS', [8, 64], 1, 10_000),
    warmupS: int('warmup', 'BENCH_WARMUP', 5, 0, 600),
    sampleMs: int('sample-ms', 'BENCH_SAMPLE_MS', 250, 50, 10_000),
    portOffset: checkedOffset(int('port-offset', 'BENCH_PORT_OFFSET', DEFAULT_PORT_OFFSET, 0, 10_000)),
    timeoutS: int('timeout', 'BENCH_TIMEOUT', 40, 1, 600),
    skipFailover: on('skip-failover', 'BENCH_SKIP_FAILOVER'),
    emulatorBaseline: !on('skip-emulator-baseline', 'BENCH_SKIP_EMULATOR_BASELINE'),
    keepData: on('keep-data', 'BENCH_KEEP_DATA'),
    replicas: replicasSpec(raw('replicas', 'BENCH_REPLICAS')),
    cpuLimitMillicores: cpuLimit(raw('cpu-limit', 'BENCH_CPU_LIMIT')),
    listSizes: on('skip-list', 'BENCH_SKIP_LIST') ? [] : ints('list-sizes', 'BENCH_LIST_SIZES', [10_000, 100_000], 1, 10_000_000).sort((a, b) => a - b),
    listRequests: int('list-requests', 'BENCH_LIST_REQUESTS', 100, 1, 100_000),
    analyticsRequests: on('skip-analytics', 'BENCH_SKIP_ANALYTICS') ? 0 : int('analytics-requests', 'BENCH_ANALYTICS_REQUESTS', 200, 1, 100_000),
  };
}
