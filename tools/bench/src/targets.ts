/**
 * The two things under load: the gateway's `POST /v1/payments` (the whole platform: gateway →
 * payments → routing → providers → Efí emulator, plus the store and the broker) and the Efí
 * emulator's `PUT /v2/cob/:txid` on its own (HTTPS with mTLS), the floor the platform adds to.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Agent, request } from 'undici';
import type { LoadTarget } from './load';

export function gatewayTarget(options: { port: number; testKey: string; runId: string }): LoadTarget {
  const base = `http://127.0.0.1:${options.port}`;
  let seq = 0;
  return {
    url: `${base}/v1/payments`,
    method: 'POST',
    headers: { authorization: `Bearer ${options.testKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'pix', amount: 1990, customer: { name: 'Bench' }, metadata: { run: options.runId } }),
    successStatus: 201,
    next: () => ({ path: '/v1/payments', headers: { 'idempotency-key': `bench-${options.runId}-${seq++}` } }),
  };
}

export interface EmulatorClient {
  clientId: string;
  clientSecret: string;
  pixKey: string;
}

export function clientTls(certDir: string): { cert: Buffer; key: Buffer; ca: Buffer } {
  const read = (file: string) => readFileSync(path.join(certDir, file));
  return { cert: read('client.pem'), key: read('client.key'), ca: read('ca.pem') };
}

/** `POST /oauth/token` with the client's Basic credentials, over mTLS, as the providers service does. */
export async function emulatorToken(options: { port: number; certDir: string; client: EmulatorClient }): Promise<string> {
  const tls = clientTls(options.certDir);
  const agent = new Agent({ connect: { cert: tls.cert, key: tls.key, ca: tls.ca } });
  try {
    const basic = Buffer.from(`${options.client.clientId}:${options.client.clientSecret}`).toString('base64');
    const answer = await request(`https://localhost:${options.port}/oauth/token`, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    const body = (await answer.body.json()) as { access_token?: string };
    if (answer.statusCode !== 200 || !body.access_token) throw new Error(`emulator token request answered ${answer.statusCode}`);
    return body.access_token;
  } finally {
    await agent.close();
  }
}

/**
 * `PUT /v2/cob/<txid>` with a cached token; the txid is 32 alphanumerics, unique per request
 * (Efí accepts 26–35).
 */
export function emulatorTarget(options: { port: number; certDir: string; token: string; pixKey: string; runId: string }): LoadTarget {
  const prefix = `b${options.runId.replace(/[^a-zA-Z0-9]/g, '')}`.slice(0, 12);
  const txid = (n: number) => `${prefix}${String(n).padStart(32 - prefix.length, '0')}`;
  let seq = 0;
  return {
    url: `https://127.0.0.1:${options.port}/v2/cob/${txid(seq)}`,
    method: 'PUT',
    headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ calendario: { expiracao: 3600 }, valor: { original: '19.90' }, chave: options.pixKey }),
    successStatus: 201,
    next: () => ({ path: `/v2/cob/${txid(seq++)}` }),
    tlsOptions: clientTls(options.certDir),
  };
}
