/** The emulator's environment, validated once. The only place that reads `process.env`. */
import { z } from 'zod';
import { emulatorEnvSchema, jsonArrayEnv, parseEmulatorEnv } from '../../kit';

const accountSchema = z.object({ secret_key: z.string().regex(/^sk_/), name: z.string().min(1).optional() });

const envSchema = emulatorEnvSchema('PAGARME', { api: 9454, control: 9455 }, {
  /** Base of `qr_code_url` as clients reach the API port (default `http://localhost:<api port>`). */
  PAGARME_EMULATOR_PUBLIC_URL: z.string().url().optional(),
  PAGARME_EMULATOR_ACCOUNTS: jsonArrayEnv(accountSchema, 'must be a JSON array of {secret_key, name?}'),
});

export type EmulatorConfig = Readonly<z.infer<typeof envSchema>>;

export function loadEmulatorConfig(env: NodeJS.ProcessEnv = process.env): EmulatorConfig {
  return parseEmulatorEnv('pagarme', envSchema, env);
}
