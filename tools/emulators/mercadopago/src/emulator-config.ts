/** The emulator's environment, validated once. The only place that reads `process.env`. */
import { z } from 'zod';
import { emulatorEnvSchema, jsonArrayEnv, parseEmulatorEnv } from '../../kit';

const accountSchema = z.object({ access_token: z.string().min(1), webhook_secret: z.string().min(1).optional() });

const envSchema = emulatorEnvSchema('MERCADOPAGO', { api: 9450, control: 9451 }, {
  MERCADOPAGO_EMULATOR_ACCOUNTS: jsonArrayEnv(accountSchema, 'must be a JSON array of {access_token, webhook_secret?}'),
});

export type EmulatorConfig = Readonly<z.infer<typeof envSchema>>;

export function loadEmulatorConfig(env: NodeJS.ProcessEnv = process.env): EmulatorConfig {
  return parseEmulatorEnv('mercadopago', envSchema, env);
}
