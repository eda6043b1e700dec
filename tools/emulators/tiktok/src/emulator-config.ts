/** The emulator's environment, validated once. The only place that reads `process.env`. */
import { z } from 'zod';
import { emulatorEnvSchema, jsonArrayEnv, parseEmulatorEnv } from '../../kit';

const tokenSchema = z.union([z.string().min(1), z.object({ token: z.string().min(1), pixels: z.array(z.string().min(1)).optional() })]);

const envSchema = emulatorEnvSchema('TIKTOK', { api: 9474, control: 9475 }, {
  /** JSON array of access tokens valid from the start: `["tok"]`, or `[{"token": "tok", "pixels": ["C4ABC"]}]` to bind pixel codes. */
  TIKTOK_EMULATOR_TOKENS: jsonArrayEnv(tokenSchema, 'must be a JSON array of tokens or of {token, pixels}').transform((entries) =>
    entries.map((e) => (typeof e === 'string' ? { token: e, pixels: [] } : { token: e.token, pixels: e.pixels ?? [] })),
  ),
});

export type EmulatorConfig = Readonly<z.infer<typeof envSchema>>;

export function loadEmulatorConfig(env: NodeJS.ProcessEnv = process.env): EmulatorConfig {
  return parseEmulatorEnv('tiktok', envSchema, env);
}
