/**
 * An Efí Pix API emulator: the Banco Central API Pix as Efí serves it, over HTTPS with mandatory
 * client certificates (mTLS) on the API port, plus a plain-HTTP control port for sandbox set-up,
 * payments and fault injection.
 *
 * @example
 * const emulator = createEfiEmulator({ tls: { cert, key, ca }, clients: [{ client_id, client_secret, chave }] });
 * const { apiPort, controlPort } = await emulator.start();
 * // … talk to https://localhost:apiPort with a client certificate signed by `ca` …
 * await emulator.stop();
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Merchant } from './br-code';
import { controlApp } from './control.routes';
import { EmulatorState, type ClientRegistration } from './emulator-state';
import { refuseDuringOutage } from './fault-injection';
import { StateFile } from '../../kit';
import { createEmulatorLogger, type Logger } from './logger';
import { InfracaoBook } from './infracoes';
import { pixApiApp } from './pix-api.routes';
import { RefundSettler } from './refund-settler';
import { WebhookSender, type WebhookSenderOptions } from './webhook-sender';

export interface EfiEmulatorOptions {
  /** Server certificate and key of the API port, and the CA its clients' certificates must chain to. */
  tls: { cert: string | Buffer; key: string | Buffer; ca: string | Buffer };
  /** 0 (default) picks a free port. */
  apiPort?: number;
  controlPort?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Sandbox credentials known from the start. */
  clients?: ClientRegistration[];
  /** Lifetime of access tokens (Efí: 3600 s). */
  tokenTtlSeconds?: number;
  /** Receiver name and city written into BR Codes. */
  merchant?: Merchant;
  /** Host part of payload location URLs. */
  locationHost?: string;
  webhooks?: WebhookSenderOptions;
  logger?: Logger;
  /** Clock (tests may move time forward to expire charges). */
  now?: () => Date;
  /** How long a devolução stays EM_PROCESSAMENTO before it settles (default 300 ms). */
  refundSettleMs?: number;
  /** Keep clients, charges, webhooks and infrações in this JSON file across restarts (kit/state-file.ts). */
  stateFile?: string;
}

export interface EfiEmulator {
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

export function createEfiEmulator(options: EfiEmulatorOptions): EfiEmulator {
  const logger = options.logger ?? createEmulatorLogger('silent');
  const host = options.host ?? '127.0.0.1';
  const state = new EmulatorState(options.now ?? (() => new Date()), options.tokenTtlSeconds ?? 3600, {
    outcome: 'DEVOLVIDO',
    settleAfterMs: options.refundSettleMs ?? 300,
  });

  const sender = new WebhookSender(state, options.tls, options.webhooks ?? {}, logger);
  const settler = new RefundSettler(state, sender, logger);
  let controlBase = '';
  const infracoes = new InfracaoBook();
  const api = pixApiApp(
    state,
    sender,
    settler,
    {
      merchant: options.merchant ?? { name: 'ORQUESTRA SANDBOX', city: 'SAO PAULO' },
      locationHost: options.locationHost ?? 'qrcodes-pix.efi-emulator.local',
      visualizationBase: () => controlBase,
    },
    logger,
    infracoes,
  );

  const apiServer = createHttpsServer(
    { cert: options.tls.cert, key: options.tls.key, ca: options.tls.ca, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.2' },
    api,
  );
  apiServer.on('connection', refuseDuringOutage(state.faults));
  apiServer.on('tlsClientError', (err) => logger.debug({ code: (err as { code?: string }).code }, 'TLS client refused'));
  const controlServer = createHttpServer(controlApp(state, sender, settler, logger, infracoes));
  const stateFile = options.stateFile ? new StateFile(options.stateFile, { state, infracoes }, logger) : undefined;
  if (stateFile?.load()) {
    for (const { charge, pix, devolucao } of state.processingDevolucoes()) settler.schedule(charge, pix, devolucao);
  }
  for (const server of [apiServer, controlServer]) stateFile?.watch(server);
  // After the file: clients given at start win over the remembered ones.
  for (const client of options.clients ?? []) state.registerClient(client);

  return {
    state,
    async start() {
      const apiPort = await listen(apiServer, options.apiPort ?? 0, host);
      const controlPort = await listen(controlServer, options.controlPort ?? 0, host);
      controlBase = `http://${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? 'localhost' : host}:${controlPort}`;
      logger.info({ apiPort, controlPort, host }, 'efi emulator listening');
      return { apiPort, controlPort };
    },
    async stop() {
      settler.close();
      await sender.close();
      await Promise.all([close(apiServer), close(controlServer)]);
      stateFile?.close();
      logger.info('efi emulator stopped');
    },
    webhooksIdle: () => sender.idle(),
  };
}
