// End-to-end suite: starts the whole stack as processes (built into dist/ by tools/build/build-all.sh)
// on offset ports with its own databases, and drives the public REST API.
module.exports = require('../../jest.preset.js')(__dirname, {
  testMatch: ['<rootDir>/src/**/*.e2e.spec.ts'],
  globalSetup: '<rootDir>/src/support/global-setup.ts',
  globalTeardown: '<rootDir>/src/support/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 1,
});
