/** Entry point: reads the environment, starts the emulator, stops on signals. */
import { loadEmulatorConfig } from './emulator-config';
import { createEmulatorLogger } from './logger';
import { createStripeEmulator } from './stripe-emulator';
import { accountIdForKey } from './stripe-ids';

async function main(): Promise<void> {
  const config = loadEmulatorConfig();
  const logger = createEmulatorLogger(config.LOG_LEVEL);
  const emulator = createStripeEmulator({
    apiPort: config.STRIPE_EMULATOR_API_PORT,
    controlPort: config.STRIPE_EMULATOR_CONTROL_PORT,
    host: config.STRIPE_EMULATOR_HOST,
    accounts: config.STRIPE_EMULATOR_ACCOUNTS,
    ...(config.STRIPE_EMULATOR_PUBLIC_URL ? { publicBaseUrl: config.STRIPE_EMULATOR_PUBLIC_URL } : {}),
    webhooks: { retries: config.STRIPE_EMULATOR_WEBHOOK_RETRIES, baseDelayMs: config.STRIPE_EMULATOR_WEBHOOK_BACKOFF_MS },
    ...(config.STRIPE_EMULATOR_STATE_FILE ? { stateFile: config.STRIPE_EMULATOR_STATE_FILE } : {}),
    logger,
  });
  await emulator.start();
  // Account ids only: the keys themselves never reach the log.
  logger.info({ accounts: config.STRIPE_EMULATOR_ACCOUNTS.map(accountIdForKey) }, 'ready');

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
