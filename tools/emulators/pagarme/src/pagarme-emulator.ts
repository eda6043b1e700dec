/**
 * A Pagar.me API v5 emulator: the Pix subset of `https://api.pagar.me/core/v5` (orders, charges,
 * their QR codes) over plain HTTP on the API port, with HTTP Basic secret-key auth, plus a
 * plain-HTTP control port for sandbox set-up, payments, the dashboard-only webhook URL and faults.
 *
 * @example
 * const emulator = createPagarmeEmulator({ accounts: [{ secret_key: 'sk_test_abc123' }] });
 * const { apiPort, controlPort } = await emulator.start();
 * // … talk to http://127.0.0.1:<apiPort>/core/v5 with Basic base64("sk_test_abc123:") …
 * await emulator.stop();
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_PREFIX, pagarmeApiApp } from './api.app';
import { controlApp } from './control.routes';
import { EmulatorState, type AccountRegistration } from './emulator-state';
import { refuseDuringOutage } from './fault-injection';
import { StateFile } from '../../kit';
import { createEmulatorLogger, type Logger } from './logger';
import { publishTransition } from './webhook-events';
import { WebhookSender, type WebhookSenderOptions } from './webhook-sender';

export interface PagarmeEmulatorOptions {
  /** 0 (default) picks a free port. */
  apiPort?: number;
  controlPort?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Sandbox credentials known from the start. */
  accounts?: AccountRegistration[];
  /** City written into BR Codes. */
  merchantCity?: string;
  /** Host and path of payload locations in BR Codes (Pagar.me: `pix.stone.com.br/pix/v2`). */
  locationBase?: string;
  /** Base URL that `qr_code_url` uses (default: the API port as listened on). */
  publicBaseUrl?: string;
  /** How often pending charges past `expires_at` are failed (and their webhooks sent); 0 disables. */
  expirySweepMs?: number;
  webhooks?: WebhookSenderOptions;
  logger?: Logger;
  /** Clock (tests may move time forward to expire charges). */
  now?: () => Date;
  /** Keep accounts, orders and webhook URLs in this JSON file across restarts (kit/state-file.ts). */
  stateFile?: string;
}

export interface PagarmeEmulator {
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

export function createPagarmeEmulator(options: PagarmeEmulatorOptions = {}): PagarmeEmulator {
  const logger = options.logger ?? createEmulatorLogger('silent');
  const host = options.host ?? '127.0.0.1';
  const state = new EmulatorState(options.now ?? (() => new Date()));

  let publicBase = options.publicBaseUrl?.replace(/\/+$/, '') ?? '';
  const qrCodeUrl = (transactionId: string) => `${publicBase}${API_PREFIX}/transactions/${transactionId}/qrcode?payment_method=pix`;
  const sender = new WebhookSender(state, options.webhooks ?? {}, logger);
  state.onExpired = (order) => {
    publishTransition(sender, order, 'expired', qrCodeUrl);
  };

  const api = pagarmeApiApp(
    state,
    sender,
    {
      merchantCity: options.merchantCity ?? 'SAO PAULO',
      locationBase: options.locationBase ?? 'pix.pagarme-emulator.local/pix/v2',
      qrCodeUrl,
      boletoUrl: (transactionId: string) => `${publicBase}/boletos/${transactionId}`,
    },
    logger,
  );
  const apiServer = createServer(api);
  apiServer.on('connection', refuseDuringOutage(state.faults));
  const controlServer = createServer(controlApp(state, sender, qrCodeUrl, logger));
  const stateFile = options.stateFile ? new StateFile(options.stateFile, { state }, logger) : undefined;
  stateFile?.load();
  for (const server of [apiServer, controlServer]) stateFile?.watch(server);
  // After the file: accounts given at start win over the remembered ones.
  for (const account of options.accounts ?? []) state.registerAccount(account);
  let sweep: NodeJS.Timeout | undefined;

  return {
    state,
    async start() {
      const apiPort = await listen(apiServer, options.apiPort ?? 0, host);
      const controlPort = await listen(controlServer, options.controlPort ?? 0, host);
      if (!options.publicBaseUrl) {
        const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? 'localhost' : host;
        publicBase = `http://${shown}:${apiPort}`;
      }
      const every = options.expirySweepMs ?? 1_000;
      if (every > 0) {
        sweep = setInterval(() => state.sweepExpired(), every);
        sweep.unref();
      }
      logger.info({ apiPort, controlPort, host }, 'pagarme emulator listening');
      return { apiPort, controlPort };
    },
    async stop() {
      if (sweep) clearInterval(sweep);
      await sender.close();
      await Promise.all([close(apiServer), close(controlServer)]);
      stateFile?.close();
      logger.info('pagarme emulator stopped');
    },
    webhooksIdle: () => sender.idle(),
  };
}
