import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { STACK_INFO_FILE, SPANS_FILE } from './stack-info';
import { startTraceReceiver } from './trace-receiver';

declare global {
  // eslint-disable-next-line no-var
  var __ORQUESTRA_E2E_STACK__: ChildProcess | undefined;
  // eslint-disable-next-line no-var
  var __ORQUESTRA_E2E_TRACES__: import('node:http').Server | undefined;
}

const ROOT = path.resolve(__dirname, '../../../..');

/**
 * Starts the whole stack as processes (dist/tools/stack/test-stack-main.js, built by
 * tools/build/build-all.sh) against the real store and broker, and waits until it is seeded.
 */
export default async function globalSetup(): Promise<void> {
  let mongoUrl = process.env.MONGO_URL;
  let amqpUrl = process.env.AMQP_URL;
  if (!mongoUrl || !amqpUrl) {
    // The tests' own store (in memory, port 27018), as npm test uses; never npm start's.
    const infraEnv = { ...process.env, STORE_BACKEND: 'memory', STORE_PORT: '27018' };
    const up = spawnSync('bash', [path.join(ROOT, 'tools/infra/infra.sh'), 'up'], { stdio: 'inherit', env: infraEnv });
    if (up.status !== 0) throw new Error('local infrastructure did not start (tools/infra/infra.sh up)');
    const env = spawnSync('bash', [path.join(ROOT, 'tools/infra/infra.sh'), 'env'], { encoding: 'utf8', env: infraEnv }).stdout;
    mongoUrl = /MONGO_URL=(\S+)/.exec(env)?.[1];
    amqpUrl = /AMQP_URL=(\S+)/.exec(env)?.[1];
  }
  const script = path.join(ROOT, 'dist/tools/stack/test-stack-main.js');
  if (!existsSync(script)) throw new Error(`${script} is missing: run tools/build/build-all.sh first`);
  rmSync(path.dirname(STACK_INFO_FILE), { recursive: true, force: true });
  mkdirSync(path.dirname(STACK_INFO_FILE), { recursive: true });
  // Every service exports its spans here (OTLP/HTTP JSON); the tracing suite reads SPANS_FILE.
  const traces = await startTraceReceiver(SPANS_FILE);
  globalThis.__ORQUESTRA_E2E_TRACES__ = traces.server;
  const child = spawn(process.execPath, ['--enable-source-maps', script], {
    env: {
      ...process.env,
      MONGO_URL: mongoUrl,
      AMQP_URL: amqpUrl,
      TEST_STACK_INFO_FILE: STACK_INFO_FILE,
      TEST_STACK_OTLP_ENDPOINT: traces.endpoint,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  globalThis.__ORQUESTRA_E2E_STACK__ = child;
  await new Promise<void>((resolve, reject) => {
    // E2E_STACK_START_TIMEOUT_MS: longer for a stack with several replicas of each service (run-replicas.sh).
    const startTimeoutMs = Number(process.env.E2E_STACK_START_TIMEOUT_MS ?? 120_000);
    const timer = setTimeout(() => reject(new Error(`test stack did not become ready in ${startTimeoutMs / 1000} s`)), startTimeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('TEST STACK READY')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`test stack exited with code ${code}; logs in ${path.dirname(STACK_INFO_FILE)}/logs`));
    });
  });
}
