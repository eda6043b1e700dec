/** Entry point: Stripe's secret keys on top of the kit's bootstrap (kit/emulator-main.ts). */
import { runEmulator } from '../../kit';
import { loadEmulatorConfig } from './emulator-config';
import { createStripeEmulator } from './stripe-emulator';
import { accountIdForKey } from './stripe-ids';

runEmulator('stripe', loadEmulatorConfig, (config, options) => {
  const emulator = createStripeEmulator({
    ...options,
    accounts: config.STRIPE_EMULATOR_ACCOUNTS,
    ...(config.STRIPE_EMULATOR_PUBLIC_URL ? { publicBaseUrl: config.STRIPE_EMULATOR_PUBLIC_URL } : {}),
  });
  // Account ids only: the keys themselves never reach the log.
  return { emulator, ready: () => ({ accounts: config.STRIPE_EMULATOR_ACCOUNTS.map(accountIdForKey) }) };
});
