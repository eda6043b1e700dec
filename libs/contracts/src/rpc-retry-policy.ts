/**
 * Which RPCs a client may send again after UNAVAILABLE (the replica it reached died or its
 * connection dropped, possibly after the handler ran). Every method of every service is classified
 * here (a unit spec fails on an unclassified one), so a new RPC is never retried by accident:
 *
 * - `retry`: repeating it changes nothing that was not already changed (reads, and writes that are
 *   idempotent by their own key such as CreateCyclePayment's caller-chosen payment_id).
 * - `keyed`: a write that replays under its `idempotency_key`: retried only when the request
 *   carries a non-empty key (a request without one is sent once).
 * - Any method not listed in either is sent once: its caller decides what UNAVAILABLE means
 *   (payments treats a providers charge it could not confirm through its own recheck/orphan paths).
 *
 * Names are the proto's (service full name, method name), as the gRPC service config wants them.
 */
export interface RpcRetryClass {
  retry: readonly string[];
  keyed: readonly string[];
  once: readonly string[];
}

export const RPC_RETRY_POLICY: Readonly<Record<string, RpcRetryClass>> = {
  'orquestra.accounts.v1.AccountsService': {
    // AuthenticateKey's only write is a last-use stamp guarded to once a minute.
    retry: ['AuthenticateKey', 'GetMerchant', 'ListApiKeys', 'GetPayoutSettings', 'ListPayoutDestinations', 'GetPayoutDestination', 'ListRequestLogs'],
    keyed: [],
    once: ['CreateMerchant', 'CreateApiKey', 'RevokeApiKey', 'SetPayoutSettings', 'CreatePayoutDestination', 'RecordRequestLogs'],
  },
  'orquestra.accounts.v1.OwnersService': {
    retry: ['AuthenticateSession', 'ListAudit'],
    keyed: [],
    // SignIn charges its rate limit per attempt: a repeat would charge it twice.
    once: ['SignUp', 'SignIn', 'SignOut', 'RevokeAllSessions', 'CreateOwner', 'SetupTotp', 'EnableTotp', 'DisableTotp', 'RecordAudit'],
  },
  'orquestra.accounts.v1.OAuthStoreService': {
    retry: ['FindModel', 'FindModelByUid', 'FindModelByUserCode', 'ListApps', 'ListAuthorizations'],
    keyed: [],
    once: ['UpsertModel', 'ConsumeModel', 'DestroyModel', 'RevokeByGrantId', 'RegisterApp', 'DeleteApp', 'RevokeAuthorization'],
  },
  'orquestra.payments.v1.PaymentsService': {
    // CreateCyclePayment is idempotent on the payment_id its caller chooses.
    retry: ['GetPayment', 'ListPayments', 'GetPaymentQrCode', 'GetPaymentPage', 'GetSplitSummary', 'CreateCyclePayment'],
    keyed: ['CreatePayment', 'RefundPayment'],
    once: ['CancelPayment', 'SimulatePayment', 'SyncPayment', 'ChoosePaymentMethod', 'RecordPageTracking'],
  },
  'orquestra.payments.v1.DisputesService': {
    retry: ['ListDisputes', 'GetDispute'],
    keyed: [],
    once: ['SimulateDispute', 'SubmitEvidence'],
  },
  'orquestra.payments.v1.CustomersService': {
    retry: ['ListCustomers', 'GetCustomer'],
    keyed: [],
    once: ['UpsertCustomer'],
  },
  'orquestra.payments.v1.AnalyticsService': { retry: ['GetOverview'], keyed: [], once: [] },
  'orquestra.payments.v1.ReconciliationService': {
    retry: ['ListRuns', 'GetRun', 'ListFindings'],
    keyed: [],
    once: ['CreateRun'],
  },
  'orquestra.routing.v1.RoutingService': {
    retry: ['Route', 'Simulate', 'ListRules', 'GetRule'],
    keyed: [],
    once: ['CreateRule', 'UpdateRule', 'DeleteRule', 'ReorderRules'],
  },
  'orquestra.providers.v1.ProvidersService': {
    retry: [
      'ListProviders',
      'ListAccounts',
      'GetAccount',
      'GetCharge',
      'GetRecurrence',
      'GetCycleCharge',
      'GetBalance',
      'GetTransfer',
      'GetSubaccount',
      'GetSubaccountBalance',
      'ListCharges',
    ],
    // payments keys every charge per (payment, account): a repeat at the same account replays.
    keyed: ['CreateCharge'],
    once: [
      'ConnectAccount',
      'UpdateAccount',
      'CancelCharge',
      'SimulateChargePaid',
      'RefundCharge',
      'HandleWebhook',
      'SubmitDisputeEvidence',
      'CreateRecurrence',
      'CancelRecurrence',
      'ApproveRecurrenceInSandbox',
      'CreateCycleCharge',
      'RetryCycleCharge',
      'SimulateCycleCharge',
      'CreateTransfer',
      'CreateSubaccount',
      'CreateOnboardingLink',
    ],
  },
  'orquestra.notifications.v1.NotificationsService': { retry: ['ListEvents', 'GetEvent'], keyed: [], once: [] },
  'orquestra.notifications.v1.WebhooksService': {
    retry: ['ListWebhookEndpoints', 'GetWebhookEndpoint', 'ListWebhookDeliveries', 'GetWebhookDelivery'],
    keyed: [],
    once: ['CreateWebhookEndpoint', 'UpdateWebhookEndpoint', 'DeleteWebhookEndpoint', 'RotateWebhookSecret', 'ResendWebhookDelivery'],
  },
  'orquestra.subscriptions.v1.SubscriptionsService': {
    retry: ['ListSubscriptions', 'GetSubscription'],
    keyed: ['CreateSubscription', 'ChargeSubscription'],
    once: ['CancelSubscription', 'SimulateSubscription'],
  },
  'orquestra.payouts.v1.PayoutsService': {
    retry: [
      'GetBalances',
      'ListPayouts',
      'GetPayout',
      'ListPayoutDestinations',
      'ListSubaccounts',
      'GetSubaccount',
      'GetSubaccountBalance',
      'ListWithdrawals',
      'ResolveSplits',
    ],
    keyed: ['CreatePayout', 'CreateSubaccount', 'CreateWithdrawal'],
    once: ['SyncPayout', 'UpdateSubaccount', 'SyncSubaccount', 'CreateSubaccountOnboardingLink'],
  },
  'orquestra.vault.v1.VaultService': {
    // RevealCard binds a card fields token to its payment by one conditional write: the same
    // payment reveals it again (that is how a charge's retries and failover read it).
    retry: ['GetCardsConfig', 'GetCard', 'ListCards', 'RevealCard'],
    keyed: [],
    once: ['UpdateCardsConfig', 'SetCardsEnabled', 'Tokenize', 'SaveCard', 'DeleteCard', 'CardApproved'],
  },
  'orquestra.tracking.v1.TrackingService': {
    retry: ['ListIntegrationKinds', 'ListIntegrations', 'GetIntegration', 'ListDeliveries'],
    keyed: [],
    once: ['RecordVisit', 'CreateIntegration', 'UpdateIntegration', 'DeleteIntegration', 'TestIntegration'],
  },
};
