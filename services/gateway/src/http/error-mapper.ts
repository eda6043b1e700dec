import { AppError, MESSAGES_PT_BR, assertNever, type ErrorCode } from '@orquestra/platform';
import type { ERROR_TYPES, ErrorBodySchema } from '../schemas/error.response.schema';
import type { z } from '../schemas/zod-openapi';

/** The spec's error `type` values (§7 names the field; the set is ours). */
export type ErrorType = (typeof ERROR_TYPES)[number];

export interface HttpErrorShape {
  status: number;
  type: ErrorType;
}

/** The spec's error body (§7), typed by the schema the OpenAPI document shows. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/**
 * Normalized code → HTTP status and error type. The one place this mapping lives; the switch is
 * exhaustive, so adding a code to the platform's closed set fails to compile until it is mapped here.
 *
 * Choices where the spec is silent:
 * - 422 for `no_eligible_account`, `method_not_available` and `refund_not_supported`: the request is well formed, but
 *   nothing connected in this mode can serve it (same family as the spec's 422 for payouts).
 * - 409 for state conflicts (`payment_not_cancelable`, …) and idempotency conflicts; the latter
 *   get their own type so a client can tell "retry with the same key later" apart.
 * - 502 when a provider answered badly, 503 when it (or one of our services) was unreachable or
 *   throttled (safe to retry), 504 when a provider timed out (outcome unknown: read before retrying).
 * - `webhook_rejected` (a provider webhook failed its authentication) → 401.
 */
export function httpErrorFor(code: ErrorCode): HttpErrorShape {
  switch (code) {
    case 'invalid_request':
    case 'invalid_json':
    case 'parameter_missing':
    case 'parameter_invalid':
    case 'amount_too_small':
    case 'metadata_invalid':
    case 'missing_document':
    case 'missing_email':
    case 'missing_phone':
    case 'missing_address':
    case 'invalid_credentials':
      return { status: 400, type: 'invalid_request_error' };
    case 'no_eligible_account':
    case 'method_not_available':
    case 'payout_limit_exceeded':
    case 'insufficient_balance':
    case 'payout_refused':
    case 'account_not_enabled':
      return { status: 422, type: 'invalid_request_error' };
    case 'unauthenticated':
    case 'webhook_rejected':
    case 'totp_required':
      return { status: 401, type: 'authentication_error' };
    case 'restricted_key':
    case 'live_mode_forbidden':
    case 'payouts_api_disabled':
    case 'csrf_invalid':
      return { status: 403, type: 'permission_error' };
    case 'rate_limited':
      return { status: 429, type: 'rate_limit_error' };
    case 'not_found':
    case 'route_not_found':
      return { status: 404, type: 'invalid_request_error' };
    case 'idempotency_conflict':
    case 'idempotency_in_progress':
      return { status: 409, type: 'idempotency_error' };
    case 'payment_not_cancelable':
    case 'payment_already_paid':
    case 'payment_not_simulatable':
    case 'payment_not_awaiting_method':
    case 'payment_not_refundable':
    case 'payment_not_disputable':
    case 'dispute_not_open':
    case 'subaccount_not_active':
      return { status: 409, type: 'invalid_request_error' };
    case 'dispute_evidence_not_supported':
      return { status: 422, type: 'invalid_request_error' };
    case 'refund_amount_exceeds_remaining':
      return { status: 400, type: 'invalid_request_error' };
    case 'refund_not_supported':
      return { status: 422, type: 'invalid_request_error' };
    case 'card_declined':
    case 'card_expired':
    case 'invalid_card':
      return { status: 402, type: 'card_error' };
    case 'provider_error':
    case 'provider_rejected':
    case 'all_providers_failed':
      return { status: 502, type: 'provider_error' };
    case 'provider_unavailable':
    case 'provider_rate_limited':
    case 'service_unavailable':
      return { status: 503, type: 'api_error' };
    case 'provider_timeout':
      return { status: 504, type: 'provider_error' };
    case 'internal':
      return { status: 500, type: 'api_error' };
    default:
      return assertNever(code);
  }
}

/**
 * The HTTP answer for an AppError. `internal` always carries the catalogue text: whatever a
 * downstream put in its message is never shown to a client.
 */
export function toHttpError(error: AppError): { status: number; body: ErrorBody } {
  const { status, type } = httpErrorFor(error.code);
  const message = error.code === 'internal' || !error.message ? MESSAGES_PT_BR[error.code] : error.message;
  return { status, body: { error: { type, message, code: error.code, param: error.param ?? null } } };
}
