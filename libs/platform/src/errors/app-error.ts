import { type ErrorCode } from './error-codes';
import { MESSAGES_PT_BR } from './messages.pt-br';

export interface AppErrorOptions {
  /** The offending field, in the public API's dotted form (`customer.document`). */
  param?: string;
  /** Overrides the catalogue's default Portuguese message. */
  message?: string;
  cause?: unknown;
  /** When to try again (a rate limit's window, an outage's pause): the HTTP answer's Retry-After. */
  retryAfterSeconds?: number;
}

/**
 * The one error type that crosses layers: a normalized code, a Portuguese message that says what
 * to do, and the offending param. Raised for every expected failure; anything else is a bug and
 * becomes `internal`.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly param: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.message ?? MESSAGES_PT_BR[code], { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.param = options.param;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
