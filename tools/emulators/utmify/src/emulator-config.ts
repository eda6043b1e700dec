/** The emulator's environment, validated once. The only place that reads `process.env`. */
import { z } from 'zod';
import { emulatorEnvSchema, jsonArrayEnv, parseEmulatorEnv } from '../../kit';

const envSchema = emulatorEnvSchema('UTMIFY', { api: 9470, control: 9471 }, {
  /** JSON array of API tokens valid from the start, e.g. `["utm-token-1"]`. */
  UTMIFY_EMULATOR_TOKENS: jsonArrayEnv(z.string().min(1), 'must be a JSON array of tokens'),
});

export type EmulatorConfig = Readonly<z.infer<typeof envSchema>>;

export function loadEmulatorConfig(env: NodeJS.ProcessEnv = process.env): EmulatorConfig {
  return parseEmulatorEnv('utmify', envSchema, env);
}
