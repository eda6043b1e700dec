/** The emulator's environment, validated once. The only place that reads `process.env`. */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';

const clientsSchema = z.array(
  z.object({ client_id: z.string().min(1), client_secret: z.string().min(1), chave: z.string().min(1) }),
);

const envSchema = z.object({
  EFI_EMULATOR_API_PORT: z.coerce.number().int().min(0).max(65_535).default(9443),
  EFI_EMULATOR_CONTROL_PORT: z.coerce.number().int().min(0).max(65_535).default(9444),
  EFI_EMULATOR_HOST: z.string().default('0.0.0.0'),
  EFI_EMULATOR_CERT_DIR: z.string().optional(),
  EFI_EMULATOR_CLIENTS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text) return [];
      try {
        return clientsSchema.parse(JSON.parse(text));
      } catch {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a JSON array of {client_id, client_secret, chave}' });
        return z.NEVER;
      }
    }),
  EFI_EMULATOR_WEBHOOK_RETRIES: z.coerce.number().int().min(0).max(20).default(3),
  EFI_EMULATOR_WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(0).default(500),
  /**
   * Check a webhook receiver on registration (test POST `{"evento":"teste_webhook"}`, must get a
   * 2xx), as Efí does. Off by default for the local stack: its providers service registers the
   * webhook before it stores the account, so the receiver cannot yet answer the test with a 2xx.
   */
  EFI_EMULATOR_VERIFY_WEBHOOKS: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /** How long a devolução stays EM_PROCESSAMENTO before it settles (and its webhook is sent). */
  EFI_EMULATOR_REFUND_SETTLE_MS: z.coerce.number().int().min(0).max(600_000).default(300),
  /** Set by the local stack only: keep the emulator's accounts and charges in this file across restarts. */
  EFI_EMULATOR_STATE_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type EmulatorConfig = Readonly<Omit<z.infer<typeof envSchema>, 'EFI_EMULATOR_CERT_DIR'> & { certDir: string }>;

/** The repository root: the nearest ancestor holding nx.json (works from src/ and from dist/). */
export function findRepoRoot(from: string): string {
  let dir = resolve(from);
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

export function loadEmulatorConfig(env: NodeJS.ProcessEnv = process.env): EmulatorConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid efi emulator environment: ${problems}`);
  }
  const { EFI_EMULATOR_CERT_DIR, ...rest } = parsed.data;
  return Object.freeze({ ...rest, certDir: EFI_EMULATOR_CERT_DIR ?? join(findRepoRoot(__dirname), '.local', 'certs') });
}
