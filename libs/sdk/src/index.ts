// @orquestra/node — a typed client for the Orquestra REST API (Node.js ≥ 20).
export { Orquestra } from './client';
export type { ApiResponse, ClientOptions, LastResponse, RequestOptions, RequestSpec, WithLastResponse } from './http/transport';
export { SDK_VERSION, Transport } from './http/transport';
export { DEFAULT_RETRY_SETTINGS, type RetrySettings } from './http/retry-policy';
export * from './errors';
export * from './types/common.types';
export * from './types/payment.types';
export * from './types/subscription.types';
export * from './types/payout.types';
export * from './types/subaccount.types';
export * from './types/event.types';
export * from './types/provider.types';
export * from './types/routing.types';
export * from './types/dispute.types';
export * from './types/customer.types';
export * from './types/card.types';
export * from './types/webhook-endpoint.types';
export * from './types/integration.types';
export * from './types/reconciliation.types';
export * from './types/analytics.types';
export * from './types/request-log.types';
export type { IdempotentCallOptions, ListPromise } from './resources/resource';
export {
  constructEvent,
  computeSignature,
  generateTestHeader,
  verifySignature,
  webhooks,
  SignatureVerificationError,
  SIGNATURE_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyOptions,
} from './webhooks/signature';
export { SCHEMA_FIELDS } from './schema-keys';
export { OPERATIONS, OPERATIONS_OUTSIDE_SDK, type HttpMethod, type SdkOperation } from './operations';
