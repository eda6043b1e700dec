// Generated gRPC contracts (ts-proto, built from proto/ by `npm run proto`; never edited by hand),
// the event schemas every publisher and consumer agrees on, and the shapes every hop shares
// (statuses, customer, next action, a provider's refund report, the public objects) with one
// exhaustive converter per direction between each and its proto form.
export * as common from './generated/orquestra/common/v1/common';
export * as accounts from './generated/orquestra/accounts/v1/accounts';
export * as oauth from './generated/orquestra/accounts/v1/oauth';
export * as owners from './generated/orquestra/accounts/v1/owners';
export * as payments from './generated/orquestra/payments/v1/payments';
export * as disputes from './generated/orquestra/payments/v1/disputes';
export * as customers from './generated/orquestra/payments/v1/customers';
export * as analytics from './generated/orquestra/payments/v1/analytics';
export * as reconciliation from './generated/orquestra/payments/v1/reconciliation';
export * as paymentPage from './generated/orquestra/payments/v1/payment_page';
export * as routing from './generated/orquestra/routing/v1/routing';
export * as providers from './generated/orquestra/providers/v1/providers';
export * as notifications from './generated/orquestra/notifications/v1/notifications';
export * as webhooks from './generated/orquestra/notifications/v1/webhooks';
export * as subscriptions from './generated/orquestra/subscriptions/v1/subscriptions';
export * as payouts from './generated/orquestra/payouts/v1/payouts';
export * as vault from './generated/orquestra/vault/v1/vault';
export * as tracking from './generated/orquestra/tracking/v1/tracking';
export * from './events';
export * from './mode';
export * from './charge-status';
export * from './refund-status';
export * from './provider-refund';
export * from './public/customer.public';
export * from './public/next-action.public';
export * from './public/payment.public';
export * from './public/subscription.public';
export * from './public/refund.public';
export * from './public/dispute.public';
export * from './public/payout.public';
export * from './public/subaccount.public';
export * from './public/card.public';
export * from './public/statuses';
export * from './vault-card';
export * from './tracking-keys';
export * from './rpc-retry-policy';
export * from './integration-kinds';
