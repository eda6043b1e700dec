/**
 * The process entry point every emulator's `main.ts` hands its provider's parts to: reads and
 * validates the environment, makes the logger, starts the emulator, logs `ready` with what the
 * emulator chooses to show (account ids, never keys), and stops it on SIGTERM/SIGINT (webhooks,
 * servers, then the state file's last write).
 *
 * @example
 * runEmulator('asaas', loadEmulatorConfig, (config, options) => {
 *   const emulator = createAsaasEmulator({ ...options, accounts: config.ASAAS_EMULATOR_ACCOUNTS });
 *   return { emulator, ready: () => ({ accounts: config.ASAAS_EMULATOR_ACCOUNTS.map((a) => accountIdFor(a.api_key)) }) };
 * });
 */
import { commonSettings } from './emulator-env';
import type { EmulatorPorts } from './emulator-host';
import { createEmulatorLogger, type Logger } from './logger';

/** What the entry point gives every emulator factory, from the common variables. */
export interface EntryOptions {
  apiPort: number;
  controlPort: number;
  host: string;
  webhooks: { retries: number; baseDelayMs: number };
  stateFile?: string;
  logger: Logger;
}

export interface Started {
  emulator: { start(): Promise<EmulatorPorts>; stop(): Promise<void> };
  /** Fields of the `ready` log line, read once the emulator listens. */
  ready: () => Record<string, unknown>;
}

/** `name` is the emulator's directory; its variables are `<NAME>_EMULATOR_*`. */
export function runEmulator<C extends Record<string, unknown>>(name: string, loadConfig: () => C, create: (config: C, options: EntryOptions) => Started): void {
  const main = async () => {
    const config = loadConfig();
    const { logLevel, ...settings } = commonSettings(name.toUpperCase(), config);
    const logger = createEmulatorLogger(`${name}-emulator`, logLevel);
    const { emulator, ready } = create(config, { ...settings, logger });
    await emulator.start();
    logger.info(ready(), 'ready');

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
  };

  main().catch((err: unknown) => {
    // The logger may not exist yet (bad environment); stderr is the only safe place.
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
