/** The emulator's environment, validated once. The only place that reads `process.env`. */
import { z } from 'zod';

const accountsSchema = z.array(z.union([z.string().min(1), z.object({ secret_key: z.string().min(1) })]));

const envSchema = z.object({
  STRIPE_EMULATOR_API_PORT: z.coerce.number().int().min(0).max(65_535).default(9458),
  STRIPE_EMULATOR_CONTROL_PORT: z.coerce.number().int().min(0).max(65_535).default(9459),
  STRIPE_EMULATOR_HOST: z.string().default('0.0.0.0'),
  /** JSON array of secret keys, or of `{"secret_key": "sk_test_…"}` (the catalog's credential shape). */
  STRIPE_EMULATOR_ACCOUNTS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text) return [];
      try {
        return accountsSchema.parse(JSON.parse(text)).map((a) => (typeof a === 'string' ? a : a.secret_key));
      } catch {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a JSON array of secret keys or of {secret_key}' });
        return z.NEVER;
      }
    }),
  /** Base URL the QR images and instructions page are served from, as clients can reach it. */
  STRIPE_EMULATOR_PUBLIC_URL: z.string().url().optional(),
  STRIPE_EMULATOR_WEBHOOK_RETRIES: z.coerce.number().int().min(0).max(20).default(3),
  STRIPE_EMULATOR_WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(0).default(500),
  /** Set by the local stack only: keep the emulator's accounts and charges in this file across restarts. */
  STRIPE_EMULATOR_STATE_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type EmulatorConfig = Readonly<z.infer<typeof envSchema>>;

export function loadEmulatorConfig(env: NodeJS.ProcessEnv = process.env): EmulatorConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid stripe emulator environment: ${problems}`);
  }
  return Object.freeze(parsed.data);
}
