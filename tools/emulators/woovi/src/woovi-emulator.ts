/**
 * A Woovi (OpenPix) API emulator: the charge, webhook, Pix Automático (PIX_RECURRING
 * subscription), Pix Out and subaccount subset of `https://api.woovi.com` over plain HTTP on the API port, RSA-signed
 * webhooks, plus a plain-HTTP control port for sandbox set-up, payments, the payer's bank, the
 * clock and fault injection.
 *
 * @example
 * const emulator = createWooviEmulator({ accounts: ['my-app-id'] });
 * const { apiPort, controlPort } = await emulator.start();
 * // … POST http://127.0.0.1:apiPort/api/v1/charge with `Authorization: my-app-id` …
 * await emulator.stop();
 */
import { createServer } from 'node:http';
import { createEmulatorLogger, hostEmulator, SANDBOX_MERCHANT, type EmulatorLifecycle, type EmulatorOptions, type Merchant } from '../../kit';
import { ExpiryScheduler } from './charge-expiry';
import type { Company } from './charge-json';
import { controlApp } from './control.routes';
import { DisputeBook } from './disputes';
import { EmulatorState } from './emulator-state';
import { SigningKeys } from './signing-keys';
import { WebhookSender } from './webhook-sender';
import { wooviApiApp } from './woovi-api.routes';
import { chargeJson } from './charge-json';
import { RefundSettler } from './refunds';
import { onChargeExpired, recurringTick } from './pix-recurring.routes';
import { onPaymentSettled } from './payments';

export interface WooviEmulatorOptions extends EmulatorOptions {
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
  /** How long a refund stays IN_PROCESSING before it is CONFIRMED (default 300 ms). */
  refundSettleMs?: number;
  /** How often Pix Automático work (cycle charges, expiries) is looked for besides after each clock move (default 1 s; 0: never). */
  sweepMs?: number;
}

export interface WooviEmulator extends EmulatorLifecycle {
  readonly state: EmulatorState;
  /** The PEM public key that verifies `x-webhook-signature`. */
  readonly publicKeyPem: string;
}

export function createWooviEmulator(options: WooviEmulatorOptions = {}): WooviEmulator {
  const logger = options.logger ?? createEmulatorLogger('woovi-emulator', 'silent');
  const state = new EmulatorState(options.now ?? (() => new Date()));
  const keys = new SigningKeys(options.signingPrivateKeyPem);
  const company = options.company ?? { id: '64cab82a485da23384a4e3af', name: 'Orquestra Sandbox LTDA', taxID: '11222333000181' };
  const sender = new WebhookSender(state, keys, company, options.webhooks ?? {}, logger);
  const expiry = new ExpiryScheduler(state);
  const refunds = new RefundSettler(state, sender, logger, options.refundSettleMs ?? 300, (charge) => chargeJson(state, charge));


  state.onPaymentSettled = (payment) => onPaymentSettled(payment, (account, event, payload, correlationID) => void sender.notifyAccount(event, account, payload, correlationID));
  const charges = {
    merchant: options.merchant ?? SANDBOX_MERCHANT,
    locationHost: options.locationHost ?? 'api.woovi-emulator.local',
    feeBasisPoints: options.feeBasisPoints ?? 80,
  };
  const subaccounts = state.subaccounts;
  const api = wooviApiApp({ state, sender, expiry, keys, charges, logger, refunds, subaccounts });
  const recurringDeps = { state, sender, expiry, charges };
  const tick = () => recurringTick(recurringDeps);
  state.onExpired = (charge) => {
    sender.notify('OPENPIX:CHARGE_EXPIRED', charge);
    onChargeExpired(recurringDeps, charge);
  };
  const disputes = new DisputeBook();
  const { lifecycle } = hostEmulator('woovi', options, {
    api: createServer(api),
    control: createServer(controlApp({ state, sender, expiry, keys, logger, refunds, disputes, recurring: { deps: recurringDeps, tick }, subaccounts })),
    faults: state.faults,
    stores: { state, disputes, subaccounts },
    webhooks: sender,
    logger,
    sweep: { everyMs: options.sweepMs ?? 1_000, run: tick },
    onStop: () => {
      expiry.clear();
      refunds.close();
      state.payments.close();
    },
  });
  // After the file: accounts given at start win over the remembered ones.
  for (const appId of options.accounts ?? []) state.registerAccount(appId);
  return { state, publicKeyPem: keys.publicKeyPem, ...lifecycle };
}
