/** Entry point: reads the environment, starts the emulator, stops on signals. */
import { loadEmulatorConfig } from './emulator-config';
import { createEmulatorLogger } from './logger';
import { createPagarmeEmulator } from './pagarme-emulator';

async function main(): Promise<void> {
  const config = loadEmulatorConfig();
  const logger = createEmulatorLogger(config.LOG_LEVEL);
  const emulator = createPagarmeEmulator({
    apiPort: config.PAGARME_EMULATOR_API_PORT,
    controlPort: config.PAGARME_EMULATOR_CONTROL_PORT,
    host: config.PAGARME_EMULATOR_HOST,
    ...(config.PAGARME_EMULATOR_PUBLIC_URL ? { publicBaseUrl: config.PAGARME_EMULATOR_PUBLIC_URL } : {}),
    accounts: config.PAGARME_EMULATOR_ACCOUNTS,
    webhooks: { retries: config.PAGARME_EMULATOR_WEBHOOK_RETRIES, baseDelayMs: config.PAGARME_EMULATOR_WEBHOOK_BACKOFF_MS },
    ...(config.PAGARME_EMULATOR_STATE_FILE ? { stateFile: config.PAGARME_EMULATOR_STATE_FILE } : {}),
    logger,
  });
  await emulator.start();
  // Account ids only: the secret keys never reach the log.
  logger.info({ accounts: emulator.state.stats().accounts }, 'ready');

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
