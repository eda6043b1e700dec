/** The emulator's environment, validated once. The only place that reads `process.env`. */
import { z } from 'zod';
import { emulatorEnvSchema, jsonArrayEnv, parseEmulatorEnv } from '../../kit';

const accountSchema = z.union([z.string().min(1), z.object({ secret_key: z.string().min(1) })]);

const envSchema = emulatorEnvSchema('STRIPE', { api: 9458, control: 9459 }, {
  /** JSON array of secret keys, or of `{"secret_key": "sk_test_…"}` (the catalog's credential shape). */
  STRIPE_EMULATOR_ACCOUNTS: jsonArrayEnv(accountSchema, 'must be a JSON array of secret keys or of {secret_key}').transform((accounts) =>
    accounts.map((a) => (typeof a === 'string' ? a : a.secret_key)),
  ),
  /** Base URL the QR images and instructions page are served from, as clients can reach it. */
  STRIPE_EMULATOR_PUBLIC_URL: z.string().url().optional(),
});

export type EmulatorConfig = Readonly<z.infer<typeof envSchema>>;

export function loadEmulatorConfig(env: NodeJS.ProcessEnv = process.env): EmulatorConfig {
  return parseEmulatorEnv('stripe', envSchema, env);
}
