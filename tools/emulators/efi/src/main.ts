/** Entry point: reads the environment, loads the certificates, starts the emulator, stops on signals. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEfiEmulator } from './efi-emulator';
import { loadEmulatorConfig } from './emulator-config';
import { createEmulatorLogger } from './logger';

async function main(): Promise<void> {
  const config = loadEmulatorConfig();
  const logger = createEmulatorLogger(config.LOG_LEVEL);
  const read = (file: string) => readFileSync(join(config.certDir, file));
  const emulator = createEfiEmulator({
    tls: { cert: read('server.pem'), key: read('server.key'), ca: read('ca.pem') },
    apiPort: config.EFI_EMULATOR_API_PORT,
    controlPort: config.EFI_EMULATOR_CONTROL_PORT,
    host: config.EFI_EMULATOR_HOST,
    clients: config.EFI_EMULATOR_CLIENTS,
    webhooks: {
      retries: config.EFI_EMULATOR_WEBHOOK_RETRIES,
      baseDelayMs: config.EFI_EMULATOR_WEBHOOK_BACKOFF_MS,
      verifyOnRegister: config.EFI_EMULATOR_VERIFY_WEBHOOKS,
    },
    refundSettleMs: config.EFI_EMULATOR_REFUND_SETTLE_MS,
    ...(config.EFI_EMULATOR_STATE_FILE ? { stateFile: config.EFI_EMULATOR_STATE_FILE } : {}),
    logger,
  });
  await emulator.start();
  logger.info({ certDir: config.certDir, clients: config.EFI_EMULATOR_CLIENTS.map((c) => c.client_id) }, 'ready');

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    emulator.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  // The logger may not exist yet (bad environment); stderr is the only safe place.
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
