// Unit and integration tests of every project (tests sit beside the code). The end-to-end suite
// has its own config (tools/e2e/jest.config.js) because it starts the whole stack.
module.exports = {
  projects: [
    '<rootDir>/libs/platform',
    '<rootDir>/libs/contracts',
    '<rootDir>/libs/sdk',
    '<rootDir>/libs/cli',
    '<rootDir>/services/accounts',
    '<rootDir>/services/gateway',
    '<rootDir>/services/payments',
    '<rootDir>/services/providers',
    '<rootDir>/services/routing',
    '<rootDir>/services/notifications',
    '<rootDir>/services/subscriptions',
    '<rootDir>/services/payouts',
    '<rootDir>/services/vault',
    '<rootDir>/services/tracking',
    '<rootDir>/services/dashboard',
    '<rootDir>/tools/owner',
    '<rootDir>/tools/emulators',
    '<rootDir>/tools/stack',
    '<rootDir>/tools/chaos',
  ],
};
