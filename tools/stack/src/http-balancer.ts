import { Agent, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { ProxyServer } from 'http-proxy-3';
import { MESSAGES_PT_BR } from '@orquestra/platform';

/**
 * The local stack's HTTP balancer in front of several gateway replicas (what the Kubernetes
 * Service and ingress do in production): round robin over the replicas, each request to one of
 * them through http-proxy-3 (hop-by-hop headers, streaming answers).
 *
 * A replica that refuses the connection (killed, restarting) is skipped for `downForMs`, and the
 * request goes to the next one: a refused connection never reached a gateway, so sending it again
 * cannot do anything twice. A replica that dies while it holds a request cannot tell whether it
 * acted, so that request is answered 502 with the API's error body, and the client decides (the
 * SDK repeats a POST only with its Idempotency-Key, which makes the repeat safe).
 */
export interface HttpBalancer {
  url: string;
  port: number;
  /** Requests handed to each replica port, and requests answered 502 by the balancer. */
  stats(): { forwarded: Record<number, number>; retriedElsewhere: number; failed: number };
  close(): Promise<void>;
}

/** Errors that mean "the request never reached the replica". */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/** Bodies above this are refused before proxying (the gateway's own JSON limit is far below). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function startHttpBalancer(options: { port: number; host?: string; targets: number[]; downForMs?: number }): Promise<HttpBalancer> {
  const host = options.host ?? '127.0.0.1';
  const downForMs = options.downForMs ?? 1_000;
  const targets = options.targets;
  if (targets.length === 0) throw new Error('the HTTP balancer needs at least one target');
  const downUntil = new Map<number, number>();
  const forwarded: Record<number, number> = Object.fromEntries(targets.map((port) => [port, 0]));
  const counters = { retriedElsewhere: 0, failed: 0 };
  // Kept-alive upstream connections, as a real balancer keeps them.
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const proxy = new ProxyServer({ agent, xfwd: true, proxyTimeout: 120_000 });
  let next = 0;

  /** The next replica in turn that is not marked down and not tried yet for this request. */
  const pick = (tried: Set<number>): number | undefined => {
    const now = Date.now();
    for (let i = 0; i < targets.length; i++) {
      const port = targets[(next + i) % targets.length];
      if (port === undefined || tried.has(port) || (downUntil.get(port) ?? 0) > now) continue;
      next = (next + i + 1) % targets.length;
      return port;
    }
    // Every replica looks down: try one not tried yet anyway (it may be back).
    return targets.find((port) => !tried.has(port));
  };

  const unavailable = (res: ServerResponse) => {
    counters.failed += 1;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(502, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
    res.end(JSON.stringify({ error: { type: 'api_error', message: MESSAGES_PT_BR.service_unavailable, code: 'service_unavailable', param: null } }));
  };

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, tried: Set<number>) => {
    const port = pick(tried);
    if (port === undefined) return unavailable(res);
    tried.add(port);
    forwarded[port] = (forwarded[port] ?? 0) + 1;
    proxy.web(req, res, { target: `http://127.0.0.1:${port}`, buffer: Readable.from([body]) }, (error) => {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (NOT_CONNECTED.has(code)) {
        downUntil.set(port, Date.now() + downForMs);
        if (tried.size < targets.length && !res.headersSent) {
          counters.retriedElsewhere += 1;
          return forward(req, res, body, tried);
        }
      }
      unavailable(res);
    });
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { connection: 'close' }).end();
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (size <= MAX_BODY_BYTES) forward(req, res, Buffer.concat(chunks), new Set());
    });
    req.on('error', () => res.destroy());
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    stats: () => ({ forwarded: { ...forwarded }, ...counters }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
