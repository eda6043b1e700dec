/**
 * Benchmark options from flags (`--duration 20`, `--duration=20`) or the environment
 * (`BENCH_DURATION=20`); flags win. Every number is validated: a typo must not silently bench
 * with a default.
 */
export interface BenchOptions {
  /** Measured seconds per phase. */
  durationS: number;
  /** Concurrent connections (closed loop: each sends its next request when the previous answered). */
  connections: number;
  /** Unmeasured seconds of the same load before each phase (JIT, caches, connection pools). */
  warmupS: number;
  /** Resource sampling interval. */
  sampleMs: number;
  /** Added to every default port of the stack (its own ports, beside a developer's stack). */
  portOffset: number;
  /** Client-side timeout of one request. */
  timeoutS: number;
  /** Skip the failover run (account A down): the healthy run only. */
  skipFailover: boolean;
  /** Also load the Efí emulator directly (the floor the platform adds to). */
  emulatorBaseline: boolean;
  /** Keep the bench databases and exchange after the run (default: dropped). */
  keepData: boolean;
}

/** healthy: both accounts up; failover: account A in outage; emulator: the emulator alone. */
export type PhaseName = 'healthy' | 'failover' | 'healthy_after' | 'emulator';

const USAGE = `usage: npm run bench -- [options]            (env in brackets; flags win)
  --duration <s>       measured seconds per run                   [BENCH_DURATION, 30]
  --connections <n>    concurrent connections                     [BENCH_CONNECTIONS, 8] 
  --warmup <s>         unmeasured warm-up before the healthy run  [BENCH_WARMUP, 5]
  --sample-ms <ms>     RSS/CPU sampling interval                  [BENCH_SAMPLE_MS, 250]
  --port-offset <n>    stack port offset                          [BENCH_PORT_OFFSET, 3000]
  --timeout <s>        per-request client timeout                 [BENCH_TIMEOUT, 40]
  --skip-failover      healthy run only (no outage of account A)  [BENCH_SKIP_FAILOVER=1]
  --skip-emulator-baseline  do not load the Efí emulator directly [BENCH_SKIP_EMULATOR_BASELINE=1]
  --keep-data          keep the bench databases/exchange          [BENCH_KEEP_DATA=1]
  --help
Runs: healthy (accounts A and B up), failover (A in outage at the Efí emulator, same load), then the
same load straight at the Efí emulator, for the platform's overhead per percentile.`;

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
/** `--help`: the usage text, and exit 0. */
export class HelpRequested extends UsageError {}

/** Flags without a value, and flags with one. */
const SWITCHES = new Set(['keep-data', 'skip-failover', 'skip-emulator-baseline', 'help']);
const VALUED = new Set(['duration', 'connections', 'warmup', 'sample-ms', 'port-offset', 'timeout']);

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
  return {
    durationS: int('duration', 'BENCH_DURATION', 30, 1, 3_600),
    connections: int('connections', 'BENCH_CONNECTIONS', 8, 1, 10_000),
    warmupS: int('warmup', 'BENCH_WARMUP', 5, 0, 600),
    sampleMs: int('sample-ms', 'BENCH_SAMPLE_MS', 250, 50, 10_000),
    portOffset: checkedOffset(int('port-offset', 'BENCH_PORT_OFFSET', DEFAULT_PORT_OFFSET, 0, 10_000)),
    timeoutS: int('timeout', 'BENCH_TIMEOUT', 40, 1, 600),
    skipFailover: on('skip-failover', 'BENCH_SKIP_FAILOVER'),
    emulatorBaseline: !on('skip-emulator-baseline', 'BENCH_SKIP_EMULATOR_BASELINE'),
    keepData: on('keep-data', 'BENCH_KEEP_DATA'),
  };
}
