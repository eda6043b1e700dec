import { status as GrpcStatus } from '@grpc/grpc-js';
import type { ErrorCode } from '../errors';

/** Normalized error code → gRPC status. The one place this mapping lives. */
export function grpcStatusFor(code: ErrorCode): GrpcStatus {
  switch (code) {
    case 'invalid_request':
    case 'invalid_json':
    case 'parameter_missing':
    case 'parameter_invalid':
    case 'amount_too_small':
    case 'refund_amount_exceeds_remaining':
    case 'metadata_invalid':
    case 'missing_document':
    case 'missing_email':
    case 'missing_phone':
    case 'missing_address':
    case 'invalid_credentials':
      return GrpcStatus.INVALID_ARGUMENT;
    case 'not_found':
    case 'route_not_found':
      return GrpcStatus.NOT_FOUND;
    case 'unauthenticated':
    case 'totp_required':
      return GrpcStatus.UNAUTHENTICATED;
    case 'csrf_invalid':
      return GrpcStatus.PERMISSION_DENIED;
    case 'rate_limited':
      return GrpcStatus.RESOURCE_EXHAUSTED;
    case 'restricted_key':
    case 'live_mode_forbidden':
    case 'payouts_api_disabled':
      return GrpcStatus.PERMISSION_DENIED;
    case 'idempotency_conflict':
    case 'idempotency_in_progress':
      return GrpcStatus.ALREADY_EXISTS;
    case 'payment_not_cancelable':
    case 'payment_already_paid':
    case 'payment_not_simulatable':
    case 'payment_not_awaiting_method':
    case 'payment_not_refundable':
    case 'payment_not_disputable':
    case 'dispute_not_open':
    case 'dispute_evidence_not_supported':
    case 'refund_not_supported':
    case 'no_eligible_account':
    case 'method_not_available':
    case 'card_declined':
    case 'provider_rejected':
    case 'webhook_rejected':
    case 'payout_limit_exceeded':
    case 'insufficient_balance':
    case 'payout_refused':
    case 'subaccount_not_active':
    case 'card_expired':
    case 'invalid_card':
    case 'account_not_enabled':
      return GrpcStatus.FAILED_PRECONDITION;
    case 'provider_rate_limited':
      return GrpcStatus.RESOURCE_EXHAUSTED;
    case 'provider_timeout':
      return GrpcStatus.DEADLINE_EXCEEDED;
    case 'provider_unavailable':
    case 'provider_error':
    case 'all_providers_failed':
    case 'service_unavailable':
      return GrpcStatus.UNAVAILABLE;
    case 'internal':
      return GrpcStatus.INTERNAL;
  }
}

/** Metadata keys that carry the normalized error across a gRPC hop. */
export const ERROR_CODE_KEY = 'orq-error-code';
export const ERROR_PARAM_KEY = 'orq-error-param';
/** Seconds until the caller may try again (AppError.retryAfterSeconds), when the error says so. */
export const ERROR_RETRY_AFTER_KEY = 'orq-error-retry-after';
export const REQUEST_ID_KEY = 'x-request-id';
