import { accounts, analytics, customers, disputes, notifications, owners, payments, payouts, providers, routing, reconciliation, subscriptions, tracking, vault, webhooks } from '@orquestra/contracts';
import { createRpcClient, type RpcClient } from '@orquestra/platform';

/**
 * The downstream methods the gateway calls. Narrow `Pick`s (not whole clients) so that tests and
 * end-to-end harnesses can hand `createApp` a fake with just these methods.
 */
export interface DownstreamClients {
  accounts: Pick<
    RpcClient<accounts.AccountsServiceService>,
    | 'authenticateKey'
    | 'createApiKey'
    | 'revokeApiKey'
    | 'listApiKeys'
    | 'getPayoutSettings'
    | 'setPayoutSettings'
    | 'createPayoutDestination'
    | 'listPayoutDestinations'
    | 'recordRequestLogs'
    | 'listRequestLogs'
  >;
  /** Owners, sessions, TOTP and the audit log live in the accounts service (same address); /dashboard/api only. */
  owners: Pick<
    RpcClient<owners.OwnersServiceService>,
    | 'signUp'
    | 'signIn'
    | 'authenticateSession'
    | 'signOut'
    | 'revokeAllSessions'
    | 'setupTotp'
    | 'enableTotp'
    | 'disableTotp'
    | 'recordAudit'
    | 'listAudit'
  >;
  payments: Pick<
    RpcClient<payments.PaymentsServiceService>,
    | 'createPayment'
    | 'getPayment'
    | 'listPayments'
    | 'cancelPayment'
    | 'simulatePayment'
    | 'syncPayment'
    | 'getPaymentQrCode'
    | 'getPaymentPage'
    | 'choosePaymentMethod'
    | 'recordPageTracking'
    | 'refundPayment'
    | 'getSplitSummary'
  >;
  providers: Pick<
    RpcClient<providers.ProvidersServiceService>,
    'handleWebhook' | 'listProviders' | 'listAccounts' | 'getAccount' | 'connectAccount' | 'updateAccount'
  >;
  routing: Pick<
    RpcClient<routing.RoutingServiceService>,
    'simulate' | 'listRules' | 'getRule' | 'createRule' | 'updateRule' | 'deleteRule' | 'reorderRules'
  >;
  notifications: Pick<RpcClient<notifications.NotificationsServiceService>, 'listEvents' | 'getEvent'>;
  /** Webhook endpoints and deliveries live in the notifications service (same address). */
  webhooks: Pick<
    RpcClient<webhooks.WebhooksServiceService>,
    | 'createWebhookEndpoint'
    | 'listWebhookEndpoints'
    | 'getWebhookEndpoint'
    | 'updateWebhookEndpoint'
    | 'deleteWebhookEndpoint'
    | 'rotateWebhookSecret'
    | 'listWebhookDeliveries'
    | 'getWebhookDelivery'
    | 'resendWebhookDelivery'
  >;
  /** Disputes live in the payments service (same address). */
  disputes: Pick<RpcClient<disputes.DisputesServiceService>, 'simulateDispute' | 'listDisputes' | 'getDispute' | 'submitEvidence'>;
  /** Analytics and reconciliation runs live in the payments service (same address). */
  analytics: Pick<RpcClient<analytics.AnalyticsServiceService>, 'getOverview'>;
  reconciliation: Pick<RpcClient<reconciliation.ReconciliationServiceService>, 'createRun' | 'listRuns' | 'getRun' | 'listFindings'>;
  /** Customer records live in the payments service (same address). */
  customers: Pick<RpcClient<customers.CustomersServiceService>, 'listCustomers' | 'getCustomer' | 'upsertCustomer'>;
  /** Cards config, card fields tokens and saved cards (never RevealCard: that is the providers service's alone). */
  vault: Pick<
    RpcClient<vault.VaultServiceService>,
    'getCardsConfig' | 'updateCardsConfig' | 'tokenize' | 'saveCard' | 'getCard' | 'listCards' | 'deleteCard'
  >;
  /** Payment page visits and the merchant's ad tool integrations. */
  tracking: Pick<
    RpcClient<tracking.TrackingServiceService>,
    | 'recordVisit'
    | 'listIntegrationKinds'
    | 'createIntegration'
    | 'listIntegrations'
    | 'getIntegration'
    | 'updateIntegration'
    | 'deleteIntegration'
    | 'listDeliveries'
    | 'testIntegration'
  >;
  subscriptions: Pick<
    RpcClient<subscriptions.SubscriptionsServiceService>,
    'createSubscription' | 'listSubscriptions' | 'getSubscription' | 'cancelSubscription' | 'simulateSubscription' | 'chargeSubscription'
  >;
  payouts: Pick<
    RpcClient<payouts.PayoutsServiceService>,
    | 'getBalances'
    | 'createPayout'
    | 'listPayouts'
    | 'getPayout'
    | 'syncPayout'
    | 'listPayoutDestinations'
    | 'createSubaccount'
    | 'listSubaccounts'
    | 'getSubaccount'
    | 'updateSubaccount'
    | 'syncSubaccount'
    | 'createSubaccountOnboardingLink'
    | 'getSubaccountBalance'
    | 'createWithdrawal'
    | 'listWithdrawals'
  >;
}

export interface DownstreamAddresses {
  accounts: string;
  payments: string;
  providers: string;
  routing: string;
  notifications: string;
  subscriptions: string;
  payouts: string;
  vault: string;
  tracking: string;
}

/** Real gRPC clients; every call carries `deadlineMs` unless the call overrides it. */
export function createDownstreamClients(
  addresses: DownstreamAddresses,
  deadlineMs: number,
): DownstreamClients & { close(): void } {
  const clients = {
    accounts: createRpcClient(accounts.AccountsServiceService, addresses.accounts, { deadlineMs }),
    owners: createRpcClient(owners.OwnersServiceService, addresses.accounts, { deadlineMs }),
    payments: createRpcClient(payments.PaymentsServiceService, addresses.payments, { deadlineMs }),
    providers: createRpcClient(providers.ProvidersServiceService, addresses.providers, { deadlineMs }),
    routing: createRpcClient(routing.RoutingServiceService, addresses.routing, { deadlineMs }),
    notifications: createRpcClient(notifications.NotificationsServiceService, addresses.notifications, { deadlineMs }),
    webhooks: createRpcClient(webhooks.WebhooksServiceService, addresses.notifications, { deadlineMs }),
    disputes: createRpcClient(disputes.DisputesServiceService, addresses.payments, { deadlineMs }),
    customers: createRpcClient(customers.CustomersServiceService, addresses.payments, { deadlineMs }),
    analytics: createRpcClient(analytics.AnalyticsServiceService, addresses.payments, { deadlineMs }),
    reconciliation: createRpcClient(reconciliation.ReconciliationServiceService, addresses.payments, { deadlineMs }),
    subscriptions: createRpcClient(subscriptions.SubscriptionsServiceService, addresses.subscriptions, { deadlineMs }),
    payouts: createRpcClient(payouts.PayoutsServiceService, addresses.payouts, { deadlineMs }),
    vault: createRpcClient(vault.VaultServiceService, addresses.vault, { deadlineMs }),
    tracking: createRpcClient(tracking.TrackingServiceService, addresses.tracking, { deadlineMs }),
  };
  return {
    ...clients,
    close: () => {
      for (const client of Object.values(clients)) client.close();
    },
  };
}
