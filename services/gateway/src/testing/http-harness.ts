// Test helpers only: never imported by production code.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../http/app';
import type { GatewayDeps } from '../http/app.deps';
import type { DownstreamClients } from '../grpc/downstream.clients';
import { TEST_SETTINGS, alwaysReady, silentLogger } from './fixtures';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  bytes: Buffer;
  /** Parsed JSON body (undefined when the body is not JSON). */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface RunningApp {
  url: string;
  request(method: string, path: string, options?: { headers?: Record<string, string>; body?: string | Buffer | object }): Promise<HttpAnswer>;
  close(): Promise<void>;
}

/** Starts `createApp` on an ephemeral port. */
export async function startApp(deps: Partial<GatewayDeps> & { clients: DownstreamClients }): Promise<RunningApp> {
  const app = createApp({ logger: silentLogger, readiness: alwaysReady, settings: TEST_SETTINGS, ...deps });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    async request(method, path, options = {}) {
      const { body } = options;
      const payload = body === undefined || typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
      const headers = { ...(body !== undefined && !Buffer.isBuffer(body) ? { 'content-type': 'application/json' } : {}), ...options.headers };
      const response = await fetch(`${url}${path}`, { method, headers, body: payload });
      const bytes = Buffer.from(await response.arrayBuffer());
      const text = bytes.toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, bytes, json };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
