/** An emulator's pino logger. Credentials, tokens and bodies are redacted wherever they appear. */
import pino, { type Logger } from 'pino';

export type { Logger };

const REDACT_PATHS = [
  'client_secret',
  '*.client_secret',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'access_token',
  '*.access_token',
  'api_key',
  '*.api_key',
  'secret_key',
  '*.secret_key',
  'body',
  '*.body',
  'key',
  '*.key',
];

export function createEmulatorLogger(name: string, level = 'info'): Logger {
  return pino({
    name,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}
