import { AppError, ERROR_CODES, MESSAGES_PT_BR, type ErrorCode } from '@orquestra/platform';
import { httpErrorFor, toHttpError, type HttpErrorShape } from './error-mapper';

// The expected table, written out independently of the implementation. Typed as a full Record,
// so a new platform code fails to compile here too until its status is decided.
const EXPECTED: Record<ErrorCode, HttpErrorShape> = {
  invalid_request: { status: 400, type: 'invalid_request_error' },
  invalid_json: { status: 400, type: 'invalid_request_error' },
  parameter_missing: { status: 400, type: 'invalid_request_error' },
  parameter_invalid: { status: 400, type: 'invalid_request_error' },
  amount_too_small: { status: 400, type: 'invalid_request_error' },
  metadata_invalid: { status: 400, type: 'invalid_request_error' },
  missing_document: { status: 400, type: 'invalid_request_error' },
  missing_email: { status: 400, type: 'invalid_request_error' },
  missing_phone: { status: 400, type: 'invalid_request_error' },
  missing_address: { status: 400, type: 'invalid_request_error' },
  invalid_credentials: { status: 400, type: 'invalid_request_error' },
  no_eligible_account: { status: 422, type: 'invalid_request_error' },
  method_not_available: { status: 422, type: 'invalid_request_error' },
  unauthenticated: { status: 401, type: 'authentication_error' },
  webhook_rejected: { status: 401, type: 'authentication_error' },
  restricted_key: { status: 403, type: 'permission_error' },
  live_mode_forbidden: { status: 403, type: 'permission_error' },
  not_found: { status: 404, type: 'invalid_request_error' },
  route_not_found: { status: 404, type: 'invalid_request_error' },
  idempotency_conflict: { status: 409, type: 'idempotency_error' },
  idempotency_in_progress: { status: 409, type: 'idempotency_error' },
  payment_not_cancelable: { status: 409, type: 'invalid_request_error' },
  payment_already_paid: { status: 409, type: 'invalid_request_error' },
  payment_not_simulatable: { status: 409, type: 'invalid_request_error' },
  payment_not_awaiting_method: { status: 409, type: 'invalid_request_error' },
  payment_not_refundable: { status: 409, type: 'invalid_request_error' },
  refund_amount_exceeds_remaining: { status: 400, type: 'invalid_request_error' },
  refund_not_supported: { status: 422, type: 'invalid_request_error' },
  payment_not_disputable: { status: 409, type: 'invalid_request_error' },
  dispute_not_open: { status: 409, type: 'invalid_request_error' },
  subaccount_not_active: { status: 409, type: 'invalid_request_error' },
  dispute_evidence_not_supported: { status: 422, type: 'invalid_request_error' },
  card_declined: { status: 402, type: 'card_error' },
  card_expired: { status: 402, type: 'card_error' },
  invalid_card: { status: 402, type: 'card_error' },
  account_not_enabled: { status: 422, type: 'invalid_request_error' },
  provider_error: { status: 502, type: 'provider_error' },
  provider_rejected: { status: 502, type: 'provider_error' },
  payouts_api_disabled: { status: 403, type: 'permission_error' },
  csrf_invalid: { status: 403, type: 'permission_error' },
  totp_required: { status: 401, type: 'authentication_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  payout_limit_exceeded: { status: 422, type: 'invalid_request_error' },
  insufficient_balance: { status: 422, type: 'invalid_request_error' },
  payout_refused: { status: 422, type: 'invalid_request_error' },
  all_providers_failed: { status: 502, type: 'provider_error' },
  provider_unavailable: { status: 503, type: 'api_error' },
  provider_rate_limited: { status: 503, type: 'api_error' },
  service_unavailable: { status: 503, type: 'api_error' },
  provider_timeout: { status: 504, type: 'provider_error' },
  internal: { status: 500, type: 'api_error' },
};

describe('error mapper', () => {
  it.each(ERROR_CODES.map((code) => [code]))('maps %s to its status and type', (code) => {
    expect(httpErrorFor(code)).toEqual(EXPECTED[code]);
  });

  it('covers every code of the closed set', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('builds the spec body with the Portuguese message and the param', () => {
    const error = new AppError('parameter_missing', { param: 'customer.name', message: 'O campo customer.name é obrigatório.' });
    expect(toHttpError(error)).toEqual({
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          message: 'O campo customer.name é obrigatório.',
          code: 'parameter_missing',
          param: 'customer.name',
        },
      },
    });
  });

  it('answers param null when no field is at fault', () => {
    expect(toHttpError(new AppError('unauthenticated')).body.error).toEqual({
      type: 'authentication_error',
      message: MESSAGES_PT_BR.unauthenticated,
      code: 'unauthenticated',
      param: null,
    });
  });

  it('never shows the text of an internal error', () => {
    const error = new AppError('internal', { message: 'TypeError: cannot read x of undefined at /src/foo.ts:12' });
    expect(toHttpError(error)).toEqual({
      status: 500,
      body: { error: { type: 'api_error', message: MESSAGES_PT_BR.internal, code: 'internal', param: null } },
    });
  });
});
