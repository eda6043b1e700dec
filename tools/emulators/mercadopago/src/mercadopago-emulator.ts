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
import { createServer } from 'node:http';
import { createEmulatorLogger, hostEmulator, SANDBOX_MERCHANT, type EmulatorLifecycle, type EmulatorOptions, type Merchant } from '../../kit';
import { apiApp } from './api.app';
import { controlApp } from './control.routes';
import { EmulatorState, type AccountRegistration } from './emulator-state';
import { RefundSettler } from './refunds';
import { WebhookSender } from './webhook-sender';

export interface MercadoPagoEmulatorOptions extends EmulatorOptions {
  /** Sandbox credentials known from the start. */
  accounts?: AccountRegistration[];
  /** Receiver name and city written into BR Codes. */
  merchant?: Merchant;
  /** How long a Pix refund stays `in_process` before it is approved (default 300 ms). */
  refundSettleMs?: number;
}

export interface MercadoPagoEmulator extends EmulatorLifecycle {
  readonly state: EmulatorState;
}

export function createMercadoPagoEmulator(options: MercadoPagoEmulatorOptions = {}): MercadoPagoEmulator {
  const logger = options.logger ?? createEmulatorLogger('mercadopago-emulator', 'silent');
  const state = new EmulatorState(options.now ?? (() => new Date()));

  const sender = new WebhookSender(state, state.deliveries, options.webhooks ?? {}, logger);
  const settler = new RefundSettler(state, sender, logger, options.refundSettleMs ?? 300);
  let controlBase = '';
  const paymentOptions = { merchant: options.merchant ?? SANDBOX_MERCHANT, ticketBase: () => controlBase };
  const { lifecycle } = hostEmulator('mercadopago', options, {
    api: createServer(apiApp(state, sender, paymentOptions, logger, settler)),
    control: createServer(controlApp(state, sender, logger, settler, paymentOptions)),
    faults: state.faults,
    stores: { state },
    webhooks: sender,
    logger,
    onListening: ({ controlPort }, urlOf) => {
      controlBase = urlOf(controlPort);
    },
    onStop: () => settler.close(),
  });
  // After the file: accounts given at start win over the remembered ones.
  for (const account of options.accounts ?? []) state.registerAccount(account);
  return { state, ...lifecycle };
}
