import type { ErrorCode } from '@orquestra/platform';

/**
 * A request field the domain refused: the normalized code, the offending field in the API's dotted
 * form (`customer.document`) and a Portuguese message that says what to send instead. The gRPC
 * layer turns it into an `AppError` with the same three values; the domain returns it as data
 * because bad input is an expected outcome, not a fault.
 */
export interface InputError {
  code: Extract<ErrorCode, 'parameter_missing' | 'parameter_invalid' | 'amount_too_small' | 'metadata_invalid'>;
  param: string;
  message: string;
}

/** What a validation returns: the checked value, or the first field refused. */
export type Validated<T> = { ok: true; value: T } | { ok: false; error: InputError };

export const accept = <T>(value: T): Validated<T> => ({ ok: true, value });
export const refuse = (code: InputError['code'], param: string, message: string): { ok: false; error: InputError } => ({
  ok: false,
  error: { code, param, message },
});
