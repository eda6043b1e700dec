import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningStack } from './start-stack';

/**
 * A small HTTP control channel of the e2e stack (loopback only), for resilience tests that run in
 * another process: `POST /services/<name>/kill` (SIGKILL, no graceful shutdown) and
 * `POST /services/<name>/restart` (starts it again, or restarts it, and waits until it is ready).
 * `<name>` is a process: a service's (its first replica) or a further replica's (`payments-2`).
 * `GET /replicas` lists every replica with its pid and ports.
 */
export async function startStackControl(stack: RunningStack): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/replicas') {
      const pids = new Map(stack.processes.processes.filter((p) => p.child.exitCode === null && p.child.signalCode === null).map((p) => [p.name, p.child.pid]));
      const body = { replicas: stack.replicaList.map((r) => ({ ...r, pid: pids.get(r.name) ?? null })), balancer: stack.balancer?.stats() ?? null };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    const match = /^\/services\/([a-z]+(?:-\d+)?)\/(kill|restart)$/.exec(req.url ?? '');
    const name = match?.[1];
    if (req.method !== 'POST' || !match || !name || !stack.replicaList.some((r) => r.name === name)) {
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

async function kill(stack: RunningStack, name: string): Promise<void> {
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
