/** Entry point: reads the environment, starts the emulator, stops on signals. */
import { loadEmulatorConfig } from './emulator-config';
import { createEmulatorLogger } from './logger';
import { accountIdFor } from './woovi-ids';
import { createWooviEmulator } from './woovi-emulator';

async function main(): Promise<void> {
  const config = loadEmulatorConfig();
  const logger = createEmulatorLogger(config.LOG_LEVEL);
  const emulator = createWooviEmulator({
    apiPort: config.WOOVI_EMULATOR_API_PORT,
    controlPort: config.WOOVI_EMULATOR_CONTROL_PORT,
    host: config.WOOVI_EMULATOR_HOST,
    accounts: config.WOOVI_EMULATOR_ACCOUNTS,
    ...(config.signingPrivateKeyPem ? { signingPrivateKeyPem: config.signingPrivateKeyPem } : {}),
    webhooks: { retries: config.WOOVI_EMULATOR_WEBHOOK_RETRIES, baseDelayMs: config.WOOVI_EMULATOR_WEBHOOK_BACKOFF_MS },
    ...(config.WOOVI_EMULATOR_STATE_FILE ? { stateFile: config.WOOVI_EMULATOR_STATE_FILE } : {}),
    logger,
  });
  await emulator.start();
  // AppIDs are secrets: only their digests are logged.
  logger.info({ accounts: config.WOOVI_EMULATOR_ACCOUNTS.map(accountIdFor), stableSigningKey: Boolean(config.signingPrivateKeyPem) }, 'ready');

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
