import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startDemoMerchant, type DemoMerchant } from './demo-merchant';
import { SEED_OWNER, seedStack } from './seed';
import { sandboxGuide } from './sandbox-guide';
import { REPO_ROOT } from './stack-layout';
import { otelEnvironment } from './launcher-env';
import { StartProgress } from './start-progress';
import { startStack } from './start-stack';

/**
 * `npm start`: runs the whole local stack in the foreground (Ctrl-C stops everything), seeds the
 * test merchant and prints what a developer needs. tools/stack/stack.sh provisions and builds first.
 *
 * ORQUESTRA_STACK_DIR, ORQUESTRA_STACK_PORT_OFFSET and ORQUESTRA_STACK_DB_PREFIX run a second copy
 * beside a developer's (tools/e2e's restart suite restarts one); its stack.env then goes in that folder.
 */
async function main(): Promise<void> {
  const ownDir = process.env.ORQUESTRA_STACK_DIR;
  const stateDir = ownDir ? path.resolve(ownDir) : path.join(REPO_ROOT, '.local', 'stack');
  const certDir = path.join(REPO_ROOT, '.local', 'certs');
  const mongoUrl = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017';
  const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const stack = await startStack({
    portOffset: Number(process.env.ORQUESTRA_STACK_PORT_OFFSET ?? 0),
    mongoUrl,
    amqpUrl,
    dbPrefix: process.env.ORQUESTRA_STACK_DB_PREFIX ?? 'orq_',
    stateDir,
    certDir,
    logLevel: process.env.LOG_LEVEL ?? 'info',
    // The store keeps npm start's data, so the emulators keep theirs: a restart works like the first start.
    emulatorStateDir: path.join(stateDir, 'emulators'),
    // The launcher's OTEL_* settings (exporter, endpoint, sampler, …) reach every service.
    shared: otelEnvironment(process.env),
    // A line per process as it becomes ready, and a counter while in a terminal.
    progress: new StartProgress(process.stdout),
  });
  let stopping = false;
  const running: { demo?: DemoMerchant } = {};
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping Orquestra…');
    await running.demo?.close();
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  const owner = { email: process.env.ORQUESTRA_OWNER_EMAIL ?? SEED_OWNER.email, password: process.env.ORQUESTRA_OWNER_PASSWORD ?? SEED_OWNER.password };
  const seed = await seedStack({ ports: stack.ports, certDir, stateFile: path.join(stateDir, 'seed.json'), owner, withAllEmulators: true }).catch(async (error: Error) => {
    // The services and emulators are child processes: never leave them running without their parent.
    await stack.stop();
    throw error;
  });
  // The card fields' demo merchant site, on an origin of its own (docs/cards.md "Card fields").
  const demo = await startDemoMerchant({ port: stack.ports.demoMerchant, platformBaseUrl: stack.baseUrl, apiKey: seed.testKey }).catch((error: Error) => {
    console.warn(`Card fields demo not started: ${error.message}`);
    return undefined;
  });
  running.demo = demo;
  const values: Record<string, string> = {
    ORQUESTRA_BASE_URL: stack.baseUrl,
    ORQUESTRA_TEST_KEY: seed.testKey,
    ORQUESTRA_RESTRICTED_TEST_KEY: seed.restrictedTestKey,
    ORQUESTRA_LIVE_KEY: seed.liveKey,
    ORQUESTRA_MERCHANT_ID: seed.merchantId,
    ORQUESTRA_TEST_PROVIDER_ACCOUNT_ID: seed.testProviderAccountId,
    EFI_EMULATOR_CONTROL_URL: stack.efiControlUrl,
    ASAAS_EMULATOR_CONTROL_URL: stack.controlUrls.asaas,
    PAGARME_EMULATOR_CONTROL_URL: stack.controlUrls.pagarme,
    MERCADOPAGO_EMULATOR_CONTROL_URL: stack.controlUrls.mercadopago,
    STRIPE_EMULATOR_CONTROL_URL: stack.controlUrls.stripe,
    WOOVI_EMULATOR_CONTROL_URL: stack.controlUrls.woovi,
    ORQUESTRA_DASHBOARD_URL: `${stack.baseUrl}/dashboard`,
    ORQUESTRA_OWNER_EMAIL: owner.email,
  };
  const envFile = ownDir ? path.join(stateDir, 'stack.env') : path.join(REPO_ROOT, 'stack.env');
  writeFileSync(envFile, Object.entries(values).map(([k, v]) => `${k}=${v}`).join('\n') + '\n', { mode: 0o600 });

  console.log(`
Orquestra is running.

  Base URL               ${stack.baseUrl}/v1
  OpenAPI                ${stack.baseUrl}/v1/openapi.json
  Test key (full)        ${seed.testKey}
  Test key (restricted)  ${seed.restrictedTestKey}
  Live key (full)        ${seed.liveKey}
  Dashboard              ${stack.baseUrl}/dashboard
    sign in as           ${owner.email} / ${owner.password} (ORQUESTRA_OWNER_EMAIL / ORQUESTRA_OWNER_PASSWORD)
  Test provider account  ${seed.testProviderAccountId} (Efí emulator, https://localhost:${stack.ports.efiApi})
  Card fields demo       ${demo ? `${demo.url} (a merchant site of its own origin; card 4242 4242 4242 4242)` : 'not started'}
  Logs                   ${path.join(stateDir, 'logs')}
  These values are also in ${envFile}

${sandboxGuide({ baseUrl: stack.baseUrl, testKey: seed.testKey, efiAccountId: seed.testProviderAccountId, accounts: seed.emulatorAccounts, controlUrls: stack.controlUrls })}

Press Ctrl-C to stop.`);
}

main().catch((error: Error) => {
  console.error(`Could not start Orquestra: ${error.message}`);
  process.exit(1);
});
