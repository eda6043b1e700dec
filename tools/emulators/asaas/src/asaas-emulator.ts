/**
 * An Asaas API v3 emulator (Pix and boleto charges, customers, webhooks, Pix Automático authorizations) over
 * plain HTTP on the API port, plus a control port for sandbox set-up, payments, the payer's bank
 * of Pix Automático, the clock and fault injection.
 *
 * @example
 * const emulator = createAsaasEmulator({ accounts: [{ api_key: '$aact_hmlg_…' }] });
 * const { apiPort, controlPort } = await emulator.start();
 * // … talk to http://127.0.0.1:<apiPort>/v3 with `access_token: $aact_hmlg_…` …
 * await emulator.stop();
 */
import { createServer } from 'node:http';
import { createEmulatorLogger, hostEmulator, SANDBOX_MERCHANT, type EmulatorLifecycle, type EmulatorOptions, type Merchant } from '../../kit';
import { asaasApiApp } from './asaas-api.app';
import { controlApp } from './control.routes';
import { EmulatorState, type AccountRegistration } from './emulator-state';
import { paymentJson } from './asaas-json';
import { pixAutomaticTick } from './pix-automatic.routes';
import { RefundSettler } from './refunds';
import { WebhookSender } from './webhook-sender';
import { onTransferSettled } from './transfers';

export interface AsaasEmulatorOptions extends EmulatorOptions {
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
  /** How long a refund stays PENDING before it is DONE (default 300 ms). */
  refundSettleMs?: number;
  /** Fee of a Pix transfer, in cents (default 0). */
  transferFeeCents?: number;
  /** How often Pix Automático work (expiries, SUBSCRIPTION cycles) is looked for besides after each clock move (default 1 s; 0: never). */
  sweepMs?: number;
}

export interface AsaasEmulator extends EmulatorLifecycle {
  readonly state: EmulatorState;
}

export function createAsaasEmulator(options: AsaasEmulatorOptions = {}): AsaasEmulator {
  const logger = options.logger ?? createEmulatorLogger('asaas-emulator', 'silent');
  const state = new EmulatorState(options.now ?? (() => new Date()));

  const sender = new WebhookSender(state, state.webhooks.deliveries, options.webhooks ?? {}, logger);
  const settler = new RefundSettler(state, sender, logger, options.refundSettleMs ?? 300);
  const notifyTransfer = (account: string, event: string, transfer: unknown) => void sender.accountEvent(account, event, 'transfer', transfer);
  state.onTransferSettled = (transfer) => onTransferSettled(transfer, notifyTransfer);
  const transfers = { notify: notifyTransfer, options: { transferFeeCents: options.transferFeeCents ?? 0 } };
  // Known once the control port listens (unless given): read at answer time, never copied.
  const routes = {
    merchant: options.merchant ?? SANDBOX_MERCHANT,
    locationHost: options.locationHost ?? 'pix-h.asaas.com',
    invoiceBase: options.invoiceBase ?? '',
    pixFeeCents: options.pixFeeCents ?? 199,
  };
  const pixAutomaticDeps = { state, sender, payments: routes, json: (p: Parameters<typeof paymentJson>[0]) => paymentJson(p, routes.invoiceBase) };
  const tick = () => pixAutomaticTick(pixAutomaticDeps);
  const { lifecycle } = hostEmulator('asaas', options, {
    api: createServer(asaasApiApp(state, sender, routes, logger, settler, transfers)),
    control: createServer(controlApp(state, sender, () => routes.invoiceBase, logger, settler, { deps: pixAutomaticDeps, tick }, routes)),
    faults: state.faults,
    stores: { state },
    webhooks: sender,
    logger,
    sweep: { everyMs: options.sweepMs ?? 1_000, run: tick },
    onListening: ({ controlPort }, urlOf) => {
      if (!options.invoiceBase) routes.invoiceBase = urlOf(controlPort);
    },
    onStop: () => {
      settler.close();
      state.transfers.close();
    },
  });
  // After the file: accounts given at start win over the remembered ones.
  for (const account of options.accounts ?? []) state.registerAccount(account);
  return { state, ...lifecycle };
}
