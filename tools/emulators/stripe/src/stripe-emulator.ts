/**
 * A Stripe API emulator (the PaymentIntents/Pix/test-card and webhook-endpoint subset) over plain
 * HTTP on the API port, plus a plain-HTTP control port for sandbox set-up, payments and fault
 * injection. Each secret key is one account; accounts never see each other's objects.
 *
 * @example
 * const emulator = createStripeEmulator({ accounts: ['sk_test_abc'] });
 * const { apiPort, controlPort } = await emulator.start();
 * // … POST http://127.0.0.1:apiPort/v1/payment_intents with `Authorization: Bearer sk_test_abc` …
 * await emulator.stop();
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Merchant } from './br-code';
import { controlApp } from './control.routes';
import { EmulatorState } from './emulator-state';
import { refuseDuringOutage } from './fault-injection';
import { StateFile } from '../../kit';
import { createEmulatorLogger, type Logger } from './logger';
import { PaymentIntentLifecycle, type Fees } from './payment-intent-lifecycle';
import { DisputeBook } from './disputes';
import { RefundBook } from './refunds';
import { stripeApiApp } from './stripe-api.app';
import { WebhookSender, type WebhookSenderOptions } from './webhook-sender';

export interface StripeEmulatorOptions {
  /** 0 (default) picks a free port. */
  apiPort?: number;
  controlPort?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Secret keys (`sk_test_…`) known from the start, as strings or as the catalog's `{secret_key}`. */
  accounts?: Array<string | { secret_key: string }>;
  /** Receiver name and city written into BR Codes. */
  merchant?: Merchant;
  /** Host of the payload URL inside BR Codes. */
  payloadHost?: string;
  /** Base URL of the QR images and instructions page (default: the control port's address). */
  publicBaseUrl?: string;
  fees?: Partial<Fees>;
  webhooks?: WebhookSenderOptions;
  /** How long a Pix refund stays `pending` before it succeeds (default 300 ms). */
  refundSettleMs?: number;
  /** How often due Pix codes are expired in the background (default 1000 ms; 0 = only on reads). */
  expirySweepMs?: number;
  logger?: Logger;
  /** Clock (tests may move time forward). */
  now?: () => Date;
  /** Keep accounts, PaymentIntents, refunds, disputes and endpoints in this JSON file across restarts (kit/state-file.ts). */
  stateFile?: string;
}

export interface StripeEmulator {
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

export function createStripeEmulator(options: StripeEmulatorOptions = {}): StripeEmulator {
  const logger = options.logger ?? createEmulatorLogger('silent');
  const host = options.host ?? '127.0.0.1';
  const state = new EmulatorState(options.now ?? (() => new Date()));

  const sender = new WebhookSender(state, options.webhooks ?? {}, logger);
  let publicBase = options.publicBaseUrl ?? '';
  const lifecycle = new PaymentIntentLifecycle(
    state,
    {
      merchant: options.merchant ?? { name: 'ORQUESTRA SANDBOX', city: 'SAO PAULO' },
      payloadHost: options.payloadHost ?? 'pix.stripe-emulator.local',
      publicBase: () => publicBase,
      fees: { pixBps: 119, cardBps: 399, cardFixed: 39, ...options.fees },
    },
    (accountId, event) => sender.dispatch(accountId, event),
  );

  const refunds = new RefundBook(state, (accountId, event) => sender.dispatch(accountId, event), logger, options.refundSettleMs ?? 300);
  const disputes = new DisputeBook(state, (accountId, event) => sender.dispatch(accountId, event), logger);
  const apiServer = createServer(stripeApiApp(state, lifecycle, refunds, disputes, logger));
  apiServer.on('connection', refuseDuringOutage(state.faults));
  const controlServer = createServer(controlApp(state, lifecycle, refunds, disputes, logger));
  const stateFile = options.stateFile ? new StateFile(options.stateFile, { state, disputes }, logger) : undefined;
  stateFile?.load();
  for (const server of [apiServer, controlServer]) stateFile?.watch(server);
  // After the file: accounts given at start win over the remembered ones.
  for (const account of options.accounts ?? []) state.registerAccount(typeof account === 'string' ? account : account.secret_key);
  let sweep: NodeJS.Timeout | undefined;

  return {
    state,
    async start() {
      const apiPort = await listen(apiServer, options.apiPort ?? 0, host);
      const controlPort = await listen(controlServer, options.controlPort ?? 0, host);
      if (!options.publicBaseUrl) {
        const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? 'localhost' : host;
        publicBase = `http://${shown}:${controlPort}`;
      }
      const every = options.expirySweepMs ?? 1_000;
      if (every > 0) {
        sweep = setInterval(() => lifecycle.expireDue(), every);
        sweep.unref();
      }
      logger.info({ apiPort, controlPort, host }, 'stripe emulator listening');
      return { apiPort, controlPort };
    },
    async stop() {
      if (sweep) clearInterval(sweep);
      refunds.close();
      await sender.close();
      await Promise.all([close(apiServer), close(controlServer)]);
      stateFile?.close();
      logger.info('stripe emulator stopped');
    },
    webhooksIdle: () => sender.idle(),
  };
}
