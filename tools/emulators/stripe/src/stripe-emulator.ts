/**
 * A Stripe API emulator (the PaymentIntents/Pix/test-card, webhook-endpoint, balance/payout and
 * Connect connected-account subset) over plain
 * HTTP on the API port, plus a plain-HTTP control port for sandbox set-up, payments and fault
 * injection. Each secret key is one account; accounts never see each other's objects.
 *
 * @example
 * const emulator = createStripeEmulator({ accounts: ['sk_test_abc'] });
 * const { apiPort, controlPort } = await emulator.start();
 * // … POST http://127.0.0.1:apiPort/v1/payment_intents with `Authorization: Bearer sk_test_abc` …
 * await emulator.stop();
 */
import { createServer } from 'node:http';
import { createEmulatorLogger, hostEmulator, SANDBOX_MERCHANT, type EmulatorLifecycle, type EmulatorOptions, type Merchant } from '../../kit';
import { controlApp } from './control.routes';
import { EmulatorState } from './emulator-state';
import { PaymentIntentLifecycle, type Fees } from './payment-intent-lifecycle';
import { DisputeBook } from './disputes';
import { RefundBook } from './refunds';
import { stripeApiApp } from './stripe-api.app';
import type { StripeEvent } from './events';
import { createPayoutBook } from './payouts';
import { WebhookSender } from './webhook-sender';
import { ConnectBook } from './connect';

export interface StripeEmulatorOptions extends EmulatorOptions {
  /** Secret keys (`sk_test_…`) known from the start, as strings or as the catalog's `{secret_key}`. */
  accounts?: Array<string | { secret_key: string }>;
  /** Receiver name and city written into BR Codes. */
  merchant?: Merchant;
  /** Host of the payload URL inside BR Codes. */
  payloadHost?: string;
  /** Base URL of the QR images and instructions page (default: the control port's address). */
  publicBaseUrl?: string;
  fees?: Partial<Fees>;
  /** How long a Pix refund stays `pending` before it succeeds (default 300 ms). */
  refundSettleMs?: number;
  /** How often due Pix codes are expired in the background (default 1000 ms; 0 = only on reads). */
  expirySweepMs?: number;
}

export interface StripeEmulator extends EmulatorLifecycle {
  readonly state: EmulatorState;
}

export function createStripeEmulator(options: StripeEmulatorOptions = {}): StripeEmulator {
  const logger = options.logger ?? createEmulatorLogger('stripe-emulator', 'silent');
  const state = new EmulatorState(options.now ?? (() => new Date()));

  const sender = new WebhookSender(state, state.deliveries, options.webhooks ?? {}, logger);
  // Connected accounts (connect.ts); their balances live in the payout book under their acct_ id.
  const connect = new ConnectBook();
  const connectEmit = (platformId: string, connectedId: string, event: StripeEvent) => sender.dispatchConnect(platformId, connectedId, event);
  // A connected account's events (its payouts) go to its platform's Connect endpoints, as at Stripe.
  // Changes made "behind the integrator's back" (charge-listing.ts) run quietly: their events are dropped.
  let quiet = 0;
  const quietly = <T>(work: () => T): T => {
    quiet += 1;
    try {
      return work();
    } finally {
      quiet -= 1;
    }
  };
  const emit = (accountId: string, event: StripeEvent) => {
    if (quiet > 0) return;
    const connected = connect.get(accountId);
    if (connected) connectEmit(connected.platformId, connected.id, event);
    else sender.dispatch(accountId, event);
  };
  // Balances and payouts (payouts.ts): payments fill the balance, refunds and payouts take from it.
  const payouts = createPayoutBook(state, emit);
  let publicBase = options.publicBaseUrl ?? '';
  const intents = new PaymentIntentLifecycle(
    state,
    {
      merchant: options.merchant ?? SANDBOX_MERCHANT,
      payloadHost: options.payloadHost ?? 'pix.stripe-emulator.local',
      publicBase: () => publicBase,
      fees: { pixBps: 119, cardBps: 399, cardFixed: 39, ...options.fees },
    },
    emit,
    payouts,
  );

  const refunds = new RefundBook(state, emit, logger, options.refundSettleMs ?? 300, payouts);
  const disputes = new DisputeBook(state, (accountId, event) => sender.dispatch(accountId, event), logger);
  const { lifecycle } = hostEmulator('stripe', options, {
    api: createServer(stripeApiApp(state, intents, refunds, disputes, logger, { book: payouts, emit }, { book: connect, linkBase: () => publicBase })),
    control: createServer(controlApp(state, intents, refunds, disputes, logger, payouts, { book: connect, emit: connectEmit }, quietly)),
    faults: state.faults,
    stores: { state, disputes, payouts, connect },
    webhooks: sender,
    logger,
    sweep: { everyMs: options.expirySweepMs ?? 1_000, run: () => intents.expireDue() },
    onListening: ({ controlPort }, urlOf) => {
      if (!options.publicBaseUrl) publicBase = urlOf(controlPort);
    },
    onStop: () => {
      refunds.close();
      payouts.close();
    },
  });
  // After the file: accounts given at start win over the remembered ones.
  for (const account of options.accounts ?? []) state.registerAccount(typeof account === 'string' ? account : account.secret_key);
  return { state, ...lifecycle };
}
