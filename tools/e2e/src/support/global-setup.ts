import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import { seedStack } from '../../../stack/src/seed';
import { REPO_ROOT } from '../../../stack/src/stack-layout';
import { startStack, type RunningStack } from '../../../stack/src/start-stack';
import { STACK_INFO_FILE, type StackInfo } from './stack-info';

declare global {
  // eslint-disable-next-line no-var
  var __ORQUESTRA_E2E_STACK__: RunningStack | undefined;
}

export default async function globalSetup(): Promise<void> {
  const infra = await ensureTestInfra();
  const stateDir = path.join(REPO_ROOT, '.local', 'e2e');
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(stateDir, { recursive: true });
  const certDir = path.join(REPO_ROOT, '.local', 'certs');
  const stack = await startStack({
    portOffset: 1000,
    mongoUrl: infra.mongoUrl,
    amqpUrl: infra.amqpUrl,
    dbPrefix: uniqueDbPrefix('e2e'),
    stateDir,
    certDir,
    logLevel: 'info',
    readyTimeoutMs: 90_000,
  });
  globalThis.__ORQUESTRA_E2E_STACK__ = stack;
  const seed = await seedStack({
    ports: stack.ports,
    certDir,
    stateFile: path.join(stateDir, 'seed.json'),
    email: `e2e-${Date.now()}@orquestra.dev`,
    withLiveAccount: true,
  });
  const info: StackInfo = {
    baseUrl: stack.baseUrl,
    efiControlUrl: stack.efiControlUrl,
    testKey: seed.testKey,
    restrictedTestKey: seed.restrictedTestKey,
    liveKey: seed.liveKey,
    merchantId: seed.merchantId,
    testProviderAccountId: seed.testProviderAccountId,
    liveProviderAccountId: seed.liveProviderAccountId ?? '',
    emulatorClientId: seed.emulatorClient.clientId,
  };
  writeFileSync(STACK_INFO_FILE, JSON.stringify(info, null, 2));
}
