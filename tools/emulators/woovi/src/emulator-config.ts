/** The emulator's environment, validated once. The only place that reads `process.env`. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { emulatorEnvSchema, jsonArrayEnv, parseEmulatorEnv } from '../../kit';

const accountSchema = z.union([z.string().min(1), z.object({ app_id: z.string().min(1) })]);

const envSchema = emulatorEnvSchema('WOOVI', { api: 9456, control: 9457 }, {
  /** JSON array of AppIDs to preload, e.g. `["app-id-1"]` (objects `{"app_id": …}` also accepted). */
  WOOVI_EMULATOR_ACCOUNTS: jsonArrayEnv(accountSchema, 'must be a JSON array of AppIDs or of {app_id}').transform((entries) =>
    entries.map((e) => (typeof e === 'string' ? e : e.app_id)),
  ),
  /** A PEM file with the webhook signing private key, so the public key survives restarts. */
  WOOVI_EMULATOR_SIGNING_KEY_FILE: z.string().optional(),
});

export type EmulatorConfig = Readonly<z.infer<typeof envSchema> & { signingPrivateKeyPem?: string }>;

export function loadEmulatorConfig(env: NodeJS.ProcessEnv = process.env): EmulatorConfig {
  const parsed = parseEmulatorEnv('woovi', envSchema, env);
  const keyFile = parsed.WOOVI_EMULATOR_SIGNING_KEY_FILE;
  return Object.freeze({ ...parsed, ...(keyFile ? { signingPrivateKeyPem: readFileSync(keyFile, 'utf8') } : {}) });
}
