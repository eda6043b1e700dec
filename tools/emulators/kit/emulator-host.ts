/**
 * What every emulator does around its provider's API: an API server and a control server on one
 * host, connections dropped during a global outage, the state file loaded before anything else
 * and written after every answered request, an optional background sweep, and an orderly stop
 * (the emulator's own timers, then webhook deliveries, then the servers, then the last write).
 *
 * @example
 * const { lifecycle, restored } = hostEmulator('asaas', options, {
 *   api: createServer(apiApp), control: createServer(controlApp),
 *   faults: state.faults, stores: { state }, webhooks: sender, logger,
 *   onListening: (ports, urlOf) => { invoiceBase = urlOf(ports.controlPort); },
 *   onStop: () => settler.close(),
 * });
 * return { state, ...lifecycle };
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FaultRegistry } from './fault-registry';
import { refuseDuringOutage } from './fault-injection';
import type { Logger } from './logger';
import { StateFile, type PersistentStore } from './state-file';
import type { WebhookRetryOptions } from './webhook-outbox';

/** What every emulator's factory takes; each adds its provider's own options. */
export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  apiPort?: number;
  controlPort?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  webhooks?: WebhookRetryOptions;
  logger?: Logger;
  /** Clock (tests may move time forward to expire charges). */
  now?: () => Date;
  /** Keep the emulator's accounts, charges and webhook set-up in this JSON file across restarts (kit/state-file.ts). */
  stateFile?: string;
}

export interface EmulatorPorts {
  apiPort: number;
  controlPort: number;
}

/** What an emulator hands to its starter (the process entry point, a test). */
export interface EmulatorLifecycle {
  start(): Promise<EmulatorPorts>;
  stop(): Promise<void>;
  /** Resolves once every background webhook delivery has finished. */
  webhooksIdle(): Promise<void>;
}

/** The parts of an emulator the host wires together. */
export interface EmulatorParts {
  api: Server;
  control: Server;
  /** The API port's faults: a global outage in reset mode drops connections before any byte. */
  faults: FaultRegistry;
  /** What the state file keeps, by name. */
  stores: Record<string, PersistentStore>;
  webhooks: { idle(): Promise<void>; close(): Promise<void> };
  logger: Logger;
  /** Work repeated in the background while listening (expiring due charges); `everyMs` 0 turns it off. */
  sweep?: { everyMs: number; run: () => void };
  /** Once both ports listen: `urlOf(port)` is how a client on this machine reaches one of them. */
  onListening?: (ports: EmulatorPorts, urlOf: (port: number) => string) => void;
  /** First thing on stop: the emulator's own timers (refund settlers, expiry schedulers). */
  onStop?: () => void;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    // Hung requests (fault "hang") and keep-alive sockets would hold close() open.
    server.closeAllConnections();
  });
}

/** `http://<host>:<port>` as a client reaches it: the wildcard address means this machine. */
export function localUrl(host: string, port: number): string {
  const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? 'localhost' : host;
  return `http://${shown}:${port}`;
}

/**
 * Wires the servers and the state file. The file is loaded here, before this returns, so that the
 * emulator can register the accounts it was started with afterwards (those given at start win
 * over remembered ones) and resume work the file says was under way (`restored`).
 */
export function hostEmulator(name: string, options: EmulatorOptions, spec: EmulatorParts): { lifecycle: EmulatorLifecycle; restored: boolean } {
  const { api, control, logger } = spec;
  const host = options.host ?? '127.0.0.1';
  api.on('connection', refuseDuringOutage(spec.faults));
  const stateFile = options.stateFile ? new StateFile(options.stateFile, spec.stores, logger) : undefined;
  const restored = stateFile?.load() ?? false;
  for (const server of [api, control]) stateFile?.watch(server);
  let sweep: NodeJS.Timeout | undefined;

  const lifecycle: EmulatorLifecycle = {
    async start() {
      const apiPort = await listen(api, options.apiPort ?? 0, host);
      const controlPort = await listen(control, options.controlPort ?? 0, host);
      spec.onListening?.({ apiPort, controlPort }, (port) => localUrl(host, port));
      if (spec.sweep && spec.sweep.everyMs > 0) {
        sweep = setInterval(spec.sweep.run, spec.sweep.everyMs);
        sweep.unref();
      }
      logger.info({ apiPort, controlPort, host }, `${name} emulator listening`);
      return { apiPort, controlPort };
    },
    async stop() {
      if (sweep) clearInterval(sweep);
      spec.onStop?.();
      await spec.webhooks.close();
      await Promise.all([close(api), close(control)]);
      stateFile?.close();
      logger.info(`${name} emulator stopped`);
    },
    webhooksIdle: () => spec.webhooks.idle(),
  };
  return { lifecycle, restored };
}
