/** Entry point: reads the environment, starts the emulator, stops on signals. */
import { accountIdFor } from './asaas-ids';
import { createAsaasEmulator } from './asaas-emulator';
import { loadEmulatorConfig } from './emulator-config';
import { createEmulatorLogger } from './logger';

async function main(): Promise<void> {
  const config = loadEmulatorConfig();
  const logger = createEmulatorLogger(config.LOG_LEVEL);
  const emulator = createAsaasEmulator({
    apiPort: config.ASAAS_EMULATOR_API_PORT,
    controlPort: config.ASAAS_EMULATOR_CONTROL_PORT,
    host: config.ASAAS_EMULATOR_HOST,
    accounts: config.ASAAS_EMULATOR_ACCOUNTS,
    ...(config.ASAAS_EMULATOR_INVOICE_BASE_URL ? { invoiceBase: config.ASAAS_EMULATOR_INVOICE_BASE_URL } : {}),
    webhooks: { retries: config.ASAAS_EMULATOR_WEBHOOK_RETRIES, baseDelayMs: config.ASAAS_EMULATOR_WEBHOOK_BACKOFF_MS },
    ...(config.ASAAS_EMULATOR_STATE_FILE ? { stateFile: config.ASAAS_EMULATOR_STATE_FILE } : {}),
    logger,
  });
  await emulator.start();
  // Account ids are hashes of the keys: the keys themselves are never logged.
  logger.info({ accounts: config.ASAAS_EMULATOR_ACCOUNTS.map((a) => accountIdFor(a.api_key)) }, 'ready');

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
