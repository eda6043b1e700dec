/** Entry point: Asaas's sandbox accounts on top of the kit's bootstrap (kit/emulator-main.ts). */
import { runEmulator } from '../../kit';
import { createAsaasEmulator } from './asaas-emulator';
import { accountIdFor } from './asaas-ids';
import { loadEmulatorConfig } from './emulator-config';

runEmulator('asaas', loadEmulatorConfig, (config, options) => {
  const emulator = createAsaasEmulator({
    ...options,
    accounts: config.ASAAS_EMULATOR_ACCOUNTS,
    ...(config.ASAAS_EMULATOR_INVOICE_BASE_URL ? { invoiceBase: config.ASAAS_EMULATOR_INVOICE_BASE_URL } : {}),
  });
  // Account ids are hashes of the keys: the keys themselves are never logged.
  return { emulator, ready: () => ({ accounts: config.ASAAS_EMULATOR_ACCOUNTS.map((a) => accountIdFor(a.api_key)) }) };
});
