import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHttpBalancer, type HttpBalancer } from './http-balancer';

/** A real HTTP upstream that answers with its own name and the body it read. */
async function upstream(name: string, answer?: (res: import('node:http').ServerResponse) => void): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (answer) return answer(res);
      res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': name });
      res.end(JSON.stringify({ name, body: Buffer.concat(chunks).toString(), path: req.url, forwardedFor: req.headers['x-forwarded-for'] ?? null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, port: (server.address() as AddressInfo).port };
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const { server, port } = await upstream('gone');
  await close(server);
  return port;
}

describe('HTTP balancer in front of gateway replicas', () => {
  let balancer: HttpBalancer | undefined;
  const servers: Server[] = [];
  afterEach(async () => {
    await balancer?.close();
    balancer = undefined;
    await Promise.all(servers.splice(0).map(close));
  });

  it('spreads requests over every replica in turn, body, path and status kept', async () => {
    const a = await upstream('a');
    const b = await upstream('b');
    servers.push(a.server, b.server);
    balancer = await startHttpBalancer({ port: 0, targets: [a.port, b.port] });
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${balancer.url}/v1/payments?x=${i}`, { method: 'POST', body: `{"n":${i}}`, headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { name: string; body: string; path: string; forwardedFor: string | null };
      expect(body.body).toBe(`{"n":${i}}`);
      expect(body.path).toBe(`/v1/payments?x=${i}`);
      expect(body.forwardedFor).toBe('127.0.0.1');
      seen.push(body.name);
    }
    expect(seen.filter((n) => n === 'a')).toHaveLength(3);
    expect(seen.filter((n) => n === 'b')).toHaveLength(3);
    expect(balancer.stats().forwarded).toEqual({ [a.port]: 3, [b.port]: 3 });
  });

  it('sends a request a dead replica refused to a live one, and skips the dead one for a while', async () => {
    const dead = await freePort();
    const live = await upstream('live');
    servers.push(live.server);
    balancer = await startHttpBalancer({ port: 0, targets: [dead, live.port], downForMs: 60_000 });
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${balancer.url}/x`, { method: 'POST', body: 'payload' });
      expect(response.status).toBe(201);
      expect(((await response.json()) as { body: string }).body).toBe('payload');
    }
    // The dead replica was tried once, then left alone.
    expect(balancer.stats()).toMatchObject({ retriedElsewhere: 1, failed: 0, forwarded: { [dead]: 1, [live.port]: 4 } });
  });

  it('answers 502 with the API error body when the replica dies holding the request', async () => {
    const dying = await upstream('dying', (res) => res.socket?.destroy());
    servers.push(dying.server);
    balancer = await startHttpBalancer({ port: 0, targets: [dying.port] });
    const response = await fetch(`${balancer.url}/v1/payments`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: { type: 'api_error', code: 'service_unavailable', message: expect.stringContaining('indisponível'), param: null } });
    expect(balancer.stats().failed).toBe(1);
  });
});
