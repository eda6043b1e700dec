/**
 * The closed set of normalized error codes. Every error that crosses a service boundary carries
 * one of these; the gateway maps them to HTTP statuses and the spec's error body in one place.
 */
export const ERROR_CODES = [
  'invalid_request',
  'invalid_json',
  'parameter_missing',
  'parameter_invalid',
  'amount_too_small',
  'metadata_invalid',
  'not_found',
  'route_not_found',
  'unauthenticated',
  'restricted_key',
  'live_mode_forbidden',
  'idempotency_conflict',
  'idempotency_in_progress',
  'payment_not_cancelable',
  'payment_already_paid',
  'payment_not_simulatable',
  'payment_not_awaiting_method',
  'payment_not_refundable',
  'refund_amount_exceeds_remaining',
  'refund_not_supported',
  'payment_not_disputable',
  'dispute_not_open',
  'dispute_evidence_not_supported',
  'no_eligible_account',
  'method_not_available',
  'missing_document',
  'missing_email',
  'missing_phone',
  'missing_address',
  'invalid_credentials',
  'provider_unavailable',
  'provider_timeout',
  'provider_rate_limited',
  'provider_error',
  'provider_rejected',
  'all_providers_failed',
  'card_declined',
  'webhook_rejected',
  'payouts_api_disabled',
  'payout_limit_exceeded',
  'insufficient_balance',
  'payout_refused',
  'subaccount_not_active',
  'card_expired',
  'invalid_card',
  'account_not_enabled',
  'csrf_invalid',
  'totp_required',
  'rate_limited',
  'service_unavailable',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: string): value is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(value);
}
