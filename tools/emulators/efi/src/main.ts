/** Entry point: Efí's certificates and sandbox clients on top of the kit's bootstrap (kit/emulator-main.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runEmulator } from '../../kit';
import { createEfiEmulator } from './efi-emulator';
import { loadEmulatorConfig } from './emulator-config';

runEmulator('efi', loadEmulatorConfig, (config, options) => {
  const read = (file: string) => readFileSync(join(config.certDir, file));
  const emulator = createEfiEmulator({
    ...options,
    tls: { cert: read('server.pem'), key: read('server.key'), ca: read('ca.pem') },
    clients: config.EFI_EMULATOR_CLIENTS,
    webhooks: { ...options.webhooks, verifyOnRegister: config.EFI_EMULATOR_VERIFY_WEBHOOKS },
    refundSettleMs: config.EFI_EMULATOR_REFUND_SETTLE_MS,
  });
  return { emulator, ready: () => ({ certDir: config.certDir, clients: config.EFI_EMULATOR_CLIENTS.map((c) => c.client_id) }) };
});
