import { existsSync } from 'node:fs';
import path from 'node:path';
import { checkGrpcHealth } from '@orquestra/platform';
import { ProcessGroup } from './process-group';
import { withShared } from './launcher-env';
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
}

export interface RunningStack {
  ports: StackPorts;
  baseUrl: string;
  efiControlUrl: string;
  /** Control base URL of every emulator, by provider code. */
  controlUrls: Record<EmulatorCode, string>;
  processes: ProcessGroup;
  env: Record<string, Record<string, string>>;
  stop(): Promise<void>;
  /** Restarts one service process (e.g. after `kill -9` in a resilience test). */
  restart(name: (typeof SERVICES)[number]): Promise<void>;
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
  const group = new ProcessGroup(path.join(options.stateDir, 'logs'));
  const env = serviceEnvironment({
    ports,
    mongoUrl: options.mongoUrl,
    amqpUrl: options.amqpUrl,
    dbPrefix: options.dbPrefix,
    encryptionKeys: localEncryptionKeys(options.stateDir),
    certDir: options.certDir,
    logLevel: options.logLevel ?? 'info',
    ...(options.overrides ? { overrides: options.overrides } : {}),
  });
  Object.assign(env, withShared(env, SERVICES, options.shared ?? {}));
  const script = (name: string) => path.join(REPO_ROOT, 'dist', 'services', name, 'main.js');
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  const controlUrls = Object.fromEntries(EMULATORS.map((code) => [code, `http://127.0.0.1:${ports[`${code}Control`]}`])) as Record<EmulatorCode, string>;
  try {
    // Emulators first: the providers service needs Woovi's webhook public key at start.
    for (const code of EMULATORS) {
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
    for (const code of EMULATORS) {
      await waitFor(`${code}-emulator`, () => httpOk(`${controlUrls[code]}/__control/health`), deadline, group);
    }
    if (EMULATORS.includes('woovi')) {
      const wooviKey = await fetch(`${controlUrls.woovi}/__control/public-key`).then((r) => r.text());
      env['providers'] = { ...env['providers'], PROVIDER_SETTINGS: JSON.stringify({ woovi: { webhook_public_key: wooviKey } }) };
    }
    for (const name of SERVICES) group.start(name, script(name), env[name] ?? {});
    for (const name of SERVICES) {
      if (name === 'gateway') continue;
      const port = ports[name];
      await waitFor(name, () => checkGrpcHealth(`127.0.0.1:${port}`), deadline, group);
    }
    await waitFor('gateway', () => httpOk(`http://127.0.0.1:${ports.gateway}/readyz`), deadline, group);
  } catch (error) {
    await group.stop(2_000);
    throw error;
  }

  return {
    ports,
    baseUrl: `http://localhost:${ports.gateway}`,
    efiControlUrl: controlUrls.efi,
    controlUrls,
    processes: group,
    env,
    stop: () => group.stop(),
    async restart(name) {
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
      group.start(name, script(name), env[name] ?? {});
      const restartDeadline = Date.now() + 30_000;
      if (name === 'gateway') await waitFor(name, () => httpOk(`http://127.0.0.1:${ports.gateway}/readyz`), restartDeadline, group);
      else await waitFor(name, () => checkGrpcHealth(`127.0.0.1:${ports[name]}`), restartDeadline, group);
    },
  };
}
