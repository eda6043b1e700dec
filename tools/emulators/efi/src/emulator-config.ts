/** The emulator's environment, validated once. The only place that reads `process.env`. */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { emulatorEnvSchema, jsonArrayEnv, parseEmulatorEnv } from '../../kit';

const clientSchema = z.object({ client_id: z.string().min(1), client_secret: z.string().min(1), chave: z.string().min(1) });

const envSchema = emulatorEnvSchema('EFI', { api: 9443, control: 9444 }, {
  EFI_EMULATOR_CERT_DIR: z.string().optional(),
  EFI_EMULATOR_CLIENTS: jsonArrayEnv(clientSchema, 'must be a JSON array of {client_id, client_secret, chave}'),
  /**
   * Check a webhook receiver on registration (test POST `{"evento":"teste_webhook"}`, must get a
   * 2xx), as Efí does. Off by default for the local stack: its providers service registers the
   * webhook before it stores the account, so the receiver cannot yet answer the test with a 2xx.
   */
  EFI_EMULATOR_VERIFY_WEBHOOKS: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /** How long a devolução stays EM_PROCESSAMENTO before it settles (and its webhook is sent). */
  EFI_EMULATOR_REFUND_SETTLE_MS: z.coerce.number().int().min(0).max(600_000).default(300),
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
  const { EFI_EMULATOR_CERT_DIR, ...rest } = parseEmulatorEnv('efi', envSchema, env);
  return Object.freeze({ ...rest, certDir: EFI_EMULATOR_CERT_DIR ?? join(findRepoRoot(__dirname), '.local', 'certs') });
}
