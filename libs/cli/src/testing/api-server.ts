// Test helpers only: never imported by the CLI's own code.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CliIo } from '../io';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (request: Recorded) => { status: number; body?: unknown; headers?: Record<string, string> };

/** A local HTTP server answering with `handler` and keeping every request (an API or a merchant's receiver). */
export async function startServer(handler: Handler, port = 0): Promise<{ url: string; port: number; requests: Recorded[]; close(): Promise<void> }> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const recorded = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      const answer = handler(recorded);
      res.writeHead(answer.status, { 'content-type': 'application/json', 'x-request-id': `req_${requests.length}`, ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An io that records what the CLI prints. */
export function captureIo(env: Record<string, string | undefined>, signal = new AbortController().signal): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { env, out: (text) => stdout.push(text), err: (text) => stderr.push(text), interactive: false, signal, stdout, stderr };
}
