/** The emulator's environment, validated once. The only place that reads `process.env`. */
import { z } from 'zod';
import { emulatorEnvSchema, jsonArrayEnv, parseEmulatorEnv } from '../../kit';

const envSchema = emulatorEnvSchema('ASAAS', { api: 9452, control: 9453 }, {
  /** Base of `invoiceUrl` as buyers' browsers reach the control port (default `http://localhost:<control port>`). */
  ASAAS_EMULATOR_INVOICE_BASE_URL: z.string().url().optional(),
  ASAAS_EMULATOR_ACCOUNTS: jsonArrayEnv(z.object({ api_key: z.string().min(1) }), 'must be a JSON array of {api_key}'),
});

export type EmulatorConfig = Readonly<z.infer<typeof envSchema>>;

export function loadEmulatorConfig(env: NodeJS.ProcessEnv = process.env): EmulatorConfig {
  return parseEmulatorEnv('asaas', envSchema, env);
}
