/** The emulator's environment, validated once. The only place that reads `process.env`. */
import { z } from 'zod';

const accountsSchema = z.array(z.object({ secret_key: z.string().regex(/^sk_/), name: z.string().min(1).optional() }));

const envSchema = z.object({
  PAGARME_EMULATOR_API_PORT: z.coerce.number().int().min(0).max(65_535).default(9454),
  PAGARME_EMULATOR_CONTROL_PORT: z.coerce.number().int().min(0).max(65_535).default(9455),
  PAGARME_EMULATOR_HOST: z.string().default('0.0.0.0'),
  /** Base of `qr_code_url` as clients reach the API port (default `http://localhost:<api port>`). */
  PAGARME_EMULATOR_PUBLIC_URL: z.string().url().optional(),
  PAGARME_EMULATOR_ACCOUNTS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text) return [];
      try {
        return accountsSchema.parse(JSON.parse(text));
      } catch {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a JSON array of {secret_key, name?}' });
        return z.NEVER;
      }
    }),
  PAGARME_EMULATOR_WEBHOOK_RETRIES: z.coerce.number().int().min(0).max(20).default(3),
  PAGARME_EMULATOR_WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(0).default(500),
  /** Set by the local stack only: keep the emulator's accounts and charges in this file across restarts. */
  PAGARME_EMULATOR_STATE_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type EmulatorConfig = Readonly<z.infer<typeof envSchema>>;

export function loadEmulatorConfig(env: NodeJS.ProcessEnv = process.env): EmulatorConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    // Names and messages only: a bad PAGARME_EMULATOR_ACCOUNTS value must not be echoed (it holds keys).
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid pagarme emulator environment: ${problems}`);
  }
  return Object.freeze(parsed.data);
}
