/** The emulator's environment, validated once. The only place that reads `process.env`. */
import { z } from 'zod';

const accountsSchema = z.array(z.object({ access_token: z.string().min(1), webhook_secret: z.string().min(1).optional() }));

const envSchema = z.object({
  MERCADOPAGO_EMULATOR_API_PORT: z.coerce.number().int().min(0).max(65_535).default(9450),
  MERCADOPAGO_EMULATOR_CONTROL_PORT: z.coerce.number().int().min(0).max(65_535).default(9451),
  MERCADOPAGO_EMULATOR_HOST: z.string().default('0.0.0.0'),
  MERCADOPAGO_EMULATOR_ACCOUNTS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text) return [];
      try {
        return accountsSchema.parse(JSON.parse(text));
      } catch {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a JSON array of {access_token, webhook_secret?}' });
        return z.NEVER;
      }
    }),
  MERCADOPAGO_EMULATOR_WEBHOOK_RETRIES: z.coerce.number().int().min(0).max(20).default(3),
  MERCADOPAGO_EMULATOR_WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(0).default(500),
  /** Set by the local stack only: keep the emulator's accounts and charges in this file across restarts. */
  MERCADOPAGO_EMULATOR_STATE_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type EmulatorConfig = Readonly<z.infer<typeof envSchema>>;

export function loadEmulatorConfig(env: NodeJS.ProcessEnv = process.env): EmulatorConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    // Paths and messages only: the values (access tokens) never reach the output.
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid mercadopago emulator environment: ${problems}`);
  }
  return Object.freeze(parsed.data);
}
