/** Entry point: Mercado Pago's sandbox accounts on top of the kit's bootstrap (kit/emulator-main.ts). */
import { runEmulator } from '../../kit';
import { loadEmulatorConfig } from './emulator-config';
import { createMercadoPagoEmulator } from './mercadopago-emulator';

runEmulator('mercadopago', loadEmulatorConfig, (config, options) => {
  const emulator = createMercadoPagoEmulator({ ...options, accounts: config.MERCADOPAGO_EMULATOR_ACCOUNTS });
  // Account ids only: the access tokens themselves are secrets.
  return { emulator, ready: () => ({ accounts: config.MERCADOPAGO_EMULATOR_ACCOUNTS.map((a) => emulator.state.accountForToken(a.access_token)?.userId) }) };
});
