/** The emulator's environment, validated once. The only place that reads `process.env`. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const envSchema = z.object({
  WOOVI_EMULATOR_API_PORT: z.coerce.number().int().min(0).max(65_535).default(9456),
  WOOVI_EMULATOR_CONTROL_PORT: z.coerce.number().int().min(0).max(65_535).default(9457),
  WOOVI_EMULATOR_HOST: z.string().default('0.0.0.0'),
  /** JSON array of AppIDs to preload, e.g. `["app-id-1"]` (objects `{"app_id": …}` also accepted). */
  WOOVI_EMULATOR_ACCOUNTS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text) return [];
      try {
        const entries = z.array(z.union([z.string().min(1), z.object({ app_id: z.string().min(1) })])).parse(JSON.parse(text));
        return entries.map((e) => (typeof e === 'string' ? e : e.app_id));
      } catch {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a JSON array of AppIDs or of {app_id}' });
        return z.NEVER;
      }
    }),
  /** A PEM file with the webhook signing private key, so the public key survives restarts. */
  WOOVI_EMULATOR_SIGNING_KEY_FILE: z.string().optional(),
  WOOVI_EMULATOR_WEBHOOK_RETRIES: z.coerce.number().int().min(0).max(20).default(3),
  WOOVI_EMULATOR_WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(0).default(500),
  /** Set by the local stack only: keep the emulator's accounts and charges in this file across restarts. */
  WOOVI_EMULATOR_STATE_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type EmulatorConfig = Readonly<z.infer<typeof envSchema> & { signingPrivateKeyPem?: string }>;

export function loadEmulatorConfig(env: NodeJS.ProcessEnv = process.env): EmulatorConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid woovi emulator environment: ${problems}`);
  }
  const keyFile = parsed.data.WOOVI_EMULATOR_SIGNING_KEY_FILE;
  return Object.freeze({ ...parsed.data, ...(keyFile ? { signingPrivateKeyPem: readFileSync(keyFile, 'utf8') } : {}) });
}
