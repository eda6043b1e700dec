/**
 * A Woovi (OpenPix) API emulator: the charge and webhook subset of `https://api.woovi.com` over
 * plain HTTP on the API port, RSA-signed webhooks, plus a plain-HTTP control port for sandbox
 * set-up, payments and fault injection.
 *
 * @example
 * const emulator = createWooviEmulator({ accounts: ['my-app-id'] });
 * const { apiPort, controlPort } = await emulator.start();
 * // … POST http://127.0.0.1:apiPort/api/v1/charge with `Authorization: my-app-id` …
 * await emulator.stop();
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Merchant } from './br-code';
import { ExpiryScheduler } from './charge-expiry';
import type { Company } from './charge-json';
import { controlApp } from './control.routes';
import { DisputeBook } from './disputes';
import { EmulatorState } from './emulator-state';
import { refuseDuringOutage } from './fault-injection';
import { StateFile } from '../../kit';
import { createEmulatorLogger, type Logger } from './logger';
import { SigningKeys } from './signing-keys';
import { WebhookSender, type WebhookSenderOptions } from './webhook-sender';
import { wooviApiApp } from './woovi-api.routes';
import { chargeJson } from './charge-json';
import { RefundSettler } from './refunds';

export interface WooviEmulatorOptions {
  /** 0 (default) picks a free port. */
  apiPort?: number;
  controlPort?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** AppIDs valid from the start. */
  accounts?: string[];
  /** PEM of the webhook signing key; without it a fresh RSA-2048 pair is made at start-up. */
  signingPrivateKeyPem?: string;
  /** Receiver name and city written into BR Codes. */
  merchant?: Merchant;
  /** The `company` object of webhook bodies. */
  company?: Company;
  /** Host part of payload location URLs in BR Codes. */
  locationHost?: string;
  /** Fee reported on charges, in basis points (assumption, default 80 = 0.8%). */
  feeBasisPoints?: number;
  webhooks?: WebhookSenderOptions;
  logger?: Logger;
  /** Clock (tests may move time forward to expire charges). */
  now?: () => Date;
  /** How long a refund stays IN_PROCESSING before it is CONFIRMED (default 300 ms). */
  refundSettleMs?: number;
  /** Keep accounts, charges, webhooks and disputes in this JSON file across restarts (kit/state-file.ts). */
  stateFile?: string;
}

export interface WooviEmulator {
  start(): Promise<{ apiPort: number; controlPort: number }>;
  stop(): Promise<void>;
  readonly state: EmulatorState;
  /** The PEM public key that verifies `x-webhook-signature`. */
  readonly publicKeyPem: string;
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

export function createWooviEmulator(options: WooviEmulatorOptions = {}): WooviEmulator {
  const logger = options.logger ?? createEmulatorLogger('silent');
  const host = options.host ?? '127.0.0.1';
  const state = new EmulatorState(options.now ?? (() => new Date()));
  const keys = new SigningKeys(options.signingPrivateKeyPem);
  const company = options.company ?? { id: '64cab82a485da23384a4e3af', name: 'Orquestra Sandbox LTDA', taxID: '11222333000181' };
  const sender = new WebhookSender(state, keys, company, options.webhooks ?? {}, logger);
  const expiry = new ExpiryScheduler(state);
  const refunds = new RefundSettler(state, sender, logger, options.refundSettleMs ?? 300, (charge) => chargeJson(state, charge));
  state.onExpired = (charge) => {
    sender.notify('OPENPIX:CHARGE_EXPIRED', charge);
  };

  const api = wooviApiApp({
    state,
    sender,
    expiry,
    keys,
    charges: {
      merchant: options.merchant ?? { name: 'ORQUESTRA SANDBOX', city: 'SAO PAULO' },
      locationHost: options.locationHost ?? 'api.woovi-emulator.local',
      feeBasisPoints: options.feeBasisPoints ?? 80,
    },
    logger,
    refunds,
  });
  const apiServer = createServer(api);
  apiServer.on('connection', refuseDuringOutage(state.faults));
  const disputes = new DisputeBook();
  const controlServer = createServer(controlApp({ state, sender, expiry, keys, logger, refunds, disputes }));
  const stateFile = options.stateFile ? new StateFile(options.stateFile, { state, disputes }, logger) : undefined;
  stateFile?.load();
  for (const server of [apiServer, controlServer]) stateFile?.watch(server);
  // After the file: accounts given at start win over the remembered ones.
  for (const appId of options.accounts ?? []) state.registerAccount(appId);

  return {
    state,
    publicKeyPem: keys.publicKeyPem,
    async start() {
      const apiPort = await listen(apiServer, options.apiPort ?? 0, host);
      const controlPort = await listen(controlServer, options.controlPort ?? 0, host);
      logger.info({ apiPort, controlPort, host }, 'woovi emulator listening');
      return { apiPort, controlPort };
    },
    async stop() {
      expiry.clear();
      refunds.close();
      await sender.close();
      await Promise.all([close(apiServer), close(controlServer)]);
      stateFile?.close();
      logger.info('woovi emulator stopped');
    },
    webhooksIdle: () => sender.idle(),
  };
}
