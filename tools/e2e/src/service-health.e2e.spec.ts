import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { grpcHealthStatus, type GrpcHealthStatus } from '@orquestra/platform';
import { stackInfo } from './support/stack-info';

/**
 * gRPC health of a real service process (the accounts service, built in dist/): NOT_SERVING while
 * its database is not connected, SERVING once it is, NOT_SERVING again from SIGTERM while it
 * drains (SHUTDOWN_DRAIN_MS), and then gone with exit code 0.
 */
const ROOT = path.resolve(__dirname, '../../..');
const MAIN = path.join(ROOT, 'dist/services/accounts/main.js');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function startAccounts(env: Record<string, string>): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      METRICS_PORT: '0',
      EVENTS_EXCHANGE: `health_${randomBytes(3).toString('hex')}`,
      // Required configuration (owners' TOTP secrets are sealed with it): without it the process exits at start.
      OWNER_SECRETS_KEYS: `o1:${randomBytes(32).toString('base64')}`,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited };
}

async function waitForStatus(address: string, wanted: GrpcHealthStatus, timeoutMs: number): Promise<GrpcHealthStatus[]> {
  const seen: GrpcHealthStatus[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await grpcHealthStatus(address, 500);
    if (seen[seen.length - 1] !== status) seen.push(status);
    if (status === wanted) return seen;
    if (Date.now() > deadline) throw new Error(`health of ${address} never became ${wanted}; saw ${seen.join(' → ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('gRPC health of a service process', () => {
  it('says NOT_SERVING while the database cannot be reached (and the process then gives up)', async () => {
    const port = await freePort();
    const address = `127.0.0.1:${port}`;
    // Nothing listens on port 1: the store is unreachable until the connection attempt times out.
    const { child, exited } = startAccounts({ GRPC_ADDRESS: address, MONGO_URL: 'mongodb://127.0.0.1:1/', AMQP_URL: stackInfo().amqpUrl, DB_PREFIX: 'health_' });
    try {
      const seen = await waitForStatus(address, 'NOT_SERVING', 8_000);
      expect(seen).not.toContain('SERVING');
      // Still not serving a moment later: it never pretends to be ready without its store.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await grpcHealthStatus(address)).toBe('NOT_SERVING');
      // The connection attempt times out (10 s) and the service exits non-zero, for its supervisor to restart it.
      expect(await exited).toBe(1);
    } finally {
      child.kill('SIGKILL');
    }
  }, 40_000);

  it('says SERVING once connected, NOT_SERVING from SIGTERM while draining, then exits 0', async () => {
    const port = await freePort();
    const address = `127.0.0.1:${port}`;
    const { child, exited } = startAccounts({
      GRPC_ADDRESS: address,
      MONGO_URL: stackInfo().mongoUrl,
      AMQP_URL: stackInfo().amqpUrl,
      DB_PREFIX: `health_${randomBytes(3).toString('hex')}_`,
      // Long enough that the NOT_SERVING check below surely falls inside it on a loaded machine.
      SHUTDOWN_DRAIN_MS: '4000',
    });
    try {
      const seen = await waitForStatus(address, 'SERVING', 30_000);
      // Never SERVING before it was ready; the earliest answers (if any came) were NOT_SERVING.
      expect(seen.slice(0, -1).every((status) => status === 'NOT_SERVING' || status === 'UNREACHABLE')).toBe(true);
      const stopAt = Date.now();
      child.kill('SIGTERM');
      await waitForStatus(address, 'NOT_SERVING', 1_500);
      // Still answering (NOT_SERVING) during the drain, not refusing connections.
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(await grpcHealthStatus(address)).toBe('NOT_SERVING');
      expect(await exited).toBe(0);
      expect(Date.now() - stopAt).toBeGreaterThanOrEqual(4_000);
      expect(await grpcHealthStatus(address, 500)).toBe('UNREACHABLE');
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
