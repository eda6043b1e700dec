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
