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
import { createServer } from 'node:http';
import { createEmulatorLogger, hostEmulator, type EmulatorLifecycle, type EmulatorOptions } from '../../kit';
import { API_PREFIX, pagarmeApiApp } from './api.app';
import { controlApp } from './control.routes';
import { EmulatorState, type AccountRegistration } from './emulator-state';
import { publishTransition } from './webhook-events';
import { WebhookSender } from './webhook-sender';
import { createOrder } from './orders.routes';

export interface PagarmeEmulatorOptions extends EmulatorOptions {
  /** Sandbox credentials known from the start. */
  accounts?: AccountRegistration[];
  /** City written into BR Codes. */
  merchantCity?: string;
  /** Host and path of payload locations in BR Codes (Pagar.me: `pix.stone.com.br/pix/v2`). */
  locationBase?: string;
  /** Base URL that `qr_code_url` uses (default: the API port as listened on). */
  publicBaseUrl?: string;
  /** Fee of a withdrawal, in cents (default 0). */
  withdrawalFeeCents?: number;
  /** How often pending charges past `expires_at` are failed (and their webhooks sent); 0 disables. */
  expirySweepMs?: number;
}

export interface PagarmeEmulator extends EmulatorLifecycle {
  readonly state: EmulatorState;
}

export function createPagarmeEmulator(options: PagarmeEmulatorOptions = {}): PagarmeEmulator {
  const logger = options.logger ?? createEmulatorLogger('pagarme-emulator', 'silent');
  const state = new EmulatorState(options.now ?? (() => new Date()));

  let publicBase = options.publicBaseUrl?.replace(/\/+$/, '') ?? '';
  const qrCodeUrl = (transactionId: string) => `${publicBase}${API_PREFIX}/transactions/${transactionId}/qrcode?payment_method=pix`;
  const sender = new WebhookSender(state, state.deliveries, options.webhooks ?? {}, logger);
  state.onExpired = (order) => {
    publishTransition(sender, order, 'expired', qrCodeUrl);
  };

  const withdrawals = { feeCents: options.withdrawalFeeCents ?? 0 };
  const orderOptions = {
    merchantCity: options.merchantCity ?? 'SAO PAULO',
    locationBase: options.locationBase ?? 'pix.pagarme-emulator.local/pix/v2',
    qrCodeUrl,
    boletoUrl: (transactionId: string) => `${publicBase}/boletos/${transactionId}`,
  };
  const api = pagarmeApiApp(state, sender, orderOptions, logger, withdrawals);
  // A dashboard sale is an order made as the API makes one, for the account named.
  const dashboardOrder = (accountId: string, body: unknown) => createOrder(state, accountId, body, orderOptions);
  const { lifecycle } = hostEmulator('pagarme', options, {
    api: createServer(api),
    control: createServer(controlApp(state, sender, qrCodeUrl, logger, dashboardOrder)),
    faults: state.faults,
    stores: { state },
    webhooks: sender,
    logger,
    sweep: { everyMs: options.expirySweepMs ?? 1_000, run: () => state.sweepExpired() },
    onListening: ({ apiPort }, urlOf) => {
      if (!options.publicBaseUrl) publicBase = urlOf(apiPort);
    },
    onStop: () => state.withdrawals.close(),
  });
  // After the file: accounts given at start win over the remembered ones.
  for (const account of options.accounts ?? []) state.registerAccount(account);
  return { state, ...lifecycle };
}
