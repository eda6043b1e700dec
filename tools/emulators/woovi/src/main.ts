/** Entry point: Woovi's AppIDs and signing key on top of the kit's bootstrap (kit/emulator-main.ts). */
import { runEmulator } from '../../kit';
import { loadEmulatorConfig } from './emulator-config';
import { accountIdFor } from './woovi-ids';
import { createWooviEmulator } from './woovi-emulator';

runEmulator('woovi', loadEmulatorConfig, (config, options) => {
  const emulator = createWooviEmulator({
    ...options,
    accounts: config.WOOVI_EMULATOR_ACCOUNTS,
    ...(config.signingPrivateKeyPem ? { signingPrivateKeyPem: config.signingPrivateKeyPem } : {}),
  });
  // AppIDs are secrets: only their digests are logged.
  return { emulator, ready: () => ({ accounts: config.WOOVI_EMULATOR_ACCOUNTS.map(accountIdFor), stableSigningKey: Boolean(config.signingPrivateKeyPem) }) };
});
