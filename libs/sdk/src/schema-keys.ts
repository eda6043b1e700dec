import type { Dispute } from './types/dispute.types';
import type { Event } from './types/event.types';
import type { NextAction, Payment, PaymentAttempt, PaymentDetail, Refund } from './types/payment.types';
import type { Balance, BalanceList, Payout, PayoutDestination } from './types/payout.types';
import type { Provider, ProviderAccount } from './types/provider.types';
import type { RoutingRule, RoutingSimulation } from './types/routing.types';
import type { Subaccount, SubaccountBalance, SubaccountDetail, SubaccountOnboardingLink } from './types/subaccount.types';
import type { Subscription, SubscriptionApproval, SubscriptionCustomer, SubscriptionDetail } from './types/subscription.types';
import type { WebhookDelivery, WebhookEndpoint } from './types/webhook-endpoint.types';
import type { CustomerRecord } from './types/customer.types';
import type { Card, CardsConfig, DeletedCard } from './types/card.types';
import type { DeletedIntegration, Integration, IntegrationDelivery, IntegrationDeliveryResponse, IntegrationField, IntegrationKind } from './types/integration.types';
import type { AnalyticsDayFigures, AnalyticsFigures, AnalyticsMethodFigures, AnalyticsOverview, AnalyticsProviderFigures } from './types/analytics.types';
import type { ReconciliationAccountReport, ReconciliationFinding, ReconciliationRun } from './types/reconciliation.types';
import type { RequestLog } from './types/request-log.types';
import type { ApiErrorBody } from './errors';

// The fields of each SDK type, by the name of the OpenAPI schema it mirrors. `fields<T>()` only
// compiles when the list names every key of T and nothing else, so this table and the types
// cannot disagree; a test holds the table against the live document (tools/e2e sdk suite), so
// the types cannot silently drift from the API.

type Exhaustive<T> = { [K in keyof T]-?: true };
const fields = <T>(keys: Exhaustive<T>): string[] => Object.keys(keys);

export const SCHEMA_FIELDS: Record<string, string[]> = {
  Payment: fields<Payment>({
    id: true, object: true, mode: true, method: true, status: true, amount: true, amount_refunded: true, currency: true, fee: true,
    net: true, provider: true, provider_account_id: true, provider_payment_id: true, next_action: true, metadata: true,
    failure_reason: true, failure_code: true, end_to_end_id: true, subscription_id: true, splits: true, payment_url: true,
    expires_at: true, tracking: true, customer: true, description: true, created_at: true, updated_at: true,
  }),
  PaymentDetail: fields<Omit<PaymentDetail, keyof Payment>>({ attempts: true, refunds: true, events: true }),
  NextAction: fields<NextAction>({ type: true, qr_code: true, qr_code_base64: true, qr_code_url: true, digitable_line: true, url: true }),
  PaymentAttempt: fields<PaymentAttempt>({
    id: true, object: true, provider_account_id: true, provider: true, outcome: true, failure_code: true, failure_reason: true,
    latency_ms: true, created_at: true,
  }),
  Refund: fields<Refund>({
    id: true, object: true, payment_id: true, amount: true, status: true, reason: true, source: true, provider_refund_id: true,
    failure_code: true, failure_reason: true, created_at: true, updated_at: true,
  }),
  Subscription: fields<Subscription>({
    id: true, object: true, mode: true, status: true, amount: true, first_amount: true, currency: true, frequency: true,
    start_date: true, end_date: true, next_charge_date: true, description: true, retry: true, provider: true,
    provider_account_id: true, approval: true, customer: true, metadata: true, tracking: true, created_at: true, updated_at: true,
  }),
  SubscriptionDetail: fields<Omit<SubscriptionDetail, keyof Subscription>>({ payments: true }),
  SubscriptionApproval: fields<SubscriptionApproval>({ qr_code: true, qr_code_base64: true, url: true }),
  SubscriptionCustomer: fields<SubscriptionCustomer>({ id: true, name: true, document: true }),
  Payout: fields<Payout>({
    id: true, object: true, mode: true, status: true, amount: true, amount_requested: true, whole_balance: true, fee: true, currency: true,
    provider: true, provider_account_id: true, subaccount_id: true, destination: true, uncertain: true, description: true, metadata: true, failure_code: true, failure_reason: true,
    paid_at: true, created_at: true, updated_at: true,
  }),
  PayoutDestination: fields<PayoutDestination>({ type: true, destination_id: true, key_type: true, key: true, label: true }),
  Balance: fields<Balance>({
    provider_account_id: true, provider: true, name: true, available: true, pending: true, currency: true, as_of: true,
    payouts_supported: true, destination_types: true, error: true,
  }),
  BalanceList: fields<BalanceList>({ object: true, data: true, payouts_api_enabled: true }),
  Subaccount: fields<Subaccount>({
    id: true, object: true, mode: true, status: true, status_detail: true, provider: true, provider_account_id: true,
    provider_subaccount_id: true, type: true, name: true, document: true, email: true, details: true, metadata: true, created_at: true,
    updated_at: true,
  }),
  SubaccountDetail: fields<Omit<SubaccountDetail, keyof Subaccount>>({ totals: true, recent_split_payments: true }),
  SubaccountOnboardingLink: fields<SubaccountOnboardingLink>({ url: true, expires_at: true, qr_code_base64: true }),
  SubaccountBalance: fields<SubaccountBalance>({ object: true, available: true, pending: true, currency: true, as_of: true }),
  Event: fields<Event>({ id: true, object: true, type: true, created: true, data: true }),
  Provider: fields<Provider>({ code: true, object: true, name: true, credential_fields: true, capabilities: true, amount_unit: true, notes: true }),
  ProviderAccount: fields<ProviderAccount>({
    id: true, object: true, mode: true, provider: true, name: true, priority: true, enabled: true, methods: true, customer_requires: true,
    fees: true, credentials_last4: true, breaker_state: true, keeps_metadata: true, webhook_url: true, webhook_manual_setup: true,
    created_at: true, updated_at: true,
  }),
  RoutingRule: fields<RoutingRule>({
    id: true, object: true, mode: true, name: true, priority: true, enabled: true, conditions: true, target: true, created_at: true,
    updated_at: true,
  }),
  RoutingSimulation: fields<RoutingSimulation>({ object: true, candidates: true, accounts: true, matched_rule_id: true, error: true }),
  Dispute: fields<Dispute>({
    id: true, object: true, kind: true, status: true, amount: true, reason: true, due_at: true, payment_id: true, provider: true,
    mode: true, evidence: true, created_at: true, updated_at: true, closed_at: true,
  }),
  WebhookEndpoint: fields<WebhookEndpoint>({
    id: true, object: true, url: true, events: true, only_source: true, description: true, enabled: true, disabled_reason: true,
    mode: true, failing_since: true, previous_secret_expires_at: true, created_at: true, updated_at: true,
  }),
  WebhookDelivery: fields<WebhookDelivery>({
    id: true, object: true, endpoint_id: true, event_id: true, event_type: true, status: true, attempts: true, next_attempt_at: true,
    created_at: true, updated_at: true,
  }),
  CustomerRecord: fields<CustomerRecord>({
    id: true, object: true, name: true, email: true, document: true, phone: true, mode: true, created_at: true, updated_at: true,
  }),
  Card: fields<Card>({
    id: true, object: true, mode: true, brand: true, last4: true, exp_month: true, exp_year: true, holder_name: true, fingerprint: true,
    customer: true, cvc_available_until: true, metadata: true, created_at: true,
  }),
  DeletedCard: fields<Omit<DeletedCard, keyof Card>>({ deleted: true }),
  CardsConfig: fields<CardsConfig>({ object: true, mode: true, script: true, publishable_key: true, allowed_origins: true, enabled: true }),
  IntegrationKind: fields<IntegrationKind>({ id: true, object: true, name: true, description: true, credentials: true, options: true, sends: true }),
  IntegrationField: fields<IntegrationField>({ name: true, label: true, required: true, description: true }),
  Integration: fields<Integration>({
    id: true, object: true, kind: true, name: true, enabled: true, sales: true, options: true, credentials_last4: true, created_at: true,
    updated_at: true,
  }),
  DeletedIntegration: fields<Omit<DeletedIntegration, keyof Integration>>({ deleted: true }),
  IntegrationDelivery: fields<IntegrationDelivery>({
    id: true, object: true, integration_id: true, payment_id: true, event: true, test: true, status: true, reason: true, reason_text: true,
    attempts: true, next_attempt_at: true, request: true, response: true, created_at: true, updated_at: true, delivered_at: true,
  }),
  IntegrationDeliveryResponse: fields<IntegrationDeliveryResponse>({ status: true, body: true }),
  ReconciliationRun: fields<ReconciliationRun>({
    id: true, object: true, mode: true, status: true, start: true, end: true, fix: true, accounts: true, created_at: true,
    completed_at: true, failure_reason: true,
  }),
  ReconciliationAccountReport: fields<ReconciliationAccountReport>({
    provider_account_id: true, provider: true, status: true, listed: true, matched: true, missing_at_provider: true,
    unknown_to_orquestra: true, status_differences: true, amount_differences: true, fee_differences: true, refund_differences: true,
    fixed: true, error: true, notes: true,
  }),
  ReconciliationFinding: fields<ReconciliationFinding>({
    id: true, object: true, run_id: true, provider_account_id: true, kind: true, payment_id: true, provider_payment_id: true,
    ours: true, theirs: true, fix_result: true, created_at: true,
  }),
  AnalyticsOverview: fields<AnalyticsOverview>({
    object: true, mode: true, start: true, end: true, timezone: true, totals: true, by_provider: true, by_method: true, daily: true,
  }),
  AnalyticsFigures: fields<AnalyticsFigures>({
    gross: true, refunded: true, fees: true, net: true, created: true, approved: true, refused: true, canceled: true, pending: true,
    approval_rate: true,
  }),
  AnalyticsProviderFigures: fields<AnalyticsProviderFigures>({
    provider_account_id: true, provider: true, gross: true, refunded: true, fees: true, net: true, created: true, approved: true,
    refused: true, canceled: true, pending: true, approval_rate: true, by_method: true,
  }),
  AnalyticsMethodFigures: fields<AnalyticsMethodFigures>({
    method: true, gross: true, refunded: true, fees: true, net: true, created: true, approved: true, refused: true, canceled: true,
    pending: true, approval_rate: true,
  }),
  AnalyticsDayFigures: fields<AnalyticsDayFigures>({
    date: true, gross: true, refunded: true, fees: true, net: true, created: true, approved: true, refused: true, canceled: true,
    pending: true, approval_rate: true,
  }),
  RequestLog: fields<RequestLog>({
    id: true, object: true, request_id: true, method: true, path: true, status: true, duration_ms: true, mode: true, key_id: true,
    key_last4: true, created_at: true,
  }),
  ErrorBody: fields<ApiErrorBody>({ type: true, message: true, code: true, param: true }),
};
