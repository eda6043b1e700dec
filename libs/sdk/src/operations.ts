// Which SDK method calls which operation of the API. Two tests hold this table to the truth:
// libs/sdk/src/operations.spec.ts calls every method named here against a recording HTTP server
// (it must send exactly this method and path) and fails on a public resource method missing from
// the table; the SDK end-to-end suite compares the table with the live /v1/openapi.json (no
// documented operation without an SDK method, no SDK method for an operation the API lacks).

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface SdkOperation {
  method: HttpMethod;
  /** The path as the OpenAPI document spells it, parameters in braces. */
  path: string;
  /** The SDK methods that send it, as `resource.method` on an Orquestra client. */
  sdk: readonly string[];
}

const op = (method: HttpMethod, path: string, ...sdk: string[]): SdkOperation => ({ method, path, sdk });

export const OPERATIONS: readonly SdkOperation[] = [
  op('GET', '/v1/analytics/overview', 'analytics.overview'),
  op('GET', '/v1/balances', 'balances.list'),

  op('GET', '/v1/cards', 'cards.list', 'cards.listAll'),
  op('POST', '/v1/cards', 'cards.create'),
  op('GET', '/v1/cards/{id}', 'cards.retrieve'),
  op('DELETE', '/v1/cards/{id}', 'cards.delete'),
  op('GET', '/v1/cards/config', 'cardsConfig.retrieve'),
  op('PATCH', '/v1/cards/config', 'cardsConfig.update'),

  op('GET', '/v1/customers', 'customers.list', 'customers.listAll'),
  op('GET', '/v1/customers/{id}', 'customers.retrieve'),

  op('GET', '/v1/disputes', 'disputes.list', 'disputes.listAll'),
  op('GET', '/v1/disputes/{id}', 'disputes.retrieve'),
  op('POST', '/v1/disputes/{id}/evidence', 'disputes.submitEvidence'),

  op('GET', '/v1/events', 'events.list', 'events.listAll'),
  op('GET', '/v1/events/{id}', 'events.retrieve'),

  op('GET', '/v1/integration-kinds', 'integrationKinds.list'),
  op('GET', '/v1/integrations', 'integrations.list'),
  op('POST', '/v1/integrations', 'integrations.create'),
  op('GET', '/v1/integrations/{id}', 'integrations.retrieve'),
  op('PATCH', '/v1/integrations/{id}', 'integrations.update'),
  op('DELETE', '/v1/integrations/{id}', 'integrations.delete'),
  op('GET', '/v1/integrations/{id}/deliveries', 'integrations.listDeliveries', 'integrations.listDeliveriesAll'),
  op('POST', '/v1/integrations/{id}/test', 'integrations.test'),

  op('GET', '/v1/payments', 'payments.list', 'payments.listAll'),
  op('POST', '/v1/payments', 'payments.create'),
  op('GET', '/v1/payments/{id}', 'payments.retrieve'),
  op('POST', '/v1/payments/{id}/cancel', 'payments.cancel'),
  op('POST', '/v1/payments/{id}/refund', 'payments.refund'),
  op('POST', '/v1/payments/{id}/sync', 'payments.sync'),
  op('POST', '/v1/payments/{id}/simulate', 'payments.simulate'),
  op('POST', '/v1/payments/{id}/simulate-dispute', 'payments.simulateDispute'),

  op('GET', '/v1/payout-destinations', 'payoutDestinations.list'),
  op('GET', '/v1/payouts', 'payouts.list', 'payouts.listAll'),
  op('POST', '/v1/payouts', 'payouts.create'),
  op('GET', '/v1/payouts/{id}', 'payouts.retrieve'),
  op('POST', '/v1/payouts/{id}/sync', 'payouts.sync'),

  op('GET', '/v1/providers', 'providers.list'),
  op('GET', '/v1/provider-accounts', 'providerAccounts.list'),
  op('POST', '/v1/provider-accounts', 'providerAccounts.create'),
  op('GET', '/v1/provider-accounts/{id}', 'providerAccounts.retrieve'),
  op('POST', '/v1/provider-accounts/{id}', 'providerAccounts.update'),
  op('POST', '/v1/provider-accounts/{id}/enable', 'providerAccounts.enable'),
  op('POST', '/v1/provider-accounts/{id}/disable', 'providerAccounts.disable'),

  op('GET', '/v1/reconciliation-runs', 'reconciliationRuns.list', 'reconciliationRuns.listAll'),
  op('POST', '/v1/reconciliation-runs', 'reconciliationRuns.create'),
  op('GET', '/v1/reconciliation-runs/{id}', 'reconciliationRuns.retrieve'),
  op('GET', '/v1/reconciliation-runs/{id}/findings', 'reconciliationRuns.listFindings', 'reconciliationRuns.listAllFindings'),
  op('GET', '/v1/reconciliation-runs/{id}/findings.csv', 'reconciliationRuns.findingsCsv'),

  op('GET', '/v1/request-logs', 'requestLogs.list', 'requestLogs.listAll'),

  op('GET', '/v1/routing-rules', 'routingRules.list'),
  op('POST', '/v1/routing-rules', 'routingRules.create'),
  op('POST', '/v1/routing-rules/reorder', 'routingRules.reorder'),
  op('GET', '/v1/routing-rules/{id}', 'routingRules.retrieve'),
  op('POST', '/v1/routing-rules/{id}', 'routingRules.update'),
  op('DELETE', '/v1/routing-rules/{id}', 'routingRules.delete'),
  op('POST', '/v1/routing/simulate', 'routing.simulate'),

  op('GET', '/v1/subaccounts', 'subaccounts.list', 'subaccounts.listAll'),
  op('POST', '/v1/subaccounts', 'subaccounts.create'),
  op('GET', '/v1/subaccounts/{id}', 'subaccounts.retrieve'),
  op('PATCH', '/v1/subaccounts/{id}', 'subaccounts.update'),
  op('GET', '/v1/subaccounts/{id}/balance', 'subaccounts.balance'),
  op('POST', '/v1/subaccounts/{id}/onboarding-link', 'subaccounts.onboardingLink'),
  op('POST', '/v1/subaccounts/{id}/sync', 'subaccounts.sync'),
  op('GET', '/v1/subaccounts/{id}/withdrawals', 'subaccounts.withdrawals.list', 'subaccounts.withdrawals.listAll'),
  op('POST', '/v1/subaccounts/{id}/withdrawals', 'subaccounts.withdrawals.create'),

  op('GET', '/v1/subscriptions', 'subscriptions.list', 'subscriptions.listAll'),
  op('POST', '/v1/subscriptions', 'subscriptions.create'),
  op('GET', '/v1/subscriptions/{id}', 'subscriptions.retrieve'),
  op('POST', '/v1/subscriptions/{id}/cancel', 'subscriptions.cancel'),
  op('POST', '/v1/subscriptions/{id}/charge', 'subscriptions.charge'),
  op('POST', '/v1/subscriptions/{id}/simulate', 'subscriptions.simulate'),

  op('GET', '/v1/webhook-endpoints', 'webhookEndpoints.list', 'webhookEndpoints.listAll'),
  op('POST', '/v1/webhook-endpoints', 'webhookEndpoints.create'),
  op('GET', '/v1/webhook-endpoints/{id}', 'webhookEndpoints.retrieve'),
  op('PATCH', '/v1/webhook-endpoints/{id}', 'webhookEndpoints.update'),
  op('DELETE', '/v1/webhook-endpoints/{id}', 'webhookEndpoints.delete'),
  op('POST', '/v1/webhook-endpoints/{id}/rotate-secret', 'webhookEndpoints.rotateSecret'),
  op('GET', '/v1/webhook-endpoints/{id}/deliveries', 'webhookEndpoints.listDeliveries', 'webhookEndpoints.listDeliveriesAll'),
  op('GET', '/v1/webhook-deliveries/{id}', 'webhookDeliveries.retrieve'),
  op('POST', '/v1/webhook-deliveries/{id}/resend', 'webhookDeliveries.resend'),
];

/**
 * Documented operations the SDK deliberately has no method for, with the reason. The end-to-end
 * coverage check accepts these and nothing else.
 */
export const OPERATIONS_OUTSIDE_SDK: Readonly<Record<string, string>> = {
  'POST /v1/webhook-endpoints/{id}': 'the same update as PATCH (webhookEndpoints.update), for clients that cannot send PATCH',
  'GET /v1/openapi.json': 'the API description itself (what this table is checked against), not a resource',
  'GET /v1/cards/fields.js': 'the card fields script, loaded by the buyer’s browser',
  'POST /v1/cards/tokenize': 'called by the card fields in the buyer’s browser with the publishable key: card data never passes through your server',
  'GET /v1/tracking.js': 'the tracking script, loaded by the buyer’s browser',
  'GET /cards/frame': 'the card fields’ iframe page (browser)',
  'GET /pay/{paymentId}': 'the hosted payment page (browser)',
  'POST /pay/{paymentId}': 'the hosted payment page’s form (browser)',
  'GET /pay/{paymentId}/status': 'polled by the hosted payment page (browser)',
  'GET /qr/{paymentId}.png': 'the Pix QR image linked from next_action.qr_code_url',
  'GET /docs': 'the API reference page (HTML)',
  'GET /docs/assets/{file}': 'the scripts and styles of the API reference page',
  'GET /healthz': 'liveness probe of the deployment, not part of the merchant API',
  'GET /readyz': 'readiness probe of the deployment, not part of the merchant API',
  'POST /webhooks/providers/{accountId}': 'where providers notify Orquestra, not merchants',
  'POST /webhooks/providers/{accountId}/{subPath}': 'where providers notify Orquestra, not merchants',
};
