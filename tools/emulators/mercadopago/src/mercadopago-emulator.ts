/**
 * A Mercado Pago emulator: the Payments API subset a Pix integration uses (`/v1/payments`,
 * `/users/me`) over plain HTTP on the API port, signed webhooks to each payment's
 * `notification_url`, and a control port for sandbox set-up, payments and fault injection.
 *
 * @example
 * const emulator = createMercadoPagoEmulator({ accounts: [{ access_token: 'TEST-1-2-3-123456', webhook_secret: 's' }] });
 * const { apiPort, controlPort } = await emulator.start();
 * // … talk to http://127.0.0.1:apiPort with `Authorization: Bearer TEST-1-2-3-123456` …
 * await emulator.stop();
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiApp } from './api.app';
import type { Merchant } from './br-code';
import { controlApp } from './control.routes';
import { EmulatorState, type AccountRegistration } from './emulator-state';
import { refuseDuringOutage } from './fault-injection';
import { StateFile } from '../../kit';
import { createEmulatorLogger, type Logger } from './logger';
import { RefundSettler } from './refunds';
import { WebhookSender, type WebhookSenderOptions } from './webhook-sender';

export interface MercadoPagoEmulatorOptions {
  /** 0 (default) picks a free port. */
  apiPort?: number;
  controlPort?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Sandbox credentials known from the start. */
  accounts?: AccountRegistration[];
  /** Receiver name and city written into BR Codes. */
  merchant?: Merchant;
  webhooks?: WebhookSenderOptions;
  logger?: Logger;
  /** How long a Pix refund stays `in_process` before it is approved (default 300 ms). */
  refundSettleMs?: number;
  /** Clock (tests may move time forward to expire payments). */
  now?: () => Date;
  /** Keep accounts and payments in this JSON file across restarts (kit/state-file.ts). */
  stateFile?: string;
}

export interface MercadoPagoEmulator {
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

export function createMercadoPagoEmulator(options: MercadoPagoEmulatorOptions = {}): MercadoPagoEmulator {
  const logger = options.logger ?? createEmulatorLogger('silent');
  const host = options.host ?? '127.0.0.1';
  const state = new EmulatorState(options.now ?? (() => new Date()));

  const sender = new WebhookSender(state, options.webhooks ?? {}, logger);
  const settler = new RefundSettler(state, sender, logger, options.refundSettleMs ?? 300);
  let controlBase = '';
  const apiServer = createServer(
    apiApp(state, sender, { merchant: options.merchant ?? { name: 'ORQUESTRA SANDBOX', city: 'SAO PAULO' }, ticketBase: () => controlBase }, logger, settler),
  );
  apiServer.on('connection', refuseDuringOutage(state.faults));
  const controlServer = createServer(controlApp(state, sender, logger, settler));
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
      controlBase = `http://${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? 'localhost' : host}:${controlPort}`;
      logger.info({ apiPort, controlPort, host }, 'mercadopago emulator listening');
      return { apiPort, controlPort };
    },
    async stop() {
      settler.close();
      await sender.close();
      await Promise.all([close(apiServer), close(controlServer)]);
      stateFile?.close();
      logger.info('mercadopago emulator stopped');
    },
    webhooksIdle: () => sender.idle(),
  };
}
