import { existsSync } from 'node:fs';
import path from 'node:path';
import { checkGrpcHealth } from '@orquestra/platform';
import { startHttpBalancer, type HttpBalancer } from './http-balancer';
import { ProcessGroup } from './process-group';
import { withShared } from './launcher-env';
import { parseReplicas, replicaName, replicaPorts, type Replicas } from './replicas';
import { localEncryptionKeys, REPO_ROOT, serviceEnvironment, stackPorts, type StackPorts } from './stack-layout';

export const SERVICES = ['accounts', 'vault', 'providers', 'routing', 'notifications', 'subscriptions', 'payouts', 'payments', 'tracking', 'gateway'] as const;

/**
 * Every emulator (tools/emulators/<code>), each with an API and a control port: the six payment
 * providers, and the three ad tools tracking sends sales to (docs/tracking.md).
 */
export type EmulatorCode = 'efi' | 'mercadopago' | 'asaas' | 'pagarme' | 'woovi' | 'stripe' | 'utmify' | 'meta' | 'tiktok';
/** The emulators a stack starts. */
export const EMULATORS: readonly EmulatorCode[] = ['efi', 'mercadopago', 'asaas', 'pagarme', 'woovi', 'stripe', 'utmify', 'meta', 'tiktok'];

export interface StackOptions {
  portOffset?: number;
  mongoUrl: string;
  amqpUrl: string;
  dbPrefix: string;
  stateDir: string;
  certDir: string;
  logLevel?: string;
  readyTimeoutMs?: number;
  overrides?: Record<string, Record<string, string>>;
  /** Variables for every service, e.g. the standard OTEL_* exporter settings. */
  shared?: Record<string, string>;
  /**
   * Where the emulators keep their state (`<dir>/<code>.json`), so that a restarted stack finds the
   * accounts, charges and webhooks its providers service set up before. Unset: in memory (tests).
   */
  emulatorStateDir?: string;
  /**
   * Replicas per service (replicas.ts); default one each, or what ORQUESTRA_REPLICAS says
   * (`2`, or `payments=2,providers=2`). Several gateways run behind the launcher's HTTP balancer.
   */
  replicas?: Replicas;
  /**
   * Called right after each service replica's process is spawned (also on `restart()`), before it
   * is ready: e.g. to put it into a CPU-limited cgroup (cpu-limit.ts). Throwing fails the start.
   */
  onProcessStarted?: (replica: ReplicaInfo, pid: number | undefined) => void;
  /**
   * Told as the start goes (`npm start` prints it, start-progress.ts): how many processes start,
   * each one as it becomes ready, and the end (`ok` false when the start failed).
   */
  progress?: {
    starting(total: number): void;
    ready(event: { name: string; seconds: number }): void;
    finish(ok: boolean, seconds: number): void;
  };
}

/** One running replica of a service: its process name and ports (`main`: gRPC, or HTTP for the gateway). */
export interface ReplicaInfo {
  service: (typeof SERVICES)[number];
  name: string;
  index: number;
  main: number;
  metrics: number;
}

export interface RunningStack {
  ports: StackPorts;
  baseUrl: string;
  efiControlUrl: string;
  /** Control base URL of every emulator, by provider code. */
  controlUrls: Record<EmulatorCode, string>;
  processes: ProcessGroup;
  env: Record<string, Record<string, string>>;
  /** Replicas per service, and every replica's process name and ports. */
  replicas: Replicas;
  replicaList: ReplicaInfo[];
  /** The HTTP balancer in front of the gateway replicas (only with more than one). */
  balancer?: HttpBalancer;
  stop(): Promise<void>;
  /**
   * Restarts one service process (e.g. after `kill -9` in a resilience test): a replica's own name
   * (`payments-2`) restarts that replica; the service's name restarts its first one.
   */
  restart(name: string): Promise<void>;
}

async function waitFor(what: string, probe: () => Promise<boolean>, deadline: number, group: ProcessGroup): Promise<void> {
  for (;;) {
    const dead = group.exited();
    if (dead.length > 0) {
      throw new Error(`${dead.map((p) => p.name).join(', ')} exited during start-up; see ${dead.map((p) => p.logFile).join(', ')}`);
    }
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not become ready in time`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const httpOk = (url: string) => fetch(url, { signal: AbortSignal.timeout(1_000) }).then((r) => r.ok);

/**
 * Starts every provider emulator and every service as separate processes from `dist/`, and waits until
 * each reports ready (gRPC health SERVING, HTTP health 200).
 */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const ports = stackPorts(options.portOffset ?? 0);
  const replicas = options.replicas ?? parseReplicas(process.env['ORQUESTRA_REPLICAS']);
  const group = new ProcessGroup(path.join(options.stateDir, 'logs'));
  const env = serviceEnvironment({
    ports,
    mongoUrl: options.mongoUrl,
    amqpUrl: options.amqpUrl,
    dbPrefix: options.dbPrefix,
    encryptionKeys: localEncryptionKeys(options.stateDir),
    certDir: options.certDir,
    logLevel: options.logLevel ?? 'info',
    replicas,
    ...(options.overrides ? { overrides: options.overrides } : {}),
  });
  Object.assign(env, withShared(env, SERVICES, options.shared ?? {}));
  const script = (name: string) => path.join(REPO_ROOT, 'dist', 'services', name, 'main.js');
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  const controlUrls = Object.fromEntries(EMULATORS.map((code) => [code, `http://127.0.0.1:${ports[`${code}Control`]}`])) as Record<EmulatorCode, string>;
  const balanced = replicas.gateway > 1;
  const replicaList: ReplicaInfo[] = SERVICES.flatMap((service) =>
    Array.from({ length: replicas[service] }, (_, index) => ({
      service,
      name: replicaName(service, index),
      index,
      ...replicaPorts({ main: ports[service], metrics: ports[`${service}Metrics`] }, index, service === 'gateway' && balanced),
    })),
  );
  /** A replica's environment: its service's, with its own listening ports. */
  const replicaEnv = (replica: ReplicaInfo): Record<string, string> => ({
    // The service's name, not the process's: it names the service's database and queues.
    SERVICE_NAME: replica.service,
    ...(env[replica.service] ?? {}),
    ...(replica.service === 'gateway' ? { HTTP_PORT: String(replica.main) } : { GRPC_ADDRESS: `127.0.0.1:${replica.main}` }),
    METRICS_PORT: String(replica.metrics),
  });
  const ready = (replica: ReplicaInfo, until: number) =>
    replica.service === 'gateway'
      ? waitFor(replica.name, () => httpOk(`http://127.0.0.1:${replica.main}/readyz`), until, group)
      : waitFor(replica.name, () => checkGrpcHealth(`127.0.0.1:${replica.main}`), until, group);
  const { progress } = options;
  const began = Date.now();
  const startedAt = new Map<string, number>();
  /** Waits for one process, and tells progress the moment it is ready. */
  const reported = async (name: string, wait: Promise<void>) => {
    await wait;
    progress?.ready({ name, seconds: (Date.now() - (startedAt.get(name) ?? began)) / 1000 });
  };
  let balancer: HttpBalancer | undefined;
  progress?.starting(EMULATORS.length + replicaList.length);
  try {
    // Emulators first: the providers service needs Woovi's webhook public key at start.
    for (const code of EMULATORS) {
      startedAt.set(`${code}-emulator`, Date.now());
      const main = path.join(REPO_ROOT, 'dist', 'tools', 'emulators', code, 'main.js');
      if (!existsSync(main)) throw new Error(`${main} is missing: run tools/build/build-all.sh`);
      const prefix = code.toUpperCase();
      group.start(`${code}-emulator`, main, {
        [`${prefix}_EMULATOR_API_PORT`]: String(ports[`${code}Api`]),
        [`${prefix}_EMULATOR_CONTROL_PORT`]: String(ports[`${code}Control`]),
        ...(code === 'efi' ? { EFI_EMULATOR_CERT_DIR: options.certDir } : {}),
        ...(options.emulatorStateDir ? { [`${prefix}_EMULATOR_STATE_FILE`]: path.join(options.emulatorStateDir, `${code}.json`) } : {}),
        LOG_LEVEL: options.logLevel ?? 'info',
      });
    }
    // Each process is awaited on its own, so the first ready is the first reported.
    await Promise.all(
      EMULATORS.map((code) => reported(`${code}-emulator`, waitFor(`${code}-emulator`, () => httpOk(`${controlUrls[code]}/__control/health`), deadline, group))),
    );
    if (EMULATORS.includes('woovi')) {
      const wooviKey = await fetch(`${controlUrls.woovi}/__control/public-key`).then((r) => r.text());
      env['providers'] = { ...env['providers'], PROVIDER_SETTINGS: JSON.stringify({ woovi: { webhook_public_key: wooviKey } }) };
    }
    for (const replica of replicaList) {
      startedAt.set(replica.name, Date.now());
      const started = group.start(replica.name, script(replica.service), replicaEnv(replica));
      options.onProcessStarted?.(replica, started.child.pid);
    }
    await Promise.all(replicaList.filter((r) => r.service !== 'gateway').map((r) => reported(r.name, ready(r, deadline))));
    await Promise.all(replicaList.filter((r) => r.service === 'gateway').map((r) => reported(r.name, ready(r, deadline))));
    if (balanced) {
      const targets = replicaList.filter((r) => r.service === 'gateway').map((r) => r.main);
      balancer = await startHttpBalancer({ port: ports.gateway, targets });
    }
  } catch (error) {
    progress?.finish(false, (Date.now() - began) / 1000);
    await balancer?.close();
    await group.stop(2_000);
    throw error;
  }
  progress?.finish(true, (Date.now() - began) / 1000);

  return {
    ports,
    baseUrl: `http://localhost:${ports.gateway}`,
    efiControlUrl: controlUrls.efi,
    controlUrls,
    processes: group,
    env,
    replicas,
    replicaList,
    ...(balancer ? { balancer } : {}),
    stop: async () => {
      await balancer?.close();
      await group.stop();
    },
    async restart(name) {
      const replica = replicaList.find((r) => r.name === name);
      if (!replica) throw new Error(`no replica named ${name}`);
      const previous = group.processes.find((p) => p.name === name && p.child.exitCode === null && p.child.signalCode === null);
      if (previous) {
        previous.child.kill('SIGTERM');
        await new Promise((resolve) => previous.child.once('exit', resolve));
      }
      // Forget the stopped (or killed) process, or the start-up wait below would see it as a crash.
      for (let i = group.processes.length - 1; i >= 0; i--) {
        const old = group.processes[i];
        if (old && old.name === name && (old.child.exitCode !== null || old.child.signalCode !== null)) group.processes.splice(i, 1);
      }
      const started = group.start(name, script(replica.service), replicaEnv(replica));
      options.onProcessStarted?.(replica, started.child.pid);
      await ready(replica, Date.now() + 30_000);
    },
  };
}
