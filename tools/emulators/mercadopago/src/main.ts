/** Entry point: reads the environment, starts the emulator, stops on signals. */
import { loadEmulatorConfig } from './emulator-config';
import { createEmulatorLogger } from './logger';
import { createMercadoPagoEmulator } from './mercadopago-emulator';

async function main(): Promise<void> {
  const config = loadEmulatorConfig();
  const logger = createEmulatorLogger(config.LOG_LEVEL);
  const emulator = createMercadoPagoEmulator({
    apiPort: config.MERCADOPAGO_EMULATOR_API_PORT,
    controlPort: config.MERCADOPAGO_EMULATOR_CONTROL_PORT,
    host: config.MERCADOPAGO_EMULATOR_HOST,
    accounts: config.MERCADOPAGO_EMULATOR_ACCOUNTS,
    webhooks: { retries: config.MERCADOPAGO_EMULATOR_WEBHOOK_RETRIES, baseDelayMs: config.MERCADOPAGO_EMULATOR_WEBHOOK_BACKOFF_MS },
    ...(config.MERCADOPAGO_EMULATOR_STATE_FILE ? { stateFile: config.MERCADOPAGO_EMULATOR_STATE_FILE } : {}),
    logger,
  });
  await emulator.start();
  // Account ids only: the access tokens themselves are secrets.
  logger.info({ accounts: config.MERCADOPAGO_EMULATOR_ACCOUNTS.map((a) => emulator.state.accountForToken(a.access_token)?.userId) }, 'ready');

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
