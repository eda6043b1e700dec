/** The emulator's environment, validated once. The only place that reads `process.env`. */
import { z } from 'zod';

const accountsSchema = z.array(z.object({ api_key: z.string().min(1) }));

const envSchema = z.object({
  ASAAS_EMULATOR_API_PORT: z.coerce.number().int().min(0).max(65_535).default(9452),
  ASAAS_EMULATOR_CONTROL_PORT: z.coerce.number().int().min(0).max(65_535).default(9453),
  ASAAS_EMULATOR_HOST: z.string().default('0.0.0.0'),
  /** Base of `invoiceUrl` as buyers' browsers reach the control port (default `http://localhost:<control port>`). */
  ASAAS_EMULATOR_INVOICE_BASE_URL: z.string().url().optional(),
  ASAAS_EMULATOR_ACCOUNTS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text) return [];
      try {
        return accountsSchema.parse(JSON.parse(text));
      } catch {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a JSON array of {api_key}' });
        return z.NEVER;
      }
    }),
  ASAAS_EMULATOR_WEBHOOK_RETRIES: z.coerce.number().int().min(0).max(20).default(3),
  ASAAS_EMULATOR_WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(0).default(500),
  /** Set by the local stack only: keep the emulator's accounts and charges in this file across restarts. */
  ASAAS_EMULATOR_STATE_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type EmulatorConfig = Readonly<z.infer<typeof envSchema>>;

export function loadEmulatorConfig(env: NodeJS.ProcessEnv = process.env): EmulatorConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    // Names the variable, never its value (ASAAS_EMULATOR_ACCOUNTS holds API keys).
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid asaas emulator environment: ${problems}`);
  }
  return Object.freeze(parsed.data);
}
