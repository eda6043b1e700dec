/**
 * An Asaas API v3 emulator (Pix charges, customers, webhooks) over plain HTTP on the API port,
 * plus a control port for sandbox set-up, payments and fault injection.
 *
 * @example
 * const emulator = createAsaasEmulator({ accounts: [{ api_key: '$aact_hmlg_…' }] });
 * const { apiPort, controlPort } = await emulator.start();
 * // … talk to http://127.0.0.1:<apiPort>/v3 with `access_token: $aact_hmlg_…` …
 * await emulator.stop();
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asaasApiApp } from './asaas-api.app';
import type { Merchant } from './br-code';
import { controlApp } from './control.routes';
import { EmulatorState, type AccountRegistration } from './emulator-state';
import { refuseDuringOutage } from './fault-injection';
import { StateFile } from '../../kit';
import { createEmulatorLogger, type Logger } from './logger';
import { RefundSettler } from './refunds';
import { WebhookSender, type WebhookSenderOptions } from './webhook-sender';

export interface AsaasEmulatorOptions {
  /** 0 (default) picks a free port. */
  apiPort?: number;
  controlPort?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Sandbox API keys known from the start. */
  accounts?: AccountRegistration[];
  /** Receiver name and city written into BR Codes. */
  merchant?: Merchant;
  /** Host of the payload locations in BR Codes (Asaas sandbox: `pix-h.asaas.com`). */
  locationHost?: string;
  /**
   * Base of `invoiceUrl`, where the control port serves the invoice pages (default: the control
   * port itself, `http://<host>:<controlPort>`; Asaas's own is `https://sandbox.asaas.com`).
   */
  invoiceBase?: string;
  /** Fee on a received Pix, in cents (default 199: R$ 1,99). */
  pixFeeCents?: number;
  webhooks?: WebhookSenderOptions;
  logger?: Logger;
  /** Clock (tests may move time forward to make charges overdue). */
  now?: () => Date;
  /** How long a refund stays PENDING before it is DONE (default 300 ms). */
  refundSettleMs?: number;
  /** Keep accounts, customers, charges and webhooks in this JSON file across restarts (kit/state-file.ts). */
  stateFile?: string;
}

export interface AsaasEmulator {
  start(): Promise<{ apiPort: number; controlPort: number }>;
  stop(): Promise<void>;
  readonly state: EmulatorState;
  /** Resolves once every background webhook delivery has finished. */
  webhooksIdle(): Promise<void>;
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

export function createAsaasEmulator(options: AsaasEmulatorOptions = {}): AsaasEmulator {
  const logger = options.logger ?? createEmulatorLogger('silent');
  const host = options.host ?? '127.0.0.1';
  const state = new EmulatorState(options.now ?? (() => new Date()));

  const sender = new WebhookSender(state, options.webhooks ?? {}, logger);
  const settler = new RefundSettler(state, sender, logger, options.refundSettleMs ?? 300);
  // Known once the control port listens (unless given): read at answer time, never copied.
  const routes = {
    merchant: options.merchant ?? { name: 'ORQUESTRA SANDBOX', city: 'SAO PAULO' },
    locationHost: options.locationHost ?? 'pix-h.asaas.com',
    invoiceBase: options.invoiceBase ?? '',
    pixFeeCents: options.pixFeeCents ?? 199,
  };
  const api = asaasApiApp(state, sender, routes, logger, settler);
  const apiServer = createServer(api);
  apiServer.on('connection', refuseDuringOutage(state.faults));
  const controlServer = createServer(controlApp(state, sender, () => routes.invoiceBase, logger, settler));
  const stateFile = options.stateFile ? new StateFile(options.stateFile, { state }, logger) : undefined;
  stateFile?.load();
  for (const server of [apiServer, controlServer]) stateFile?.watch(server);
  // After the file: accounts given at start win over the remembered ones.
  for (const account of options.accounts ?? []) state.registerAccount(account);

  return {
    state,
    async start() {
      const apiPort = await listen(apiServer, options.apiPort ?? 0, host);
      const controlPort = await listen(controlServer, options.controlPort ?? 0, host);
      if (!options.invoiceBase) {
        const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? 'localhost' : host;
        routes.invoiceBase = `http://${shown}:${controlPort}`;
      }
      logger.info({ apiPort, controlPort, host }, 'asaas emulator listening');
      return { apiPort, controlPort };
    },
    async stop() {
      settler.close();
      await sender.close();
      await Promise.all([close(apiServer), close(controlServer)]);
      stateFile?.close();
      logger.info('asaas emulator stopped');
    },
    webhooksIdle: () => sender.idle(),
  };
}
