/** Entry point: Pagar.me's sandbox accounts on top of the kit's bootstrap (kit/emulator-main.ts). */
import { runEmulator } from '../../kit';
import { loadEmulatorConfig } from './emulator-config';
import { createPagarmeEmulator } from './pagarme-emulator';

runEmulator('pagarme', loadEmulatorConfig, (config, options) => {
  const emulator = createPagarmeEmulator({
    ...options,
    ...(config.PAGARME_EMULATOR_PUBLIC_URL ? { publicBaseUrl: config.PAGARME_EMULATOR_PUBLIC_URL } : {}),
    accounts: config.PAGARME_EMULATOR_ACCOUNTS,
  });
  // Account ids only: the secret keys never reach the log.
  return { emulator, ready: () => ({ accounts: emulator.state.stats().accounts }) };
});
