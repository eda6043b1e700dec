/**
 * The emulator kit: everything the six provider emulators (efi, asaas, mercadopago, pagarme,
 * stripe, woovi) have in common, so that each emulator's `src/` holds only its provider's API.
 *
 * What the kit offers:
 * - `emulator-main.ts` `runEmulator(name, loadConfig, create)`: the process entry point (env,
 *   logger, start, `ready` line, stop on SIGTERM/SIGINT); `emulator-env.ts` the common variables
 *   `<NAME>_EMULATOR_{API_PORT,CONTROL_PORT,HOST,WEBHOOK_RETRIES,WEBHOOK_BACKOFF_MS,STATE_FILE}`
 *   and `LOG_LEVEL`, plus `jsonArrayEnv` for account lists, errors naming variables, never values.
 * - `emulator-host.ts` `hostEmulator(name, options, parts)`: API and control servers, connections
 *   dropped during an outage, the state file (`state-file.ts`) loaded first and written after each
 *   answered request, an optional sweep, and the stop order (own timers, webhooks, servers, file);
 *   `EmulatorOptions` and `EmulatorLifecycle` are what every factory takes and returns.
 * - `control-port.ts` `controlPort(routes, basics)`: health, faults (`fault-registry.ts`,
 *   `fault-injection.ts` on the API port), stats, webhook deliveries, reset, JSON 404/error answers;
 *   `dashboard-charges.ts` the shared statuses, body and moves of the dashboard control routes.
 * - `webhook-outbox.ts` `WebhookOutbox`: background POSTs with retries and backoff, each attempt
 *   recorded in a `delivery-log.ts` `DeliveryLog`; stop aborts waits and requests in flight.
 * - `br-code.ts`: BR Codes (dynamic, or static with key, amount and txid) with their CRC16, and QR
 *   images (PNG bytes, base64, data URL, SVG); `boleto-line.ts`: barcodes and linhas digitáveis;
 *   `br-documents.ts`: CPF and CNPJ check digits; `card-numbers.ts`: the Luhn check of card numbers.
 * - `api-port.ts` `emulatorApiApp`/`finishApi`: the frame of the API app (request log without
 *   queries or bodies; the provider's answers for its errors, bad bodies, unknown paths, failures).
 * - `clock.ts` `EmulatorClock`: the state's time, moved forward by tests (`/__control/clock`,
 *   given to `controlPort` as `clock`) so that due dates and recurring cycles come on cue.
 * - `recurring-calendar.ts`: Pix Automático dates (cycles per frequency, business days with
 *   national holidays, the 2–10 day sending window) for the emulators that serve recurrences.
 * - `timers.ts` one-shot settlements cleared on stop, `logger.ts` the redacting pino logger,
 *   `activityStats` (delivery-log.ts) the webhook and fault part of every emulator's stats.
 *
 * What an emulator provides: its state (`snapshot()`/`restore()` for the state file, `faults`, a
 * `DeliveryLog`, `stats()`, `reset()`), its API app (routes, auth, the provider's error bodies,
 * including those `injectFaults` answers with), its sandbox control routes, its webhook scheme (a
 * `WebhookOutbox` subclass choosing receivers, body, headers and signature per attempt, and which
 * statuses count as received), its environment schema and its `main.ts` (a `runEmulator` call).
 */
export * from './boleto-line';
export * from './br-code';
export * from './br-documents';
export * from './card-numbers';
export * from './clock';
export * from './recurring-calendar';
export * from './control-port';
export * from './dashboard-charges';
export * from './delivery-log';
export * from './emulator-env';
export * from './emulator-host';
export * from './emulator-main';
export * from './fault-injection';
export * from './fault-registry';
export * from './logger';
export * from './state-file';
export * from './timers';
export * from './webhook-outbox';
export * from './api-port';
export * from './state-base';
export * from './payout-book';
