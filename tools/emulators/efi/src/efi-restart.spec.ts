/**
 * A restarted emulator with a state file (what `npm start` runs) knows what the one before it knew:
 * clients, charges, the webhook registration, and devoluções still settling.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { generateTestCerts, type TestCerts } from '../../testing/test-certs';
import { createEfiEmulator, type EfiEmulator } from './efi-emulator';
import { eventuallyExpect } from '@orquestra/platform/testing';

jest.setTimeout(30_000);

const CLIENT = { client_id: 'restart_client', client_secret: 'restart_secret', chave: 'restart-chave-0001' };

let certs: TestCerts;
let dir: string;
let agent: Agent;
let receiver: Server;
let receiverUrl: string;
const received: { path: string; body: { pix?: { txid: string }[] } }[] = [];

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: Record<string, unknown> }>;

/** One running emulator and how to call it (OAuth token fetched on start). */
async function startEmulator(refundSettleMs: number): Promise<{ emulator: EfiEmulator; call: Call; control: Call }> {
  const emulator = createEfiEmulator({
    tls: { cert: certs.serverCertPem, key: certs.serverKeyPem, ca: certs.caPem },
    webhooks: { retries: 0, timeoutMs: 1_000, verifyOnRegister: false },
    refundSettleMs,
    stateFile: join(dir, 'efi.json'),
  });
  const ports = await emulator.start();
  const api = `https://localhost:${ports.apiPort}`;
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${ports.controlPort}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
  // The stack's seed registers its clients on every start; the test does the same.
  await control('POST', '/__control/clients', CLIENT);
  const basic = Buffer.from(`${CLIENT.client_id}:${CLIENT.client_secret}`).toString('base64');
  const token = String((await callWith(api, '', 'POST', '/oauth/token', { grant_type: 'client_credentials' }, basic)).body['access_token']);
  return { emulator, call: (method, path, body) => callWith(api, token, method, path, body), control };
}

async function callWith(api: string, token: string, method: string, path: string, body?: unknown, basic?: string) {
  const response = await request(`${api}${path}`, {
    method: method as 'GET',
    headers: { authorization: basic ? `Basic ${basic}` : `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    dispatcher: agent,
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

const cob = () => ({ calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: CLIENT.chave });

beforeAll(async () => {
  certs = generateTestCerts('efi-restart-spec');
  dir = mkdtempSync(join(tmpdir(), 'efi-restart-'));
  agent = new Agent({ connect: { ca: certs.caPem, cert: certs.clientCertPem, key: certs.clientKeyPem } });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { pix?: { txid: string }[] } });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  await agent?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  certs?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

it('keeps charges, the webhook registration and settling devoluções across a restart', async () => {
  // First run: a charge paid and refunded (the devolução still settling at shutdown), a second
  // charge open, and the webhook registered once, as the providers service does at connect time.
  const first = await startEmulator(60_000);
  let e2e: string;
  let openCharge: Awaited<ReturnType<Call>>;
  try {
    expect((await first.call('PUT', `/v2/webhook/${CLIENT.chave}`, { webhookUrl: receiverUrl })).status).toBe(201);
    expect((await first.call('PUT', '/v2/cob/restarttxid00000000000000000001', cob())).status).toBe(201);
    openCharge = await first.call('PUT', '/v2/cob/restarttxid00000000000000000002', cob());
    const paid = await first.control('POST', '/__control/charges/restarttxid00000000000000000001/pay');
    e2e = (paid.body['pix'] as { endToEndId: string }[])[0]!.endToEndId;
    expect((await first.call('PUT', `/v2/pix/${e2e}/devolucao/dev1`, { valor: '4.00' })).body).toMatchObject({ status: 'EM_PROCESSAMENTO' });
  } finally {
    await first.emulator.stop();
  }

  // Second run on the same file: nothing registered again but the client.
  received.length = 0;
  const second = await startEmulator(50);
  try {
    expect((await second.call('GET', `/v2/webhook/${CLIENT.chave}`)).body).toMatchObject({ webhookUrl: receiverUrl });
    expect((await second.control('GET', `/__control/clients/${CLIENT.client_id}`)).body).toEqual({ client_id: CLIENT.client_id, chave: CLIENT.chave, webhook_registered: true });
    expect((await second.control('GET', '/__control/clients/nobody')).status).toBe(404);
    const open = await second.call('GET', '/v2/cob/restarttxid00000000000000000002');
    expect(open.body).toMatchObject({ status: 'ATIVA', pixCopiaECola: openCharge.body['pixCopiaECola'] });
    expect((open.body['calendario'] as { criacao: string }).criacao).toBe((openCharge.body['calendario'] as { criacao: string }).criacao);
    // A txid stays taken, and new locations do not reuse old ids.
    expect((await second.call('PUT', '/v2/cob/restarttxid00000000000000000002', cob())).status).toBe(409);
    const third = await second.call('PUT', '/v2/cob/restarttxid00000000000000000003', cob());
    expect((third.body['loc'] as { id: number }).id).toBeGreaterThan((openCharge.body['loc'] as { id: number }).id);

    // Paying the charge made before the restart notifies the webhook registered before it.
    expect((await second.control('POST', '/__control/charges/restarttxid00000000000000000002/pay')).body).toMatchObject({ webhook: 'scheduled' });
    await second.emulator.webhooksIdle();
    expect(received.some((r) => r.path === '/hook/pix' && r.body.pix?.[0]?.txid === 'restarttxid00000000000000000002')).toBe(true);

    // The devolução asked for before the restart settles after it, with its webhook.
    // Settled by the restored timer, then notified over HTTP: both polled for.
    await eventuallyExpect(async () => {
      expect((await second.call('GET', `/v2/pix/${e2e}/devolucao/dev1`)).body).toMatchObject({ status: 'DEVOLVIDO' });
      await second.emulator.webhooksIdle();
      expect(received.some((r) => r.body.pix?.[0]?.txid === 'restarttxid00000000000000000001')).toBe(true);
    });
  } finally {
    await second.emulator.stop();
  }
});
