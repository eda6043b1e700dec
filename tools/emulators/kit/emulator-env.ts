/**
 * The environment every emulator reads, validated once by zod: `<NAME>_EMULATOR_API_PORT`,
 * `_CONTROL_PORT`, `_HOST` (0.0.0.0), `_WEBHOOK_RETRIES` (3), `_WEBHOOK_BACKOFF_MS` (500),
 * `_STATE_FILE` (unset: memory only) and `LOG_LEVEL`. An emulator adds its provider's own
 * variables (accounts, certificates, signing keys) to the same schema.
 *
 * @example
 * const envSchema = emulatorEnvSchema('ASAAS', { api: 9452, control: 9453 }, {
 *   ASAAS_EMULATOR_ACCOUNTS: jsonArrayEnv(z.object({ api_key: z.string().min(1) }), 'must be a JSON array of {api_key}'),
 * });
 * const config = parseEmulatorEnv('asaas', envSchema, process.env);
 * config.ASAAS_EMULATOR_API_PORT; // 9452 unless set
 */
import { z } from 'zod';

const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);

const commonShape = (ports: { api: number; control: number }) => ({
  API_PORT: port(ports.api),
  CONTROL_PORT: port(ports.control),
  HOST: z.string().default('0.0.0.0'),
  WEBHOOK_RETRIES: z.coerce.number().int().min(0).max(20).default(3),
  WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(0).default(500),
  /** Set by the local stack only: keep the emulator's accounts and charges in this file across restarts. */
  STATE_FILE: z.string().min(1).optional(),
});

type CommonShape = ReturnType<typeof commonShape>;
type Prefixed<P extends string> = { [K in keyof CommonShape & string as `${P}_EMULATOR_${K}`]: CommonShape[K] };

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/** The common variables under `<prefix>_EMULATOR_`, the emulator's own, and `LOG_LEVEL`. */
export function emulatorEnvSchema<P extends string, S extends z.ZodRawShape>(prefix: P, ports: { api: number; control: number }, own: S) {
  const common = Object.fromEntries(Object.entries(commonShape(ports)).map(([key, schema]) => [`${prefix}_EMULATOR_${key}`, schema])) as Prefixed<P>;
  return z.object({ ...common, ...own, LOG_LEVEL: logLevel });
}

/** A variable holding a JSON array of `item`s (unset or empty: none); `message` says the expected shape. */
export function jsonArrayEnv<T extends z.ZodTypeAny>(item: T, message: string) {
  return z
    .string()
    .optional()
    .transform((text, ctx): z.infer<T>[] => {
      if (!text) return [];
      try {
        return z.array(item).parse(JSON.parse(text));
      } catch {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message });
        return z.NEVER;
      }
    });
}

/** Parses and freezes the environment; a problem names the variable, never its value (they hold keys). */
export function parseEmulatorEnv<S extends z.ZodTypeAny>(name: string, schema: S, env: NodeJS.ProcessEnv): Readonly<z.infer<S>> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid ${name} emulator environment: ${problems}`);
  }
  return Object.freeze(parsed.data);
}

/** The common settings of a parsed environment, as every emulator factory takes them. */
export interface CommonEmulatorSettings {
  apiPort: number;
  controlPort: number;
  host: string;
  webhooks: { retries: number; baseDelayMs: number };
  stateFile?: string;
  logLevel: string;
}

export function commonSettings(prefix: string, config: Record<string, unknown>): CommonEmulatorSettings {
  const read = (key: keyof CommonShape) => config[`${prefix}_EMULATOR_${key}`];
  const stateFile = read('STATE_FILE') as string | undefined;
  return {
    apiPort: read('API_PORT') as number,
    controlPort: read('CONTROL_PORT') as number,
    host: read('HOST') as string,
    webhooks: { retries: read('WEBHOOK_RETRIES') as number, baseDelayMs: read('WEBHOOK_BACKOFF_MS') as number },
    ...(stateFile ? { stateFile } : {}),
    logLevel: config['LOG_LEVEL'] as string,
  };
}
