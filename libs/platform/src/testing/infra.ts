import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

export interface TestInfra {
  mongoUrl: string;
  amqpUrl: string;
  /** Releases what this call started; a no-op for shared infrastructure. */
  stop(): Promise<void>;
}

const REPO_ROOT = path.resolve(__dirname, '../../../..');
const INFRA_SCRIPT = path.join(REPO_ROOT, 'tools/infra/infra.sh');
const DOCKER_PROBE_MS = 2_000;
const CONTAINER_STARTUP_MS = 120_000;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/**
 * `queueExpiresMs` for the event buses of tests: the broker drops their consumers' quorum queues an
 * hour after their last use, so test runs leave none behind on the shared broker (docs/rabbitmq.md).
 * An hour outlasts any spec file (a `.retry` or `.dlq` queue counts as unused from its declaration).
 */
export const TEST_QUEUES_EXPIRE_MS = 60 * 60 * 1000;
/** The tests' own store: in memory (faster scans, nothing to keep), apart from `npm start`'s. */
export const TEST_STORE_ENV = { STORE_BACKEND: 'memory', STORE_PORT: '27018' } as const;

/**
 * A MongoDB-compatible store and an AMQP broker for integration tests, in order of preference:
 * MONGO_URL + AMQP_URL from the environment, throwaway Docker containers, or the shared local
 * store (mongo-java-server, memory backend, port 27018: never the `npm start` store on 27017) and
 * RabbitMQ from tools/infra/infra.sh (for machines without a Docker engine).
 */
export async function ensureTestInfra(): Promise<TestInfra> {
  const { MONGO_URL: mongoUrl, AMQP_URL: amqpUrl } = process.env;
  if (mongoUrl && amqpUrl) return { mongoUrl, amqpUrl, stop: async () => undefined };
  if (await dockerAvailable()) return startContainers();
  return startLocalInfra();
}

/**
 * A per-suite name prefix such as `t_outbox_k3x9qa_`, so suites sharing one server never see
 * each other's databases, queues or exchanges. Kept short because MongoDB limits database
 * names to 63 characters.
 */
export function uniqueDbPrefix(label: string): string {
  const safe =
    label
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 20) || 'x';
  const random = Array.from(randomBytes(6), (b) => ALPHABET[b % ALPHABET.length]).join('');
  return `t_${safe}_${random}_`;
}

async function dockerAvailable(): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    // Imported lazily: testcontainers is heavy and most local runs never need it.
    const { getContainerRuntimeClient } = await import('testcontainers');
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('container runtime probe timed out')), DOCKER_PROBE_MS);
    });
    await Promise.race([getContainerRuntimeClient(), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

async function startContainers(): Promise<TestInfra> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const started = await Promise.allSettled([
    new GenericContainer('mongo:7')
      .withExposedPorts(27017)
      .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
      .withStartupTimeout(CONTAINER_STARTUP_MS)
      .start(),
    new GenericContainer('rabbitmq:3.13')
      .withExposedPorts(5672)
      .withWaitStrategy(Wait.forLogMessage(/Server startup complete/))
      .withStartupTimeout(CONTAINER_STARTUP_MS)
      .start(),
  ]);
  const [mongo, rabbit] = started;
  if (mongo.status === 'rejected' || rabbit.status === 'rejected') {
    // Do not leave the one that did start running until Ryuk notices.
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
    const reason = mongo.status === 'rejected' ? mongo.reason : (rabbit as PromiseRejectedResult).reason;
    throw new Error(`could not start test containers: ${String(reason)}`);
  }
  const m = mongo.value;
  const r = rabbit.value;
  return {
    mongoUrl: `mongodb://${m.getHost()}:${m.getMappedPort(27017)}`,
    // The official image lets guest log in from outside the container.
    amqpUrl: `amqp://guest:guest@${r.getHost()}:${r.getMappedPort(5672)}`,
    stop: async () => {
      await Promise.all([m.stop(), r.stop()]);
    },
  };
}

function startLocalInfra(): TestInfra {
  // Parallel jest workers may all get here: flock inside infra.sh lets one start things and the
  // others reuse them. Seconds once installed, but the very first run fetches the store's jars and
  // may install Java (a minute or more): run `tools/infra/infra.sh up` first on a new machine.
  const env = { ...process.env, ...TEST_STORE_ENV };
  const up = spawnSync('bash', [INFRA_SCRIPT, 'up'], { cwd: REPO_ROOT, stdio: 'inherit', env });
  if (up.status !== 0) {
    throw new Error(`${INFRA_SCRIPT} up failed (${up.error?.message ?? `exit ${up.status}`}); see its output above`);
  }
  const vars = parseEnvLines(execFileSync('bash', [INFRA_SCRIPT, 'env'], { cwd: REPO_ROOT, encoding: 'utf8', env }));
  const { MONGO_URL: mongoUrl, AMQP_URL: amqpUrl } = vars;
  if (!mongoUrl || !amqpUrl) throw new Error(`${INFRA_SCRIPT} env did not print MONGO_URL and AMQP_URL`);
  // The local servers are shared by every suite and later runs, so nothing to stop.
  return { mongoUrl, amqpUrl, stop: async () => undefined };
}

/** Parses `KEY=value` / `KEY='value'` lines as infra.sh prints them (shell single-quoting). */
function parseEnvLines(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (!match?.[1] || match[2] === undefined) continue;
    const raw = match[2];
    vars[match[1]] = raw.startsWith("'") && raw.endsWith("'") ? raw.slice(1, -1).replace(/'\\''/g, "'") : raw;
  }
  return vars;
}
