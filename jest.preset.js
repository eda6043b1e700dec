// Shared jest settings: TypeScript through swc (fast, no type-check; `nx typecheck` does that),
// workspace path aliases, tests beside the code.
const path = require('node:path');

/** @param {string} projectRoot absolute path of the project */
module.exports = function preset(projectRoot, overrides = {}) {
  return {
    rootDir: projectRoot,
    testEnvironment: 'node',
    transform: { '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript', decorators: true } } }] },
    moduleNameMapper: {
      '^@orquestra/platform/testing$': path.join(__dirname, 'libs/platform/src/testing/index.ts'),
      '^@orquestra/platform/telemetry$': path.join(__dirname, 'libs/platform/src/telemetry/index.ts'),
      '^@orquestra/platform/webhooks$': path.join(__dirname, 'libs/platform/src/webhooks/index.ts'),
      '^@orquestra/platform$': path.join(__dirname, 'libs/platform/src/index.ts'),
      '^@orquestra/node$': path.join(__dirname, 'libs/sdk/src/index.ts'),
      '^@orquestra/contracts$': path.join(__dirname, 'libs/contracts/src/index.ts'),
      '^@orquestra/emulators$': path.join(__dirname, 'tools/emulators/index.ts'),
    },
    testMatch: ['<rootDir>/**/*.spec.ts'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    // otplib's crypto and base32 plugins ship ES modules only (Node loads them with require(esm);
    // jest's CommonJS runtime needs them compiled like our own code).
    transformIgnorePatterns: ['/node_modules/(?!(@scure|@noble)/)'],
    ...overrides,
  };
};
