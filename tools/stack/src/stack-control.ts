import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVICES, type RunningStack } from './start-stack';

type ServiceName = (typeof SERVICES)[number];

/**
 * A small HTTP control channel of the e2e stack (loopback only), for resilience tests that run in
 * another process: `POST /services/<name>/kill` (SIGKILL, no graceful shutdown) and
 * `POST /services/<name>/restart` (starts it again, or restarts it, and waits until it is ready).
 */
export async function startStackControl(stack: RunningStack): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const match = /^\/services\/([a-z]+)\/(kill|restart)$/.exec(req.url ?? '');
    const name = match?.[1] as ServiceName | undefined;
    if (req.method !== 'POST' || !match || !name || !SERVICES.includes(name)) {
      res.writeHead(404).end();
      return;
    }
    const action = match[2] === 'kill' ? kill(stack, name) : stack.restart(name);
    action.then(
      () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true })),
      (error: Error) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: error.message })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function kill(stack: RunningStack, name: ServiceName): Promise<void> {
  const alive = stack.processes.processes.filter((p) => p.name === name && p.child.exitCode === null && p.child.signalCode === null);
  await Promise.all(
    alive.map(
      (p) =>
        new Promise<void>((resolve) => {
          p.child.once('exit', () => resolve());
          p.child.kill('SIGKILL');
        }),
    ),
  );
}
