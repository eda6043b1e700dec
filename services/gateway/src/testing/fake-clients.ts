// Test helpers only: never imported by production code.
import { accounts, common } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import type { DownstreamClients } from '../grpc/downstream.clients';
import { RESTRICTED_KEY, TEST_KEY } from './fixtures';

/** DownstreamClients whose methods a test may replace. */
export type FakeClients = {
  [S in keyof DownstreamClients]: { -readonly [M in keyof DownstreamClients[S]]: DownstreamClients[S][M] };
};

const notStubbed = (name: string) => () => Promise.reject(new Error(`fake ${name} not stubbed`));

/**
 * In-memory downstream clients: accounts knows TEST_KEY (full) and RESTRICTED_KEY (restricted);
 * every other method rejects until a test stubs it (`clients.payments.createPayment = jest.fn(…)`).
 */
export function fakeClients(): FakeClients {
  return {
    accounts: {
      authenticateKey: async ({ secret }) => {
        if (secret === TEST_KEY) {
          return { merchant_id: 'acct_1', key_id: 'key_full', mode: common.Mode.MODE_TEST, kind: accounts.KeyKind.KEY_KIND_FULL };
        }
        if (secret === RESTRICTED_KEY) {
          return { merchant_id: 'acct_1', key_id: 'key_bot', mode: common.Mode.MODE_TEST, kind: accounts.KeyKind.KEY_KIND_RESTRICTED };
        }
        throw new AppError('unauthenticated');
      },
      createApiKey: notStubbed('createApiKey'),
      revokeApiKey: notStubbed('revokeApiKey'),
      listApiKeys: notStubbed('listApiKeys'),
      getPayoutSettings: notStubbed('getPayoutSettings'),
      setPayoutSettings: notStubbed('setPayoutSettings'),
      createPayoutDestination: notStubbed('createPayoutDestination'),
      listPayoutDestinations: notStubbed('listPayoutDestinations'),
      recordRequestLogs: notStubbed('recordRequestLogs'),
      listRequestLogs: notStubbed('listRequestLogs'),
    },
    owners: {
      signUp: notStubbed('signUp'),
      signIn: notStubbed('signIn'),
      authenticateSession: notStubbed('authenticateSession'),
      signOut: notStubbed('signOut'),
      revokeAllSessions: notStubbed('revokeAllSessions'),
      setupTotp: notStubbed('setupTotp'),
      enableTotp: notStubbed('enableTotp'),
      disableTotp: notStubbed('disableTotp'),
      recordAudit: notStubbed('recordAudit'),
      listAudit: notStubbed('listAudit'),
    },
    customers: {
      listCustomers: notStubbed('listCustomers'),
      getCustomer: notStubbed('getCustomer'),
      upsertCustomer: notStubbed('upsertCustomer'),
    },
    vault: {
      getCardsConfig: notStubbed('getCardsConfig'),
      updateCardsConfig: notStubbed('updateCardsConfig'),
      tokenize: notStubbed('tokenize'),
      saveCard: notStubbed('saveCard'),
      getCard: notStubbed('getCard'),
      listCards: notStubbed('listCards'),
      deleteCard: notStubbed('deleteCard'),
    },
    analytics: {
      getOverview: notStubbed('getOverview'),
    },
    reconciliation: {
      createRun: notStubbed('createRun'),
      listRuns: notStubbed('listRuns'),
      getRun: notStubbed('getRun'),
      listFindings: notStubbed('listFindings'),
    },
    tracking: {
      recordVisit: notStubbed('recordVisit'),
      listIntegrationKinds: notStubbed('listIntegrationKinds'),
      createIntegration: notStubbed('createIntegration'),
      listIntegrations: notStubbed('listIntegrations'),
      getIntegration: notStubbed('getIntegration'),
      updateIntegration: notStubbed('updateIntegration'),
      deleteIntegration: notStubbed('deleteIntegration'),
      listDeliveries: notStubbed('listDeliveries'),
      testIntegration: notStubbed('testIntegration'),
    },
    disputes: {
      simulateDispute: notStubbed('simulateDispute'),
      listDisputes: notStubbed('listDisputes'),
      getDispute: notStubbed('getDispute'),
      submitEvidence: notStubbed('submitEvidence'),
    },
    payments: {
      createPayment: notStubbed('createPayment'),
      getPayment: notStubbed('getPayment'),
      listPayments: notStubbed('listPayments'),
      cancelPayment: notStubbed('cancelPayment'),
      simulatePayment: notStubbed('simulatePayment'),
      syncPayment: notStubbed('syncPayment'),
      getPaymentQrCode: notStubbed('getPaymentQrCode'),
      getPaymentPage: notStubbed('getPaymentPage'),
      choosePaymentMethod: notStubbed('choosePaymentMethod'),
      recordPageTracking: notStubbed('recordPageTracking'),
      refundPayment: notStubbed('refundPayment'),
      getSplitSummary: notStubbed('getSplitSummary'),
    },
    providers: {
      handleWebhook: notStubbed('handleWebhook'),
      listProviders: notStubbed('listProviders'),
      listAccounts: notStubbed('listAccounts'),
      getAccount: notStubbed('getAccount'),
      connectAccount: notStubbed('connectAccount'),
      updateAccount: notStubbed('updateAccount'),
    },
    routing: {
      simulate: notStubbed('simulate'),
      listRules: notStubbed('listRules'),
      getRule: notStubbed('getRule'),
      createRule: notStubbed('createRule'),
      updateRule: notStubbed('updateRule'),
      deleteRule: notStubbed('deleteRule'),
      reorderRules: notStubbed('reorderRules'),
    },
    subscriptions: {
      createSubscription: notStubbed('createSubscription'),
      listSubscriptions: notStubbed('listSubscriptions'),
      getSubscription: notStubbed('getSubscription'),
      cancelSubscription: notStubbed('cancelSubscription'),
      simulateSubscription: notStubbed('simulateSubscription'),
      chargeSubscription: notStubbed('chargeSubscription'),
    },
    payouts: {
      getBalances: notStubbed('getBalances'),
      createPayout: notStubbed('createPayout'),
      listPayouts: notStubbed('listPayouts'),
      getPayout: notStubbed('getPayout'),
      syncPayout: notStubbed('syncPayout'),
      listPayoutDestinations: notStubbed('listPayoutDestinations'),
      createSubaccount: notStubbed('createSubaccount'),
      listSubaccounts: notStubbed('listSubaccounts'),
      getSubaccount: notStubbed('getSubaccount'),
      updateSubaccount: notStubbed('updateSubaccount'),
      syncSubaccount: notStubbed('syncSubaccount'),
      createSubaccountOnboardingLink: notStubbed('createSubaccountOnboardingLink'),
      getSubaccountBalance: notStubbed('getSubaccountBalance'),
      createWithdrawal: notStubbed('createWithdrawal'),
      listWithdrawals: notStubbed('listWithdrawals'),
    },
    notifications: { listEvents: notStubbed('listEvents'), getEvent: notStubbed('getEvent') },
    webhooks: {
      createWebhookEndpoint: notStubbed('createWebhookEndpoint'),
      listWebhookEndpoints: notStubbed('listWebhookEndpoints'),
      getWebhookEndpoint: notStubbed('getWebhookEndpoint'),
      updateWebhookEndpoint: notStubbed('updateWebhookEndpoint'),
      deleteWebhookEndpoint: notStubbed('deleteWebhookEndpoint'),
      rotateWebhookSecret: notStubbed('rotateWebhookSecret'),
      listWebhookDeliveries: notStubbed('listWebhookDeliveries'),
      getWebhookDelivery: notStubbed('getWebhookDelivery'),
      resendWebhookDelivery: notStubbed('resendWebhookDelivery'),
    },
  };
}
