// End-to-end suite: starts the whole stack as processes (built into dist/ by tools/build/build-all.sh)
// on offset ports with its own databases, and drives the public REST API.
module.exports = require('../../jest.preset.js')(__dirname, {
  testMatch: ['<rootDir>/src/**/*.e2e.spec.ts'],
  // The nothing-lost suite stops RabbitMQ: it runs alone against a private node
  // (tools/e2e/run-nothing-lost.sh, which sets E2E_NOTHING_LOST=1), never inside the shared run.
  // The replicas suite needs a stack with two replicas of every service (tools/e2e/run-replicas.sh,
  // which sets E2E_REPLICAS=1).
  testPathIgnorePatterns: [
    '/node_modules/',
    ...(process.env.E2E_NOTHING_LOST === '1' ? [] : ['nothing-lost']),
    ...(process.env.E2E_REPLICAS === '1' ? [] : ['replicas\\.e2e']),
  ],
  globalSetup: '<rootDir>/src/support/global-setup.ts',
  globalTeardown: '<rootDir>/src/support/global-teardown.ts',
  // Suites that move emulator clocks run last (src/support/sequencer.js).
  testSequencer: '<rootDir>/src/support/sequencer.js',
  testTimeout: 60_000,
  maxWorkers: 1,
});
