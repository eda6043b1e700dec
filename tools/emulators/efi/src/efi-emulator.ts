/**
 * An Efí Pix API emulator: the Banco Central API Pix as Efí serves it (immediate charges,
 * devoluções, MED, Pix Automático, balance and Pix sent), over HTTPS with mandatory client certificates (mTLS) on the
 * API port, plus a plain-HTTP control port for sandbox set-up, payments, the payer's bank of Pix
 * Automático, the clock and fault injection.
 *
 * @example
 * const emulator = createEfiEmulator({ tls: { cert, key, ca }, clients: [{ client_id, client_secret, chave }] });
 * const { apiPort, controlPort } = await emulator.start();
 * // … talk to https://localhost:apiPort with a client certificate signed by `ca` …
 * await emulator.stop();
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createEmulatorLogger, hostEmulator, PayoutBook, SANDBOX_MERCHANT, type EmulatorLifecycle, type EmulatorOptions, type Merchant } from '../../kit';
import { CobrancaBook, cobrancaRoutes } from './cobrancas';
import { controlApp } from './control.routes';
import { EmulatorState, type ClientRegistration } from './emulator-state';
import { notifyEnvio, type Envio } from './envio.routes';
import { InfracaoBook } from './infracoes';
import { pixApiApp } from './pix-api.routes';
import { RecurrenceBook } from './recorrencias';
import { notifyChanges } from './recorrencias.routes';
import { RefundSettler } from './refund-settler';
import { WebhookSender, type WebhookSenderOptions } from './webhook-sender';

export interface EfiEmulatorOptions extends EmulatorOptions {
  /** Server certificate and key of the API port, and the CA its clients' certificates must chain to. */
  tls: { cert: string | Buffer; key: string | Buffer; ca: string | Buffer };
  /** Sandbox credentials known from the start. */
  clients?: ClientRegistration[];
  /** Lifetime of access tokens (Efí: 3600 s). */
  tokenTtlSeconds?: number;
  /** Receiver name and city written into BR Codes. */
  merchant?: Merchant;
  /** Host part of payload location URLs. */
  locationHost?: string;
  webhooks?: WebhookSenderOptions;
  /** How long a devolução stays EM_PROCESSAMENTO before it settles (default 300 ms). */
  refundSettleMs?: number;
  /** How often due Pix Automático expiries are looked for besides after each clock move (default 1 s; 0: never). */
  sweepMs?: number;
  /** Client ids of Pix-only apps: refused by the API Cobranças (cobrancas.ts). */
  withoutCobrancas?: string[];
}

export interface EfiEmulator extends EmulatorLifecycle {
  readonly state: EmulatorState;
}

export function createEfiEmulator(options: EfiEmulatorOptions): EfiEmulator {
  const logger = options.logger ?? createEmulatorLogger('efi-emulator', 'silent');
  const state = new EmulatorState(options.now ?? (() => new Date()), options.tokenTtlSeconds ?? 3600, {
    outcome: 'DEVOLVIDO',
    settleAfterMs: options.refundSettleMs ?? 300,
  });

  const sender = new WebhookSender(state, options.tls, options.webhooks ?? {}, logger);
  // The accounts' balances and Pix sent (envio.routes.ts); a settled send notifies the key's webhook.
  const envios: PayoutBook<Envio> = new PayoutBook<Envio>(state.now, (transfer) => notifyEnvio(state, sender, transfer));
  const settler = new RefundSettler(state, sender, logger, envios);
  let controlBase = '';
  const infracoes = new InfracaoBook();
  const recurrences = new RecurrenceBook(state.now);
  // Boletos of the API Cobranças (cobrancas.ts), served on the same port.
  const cobrancas = new CobrancaBook(state.now);
  const locationHost = options.locationHost ?? 'qrcodes-pix.efi-emulator.local';
  const merchant = options.merchant ?? SANDBOX_MERCHANT;
  // Time passing expires approval requests, journey-3 recurrences and charges past their retry window.
  const tick = () => {
    const cobActive = (clientId: string, txid: string) => state.listCharges(clientId).some((c) => c.txid === txid && c.status === 'ATIVA');
    notifyChanges(recurrences, sender, recurrences.expireDue(cobActive));
  };
  const api = pixApiApp(
    state,
    sender,
    settler,
    { merchant, locationHost, visualizationBase: () => controlBase },
    logger,
    infracoes,
    { book: recurrences, options: { merchant, locationHost } },
    envios,
    cobrancaRoutes(state, cobrancas, sender, { boletoBase: () => controlBase, ...(options.withoutCobrancas ? { withoutCobrancas: options.withoutCobrancas } : {}) }, logger),
  );

  const apiServer = createHttpsServer(
    { cert: options.tls.cert, key: options.tls.key, ca: options.tls.ca, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.2' },
    api,
  );
  apiServer.on('tlsClientError', (err) => logger.debug({ code: (err as { code?: string }).code }, 'TLS client refused'));
  const { lifecycle, restored } = hostEmulator('efi', options, {
    api: apiServer,
    control: createHttpServer(controlApp(state, sender, settler, logger, infracoes, { book: recurrences, tick }, envios, cobrancas, { merchant, locationHost })),
    faults: state.faults,
    stores: { state, infracoes, recurrences, envios, cobrancas },
    webhooks: sender,
    logger,
    sweep: { everyMs: options.sweepMs ?? 1_000, run: tick },
    onListening: ({ controlPort }, urlOf) => {
      controlBase = urlOf(controlPort);
    },
    onStop: () => {
      settler.close();
      envios.close();
    },
  });
  if (restored) {
    for (const { charge, pix, devolucao } of state.processingDevolucoes()) settler.schedule(charge, pix, devolucao);
  }
  // After the file: clients given at start win over the remembered ones.
  for (const client of options.clients ?? []) state.registerClient(client);
  return { state, ...lifecycle };
}
