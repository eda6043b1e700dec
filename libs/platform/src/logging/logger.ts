import pino, { type Logger } from 'pino';

/**
 * Paths pino removes from every log line. Credentials, API keys, card data and webhook bodies never
 * reach the log output, even if a caller logs an object that contains them.
 */
export const REDACT_PATHS = [
  'secret',
  '*.secret',
  'credentials',
  '*.credentials',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  '*.headers.authorization',
  'client_secret',
  '*.client_secret',
  'certificate',
  '*.certificate',
  'card',
  '*.card',
  'body',
  '*.body',
];

export type { Logger };

export function createLogger(options: { service: string; level: string }): Logger {
  return pino({
    name: options.service,
    level: options.level,
    base: { service: options.service },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}
