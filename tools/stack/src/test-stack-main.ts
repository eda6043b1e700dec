import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startDemoMerchant } from './demo-merchant';
import { SEED_OWNER, seedStack } from './seed';

/** The test stack's per-e-mail sign-in limit (accounts' SIGN_IN_MAX_PER_EMAIL; 10 by default). */
const SIGN_IN_MAX_PER_EMAIL = 30;
import { REPO_ROOT } from './stack-layout';
import { startStack } from './start-stack';
import { startStackControl } from './stack-control';

/**
 * A throw-away stack for the end-to-end suite: offset ports and databases of its own, so it runs
 * beside a developer's stack. Writes what the tests need to TEST_STACK_INFO_FILE, then runs until
 * SIGTERM. Started by tools/e2e's global setup as a separate process.
 */
async function main(): Promise<void> {
  const infoFile = process.env.TEST_STACK_INFO_FILE;
  const mongoUrl = process.env.MONGO_URL;
  const amqpUrl = process.env.AMQP_URL;
  if (!infoFile || !mongoUrl || !amqpUrl) throw new Error('TEST_STACK_INFO_FILE, MONGO_URL and AMQP_URL are required');
  const stateDir = path.dirname(infoFile);
  const certDir = path.join(REPO_ROOT, '.local', 'certs');
  const dbPrefix = `e2e_${randomBytes(3).toString('hex')}_`;
  // The subscriptions service's test clock (src/clock/service-clock.ts): the subscriptions suite
  // moves it forward together with the Efí emulator's, to run cycles weeks apart in seconds.
  const subscriptionsClockFile = path.join(stateDir, 'subscriptions-clock.json');
  rmSync(subscriptionsClockFile, { force: true });
  const stack = await startStack({
    portOffset: Number(process.env.TEST_STACK_PORT_OFFSET ?? 1000),
    mongoUrl,
    amqpUrl,
    dbPrefix,
    stateDir,
    certDir,
    logLevel: process.env.LOG_LEVEL ?? 'info',
    readyTimeoutMs: Number(process.env.TEST_STACK_READY_TIMEOUT_MS ?? 90_000),
    shared: {
      // This stack is thrown away and its queues are never deleted: the broker drops them six hours
      // after their last use (longer than any run, whose retry and dead-letter queues have no
      // consumer), so runs leave no quorum queues behind on the shared broker (docs/rabbitmq.md).
      EVENT_QUEUES_EXPIRE_MS: String(6 * 60 * 60 * 1000),
      // Traces go to the suite's own OTLP/HTTP JSON receiver (tools/e2e global setup), when it runs one.
      ...(process.env.TEST_STACK_OTLP_ENDPOINT
        ? {
            OTEL_EXPORTER_OTLP_ENDPOINT: process.env.TEST_STACK_OTLP_ENDPOINT,
            OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
            OTEL_BSP_SCHEDULE_DELAY: '200',
            // Never drop a span under load: the tracing suite looks for specific ones.
            OTEL_BSP_MAX_QUEUE_SIZE: '65536',
          }
        : {}),
    },
    // Short timeouts so that failover tests with hanging providers run in seconds.
    overrides: {
      providers: { PROVIDER_TIMEOUT_MS: '1500', BREAKER_RESET_TIMEOUT_MS: '1500', BREAKER_ROLLING_WINDOW_MS: '3000' },
      payments: { PROVIDER_CALL_DEADLINE_MS: '5000' },
      // Every dashboard suite signs in from 127.0.0.1, and several as the seeded owner: the per-IP
      // limit is not what they test, and the per-e-mail one (tested with an e-mail of its own) has
      // room for all their sign-ins within its window.
      accounts: { SIGN_IN_MAX_PER_IP: '10000', SIGN_IN_MAX_PER_EMAIL: String(SIGN_IN_MAX_PER_EMAIL) },
      // The failover suite fails account A on purpose many times; its breaker (not its 5-minute
      // success rate, covered by unit tests) is what those tests exercise.
      routing: { HEALTH_MIN_ATTEMPTS: '1000' },
      // Webhook retries in seconds instead of minutes, so retry tests finish (schedule in docs/events.md).
      notifications: { WEBHOOK_RETRY_BASE_MS: '1000', WEBHOOK_RETRY_MAX_DELAY_MS: '4000', WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_POLL_INTERVAL_MS: '250' },
      // Cycles found within a second of the clock moving, and a dead sender replaced in seconds.
      subscriptions: { CYCLE_SCHEDULE_INTERVAL_MS: '300', CYCLE_SEND_LEASE_MS: '5000', TEST_CLOCK_FILE: subscriptionsClockFile },
      // Unconfirmed payouts read back within a second; balances never cached, so tests see them move.
      payouts: { PAYOUT_RECHECK_BASE_MS: '300', PAYOUT_RECHECK_MAX_MS: '2000', PAYOUT_PROCESSING_POLL_MS: '2000', PAYOUT_NOT_MADE_AFTER_MS: '20000', BALANCE_CACHE_TTL_MS: '0' },
      // Security codes and expired tokens removed within a quarter second of their time.
      vault: { VAULT_DUE_POLL_MS: '250' },
      // Ad tool sends retried after 1, 2, 3… seconds instead of 1 minute … 24 hours (the schedule's
      // length is kept: seven retries), and a hanging tool given up on within 2 seconds.
      tracking: { DELIVERY_RETRY_SCHEDULE_MS: '1000,2000,3000,4000,5000,6000,7000', DELIVERY_POLL_MS: '250', TOOL_TIMEOUT_MS: '2000' },
    },
  });
  let demoMerchantClose: () => Promise<void> = async () => undefined;
  // Lets resilience suites kill and restart services of this stack (tools/e2e nothing-lost).
  const control = await startStackControl(stack);
  const stop = async () => {
    control.server.close();
    await demoMerchantClose();
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  const seed = await seedStack({
    ports: stack.ports,
    certDir,
    stateFile: path.join(stateDir, 'seed.json'),
    email: `e2e-${Date.now()}@orquestra.dev`,
    withLiveAccount: true,
    owner: SEED_OWNER,
  });
  // A second merchant with two test accounts (A priority 10, B priority 20) for failover tests,
  // so that breaker and health state from those tests never reach the other suites.
  const failover = await seedStack({
    ports: stack.ports,
    certDir,
    stateFile: path.join(stateDir, 'seed-failover.json'),
    email: `e2e-failover-${Date.now()}@orquestra.dev`,
    withSecondTestAccount: true,
  });
  // A third merchant whose suite connects one account of every provider (forced per payment).
  const providers = await seedStack({
    ports: stack.ports,
    certDir,
    stateFile: path.join(stateDir, 'seed-providers.json'),
    email: `e2e-providers-${Date.now()}@orquestra.dev`,
  });
  // A fourth merchant for the boleto-and-card suite: it connects its own Stripe accounts, and the
  // fault it injects (a hanging account) must never reach another suite's routing.
  const cards = await seedStack({
    ports: stack.ports,
    certDir,
    stateFile: path.join(stateDir, 'seed-cards.json'),
    email: `e2e-cards-${Date.now()}@orquestra.dev`,
  });
  // A fifth merchant for the card fields suite (cards-fields.e2e): it connects its own Stripe
  // account and changes its allowed origins; its demo site is an origin of its own.
  const vaultMerchant = await seedStack({
    ports: stack.ports,
    certDir,
    stateFile: path.join(stateDir, 'seed-vault.json'),
    email: `e2e-vault-${Date.now()}@orquestra.dev`,
  });
  const demoMerchant = await startDemoMerchant({ port: stack.ports.demoMerchant, platformBaseUrl: stack.baseUrl, apiKey: vaultMerchant.testKey });
  demoMerchantClose = demoMerchant.close;
  writeFileSync(
    infoFile,
    JSON.stringify(
      {
        baseUrl: stack.baseUrl,
        stackControlUrl: control.url,
        mongoUrl,
        amqpUrl,
        efiControlUrl: stack.efiControlUrl,
        controlUrls: stack.controlUrls,
        providersMerchant: { testKey: providers.testKey },
        cardsMerchant: { testKey: cards.testKey },
        vaultMerchant: { testKey: vaultMerchant.testKey, restrictedTestKey: vaultMerchant.restrictedTestKey, liveKey: vaultMerchant.liveKey, demoUrl: demoMerchant.url },
        testKey: seed.testKey,
        restrictedTestKey: seed.restrictedTestKey,
        liveKey: seed.liveKey,
        payoutDestinationId: seed.payoutDestinationId,
        merchantId: seed.merchantId,
        owner: seed.owner,
        signInMaxPerEmail: SIGN_IN_MAX_PER_EMAIL,
        testProviderAccountId: seed.testProviderAccountId,
        liveProviderAccountId: seed.liveProviderAccountId ?? '',
        emulatorClientId: seed.emulatorClient.clientId,
        failover: {
          testKey: failover.testKey,
          accountA: failover.testProviderAccountId,
          accountB: failover.secondTestProviderAccountId,
          clientA: failover.emulatorClient.clientId,
          clientB: failover.secondEmulatorClientId,
        },
        dbPrefix,
        subscriptionsClockFile,
        ports: stack.ports,
        // Every replica's process name and ports (several with ORQUESTRA_REPLICAS; one each otherwise).
        replicas: stack.replicaList,
        logDir: path.join(stateDir, 'logs'),
      },
      null,
      2,
    ),
  );
  console.log('TEST STACK READY');
}

main().catch((error: Error) => {
  console.error(`test stack failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
