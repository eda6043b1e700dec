import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

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
  // Card numbers and security codes under their own names (the vault's Tokenize and RevealCard
  // messages, a card object logged whole). An address's `number` is redacted too: harmless.
  'number',
  '*.number',
  '*.*.number',
  'cvc',
  '*.cvc',
  '*.*.cvc',
  // The providers' own names for them (Pagar.me cvv, Asaas ccv/creditCard, Mercado Pago card_number/security_code).
  ...['cvv', 'ccv', 'creditCard', 'card_number', 'security_code', 'vaultCard'].flatMap((name) => [name, `*.${name}`, `*.*.${name}`]),
  'body',
  '*.body',
  // Owners' passwords, session tokens, TOTP codes and the session cookie (issue 19).
  ...['password', 'token', 'totp_code', 'cookie'].flatMap((name) => [name, `*.${name}`, `*.*.${name}`]),
];

export type { Logger };

export type LogFormat = 'pretty' | 'json';

/**
 * How a service writes its log: readable lines (pino-pretty) when its output is a terminal, one JSON
 * object per line otherwise (a file, a pipe, a container's log collector). LOG_FORMAT=json|pretty
 * (the service's config) overrides the choice either way.
 */
export function chooseLogFormat(isTTY: boolean | undefined, requested: LogFormat | 'auto' = 'auto'): LogFormat {
  if (requested !== 'auto') return requested;
  return isTTY ? 'pretty' : 'json';
}

export function createLogger(options: { service: string; level: string; format?: LogFormat | 'auto' }): Logger {
  const format = chooseLogFormat(process.stdout.isTTY, options.format);
  const settings = {
    name: options.service,
    level: options.level,
    base: { service: options.service },
    // Redaction happens before the line is formatted, so pretty output is redacted the same way.
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (format === 'json') return pino(settings);
  // pino-pretty as a stream in this thread (not a worker transport): services are bundled, and the
  // stream needs no worker file beside the bundle. The level is a label here (the formatter above).
  return pino(settings, pretty({ sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' }));
}
