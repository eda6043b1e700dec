import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { constructEvent, Orquestra, SignatureVerificationError, type RequestLog } from '@orquestra/node';
import { stackInfo } from './support/stack-info';

// The orq CLI (libs/cli), built into dist/libs/cli/main.js by tools/build/build-all.sh, run as a
// child process against the real stack: login, listen forwarding to a local receiver that checks
// the signature with the SDK, trigger, payments, logs tail.

const ROOT = path.resolve(__dirname, '../../..');
const ORQ = path.join(ROOT, 'dist/libs/cli/main.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Every run gets the same scratch HOME/XDG_CONFIG_HOME (what login saved) and no key from the test's environment. */
const configHome = mkdtempSync(path.join(tmpdir(), 'orq-e2e-'));
function orqEnv(): NodeJS.ProcessEnv {
  const { ORQUESTRA_API_KEY: _key, ...env } = process.env;
  return { ...env, HOME: configHome, XDG_CONFIG_HOME: configHome, ORQUESTRA_BASE_URL: stackInfo().baseUrl };
}

function start(args: string[]): ChildProcessWithoutNullStreams & { output: { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, [ORQ, ...args], { env: orqEnv() }) as ChildProcessWithoutNullStreams & { output: { stdout: string; stderr: string } };
  child.output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (child.output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (child.output.stderr += chunk.toString()));
  return child;
}

function orq(...args: string[]): Promise<Run> {
  const child = start(args);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, ...child.output })));
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

const sdk = () => new Orquestra({ apiKey: stackInfo().testKey, baseUrl: stackInfo().baseUrl });

interface Received {
  rawBody: string;
  signature: string;
}

describe('orq, the CLI, against the stack', () => {
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];

  beforeAll(async () => {
    // The merchant's webhook endpoint on localhost: it keeps the raw body, as signature checks need.
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ rawBody: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['service-signature'] ?? '') });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('logs in with a test key: checked by the API, saved 0600, only its last 4 printed', async () => {
    const key = stackInfo().testKey;
    const login = await orq('login', '--api-key', key);
    expect(login).toMatchObject({ code: 0 });
    expect(login.stdout).toContain(`svc_test_…${key.slice(-4)}`);
    expect(login.stdout + login.stderr).not.toContain(key);
    expect(statSync(path.join(configHome, 'orquestra', 'config.json')).mode & 0o777).toBe(0o600);

    const refused = await orq('login', '--api-key', 'svc_test_doesnotexist000000000000000000');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('A API recusou a chave');
  });

  it('triggers payment.succeeded and listen forwards it, signed so the SDK verifies it with the printed secret', async () => {
    const secret = (await orq('listen', '--print-secret')).stdout.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const listen = start(['listen', '--forward-to', receiverUrl, '--events', 'payment.succeeded', '--interval', '250']);
    try {
      await until(() => (listen.output.stderr.includes('Pronto!') ? true : undefined), 'listen to start');
      expect(listen.output.stderr).toContain(secret);

      const trigger = await orq('trigger', 'payment.succeeded');
      expect(trigger).toMatchObject({ code: 0 });
      const paymentId = /^payment (pay_\w+)$/m.exec(trigger.stdout)?.[1];
      expect(paymentId).toBeDefined();

      const delivery = await until(
        () => received.find((r) => JSON.parse(r.rawBody).data?.object?.id === paymentId),
        'the forwarded payment.succeeded',
      );
      const event = constructEvent<{ id: string; status: string }>(delivery.rawBody, delivery.signature, secret);
      expect(event).toMatchObject({ object: 'event', type: 'payment.succeeded', data: { object: { id: paymentId, status: 'succeeded' } } });
      expect(() => constructEvent(delivery.rawBody, delivery.signature, 'whsec_another')).toThrow(SignatureVerificationError);
      await until(() => (listen.output.stdout.includes(`${event.id}  → [200] POST ${receiverUrl}`) ? true : undefined), 'the forwarded line');
      // --events payment.succeeded: the payment.created before it was not forwarded.
      expect(received.map((r) => JSON.parse(r.rawBody).type)).not.toContain('payment.created');
    } finally {
      listen.kill('SIGINT');
    }
    expect(await new Promise((resolve) => listen.once('exit', resolve))).toBe(0);
    expect(received.filter((r) => JSON.parse(r.rawBody).data?.object?.metadata?.orq_trigger).length).toBe(1);
  });

  it('triggers refund.succeeded and dispute.created on test objects, and refuses a live key', async () => {
    const refund = await orq('trigger', 'refund.succeeded');
    expect(refund).toMatchObject({ code: 0 });
    const refundPayment = /^payment (pay_\w+)$/m.exec(refund.stdout)![1]!;
    expect(refund.stdout).toMatch(/^refund re_\w+$/m);
    const dispute = await orq('trigger', 'dispute.created');
    expect(dispute).toMatchObject({ code: 0 });
    const disputed = /^payment (pay_\w+)$/m.exec(dispute.stdout)![1]!;
    expect(dispute.stdout).toMatch(/^dispute dp_\w+$/m);

    const typesOf = async (paymentId: string) => (await sdk().events.list({ payment_id: paymentId, limit: 50 })).data.map((e) => e.type);
    await until(async () => ((await typesOf(refundPayment)).includes('refund.succeeded') ? true : undefined), 'refund.succeeded');
    await until(async () => ((await typesOf(disputed)).includes('dispute.created') ? true : undefined), 'dispute.created');

    const live = await orq('trigger', 'payment.succeeded', '--api-key', stackInfo().liveKey);
    expect(live.code).toBe(1);
    expect(live.stderr).toContain('só funciona com uma chave de teste');
    expect(live.stderr).not.toContain(stackInfo().liveKey);
  });

  it('creates, gets and lists payments', async () => {
    const created = await orq('payments', 'create', '--amount', '1234', '--method', 'pix', '--customer-name', 'Cliente CLI', '--metadata', 'origem=orq');
    expect(created).toMatchObject({ code: 0 });
    const payment = JSON.parse(created.stdout) as { id: string; status: string; amount: number; metadata: Record<string, string> };
    expect(payment).toMatchObject({ status: 'pending', amount: 1234, metadata: { origem: 'orq' } });

    const got = await orq('payments', 'get', payment.id);
    expect(JSON.parse(got.stdout)).toMatchObject({ id: payment.id, attempts: expect.any(Array) });

    const table = await orq('payments', 'list', '--limit', '5', '--format', 'table');
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+MÉTODO\s+VALOR\s+CRIADO$/);
    expect(table.stdout).toMatch(new RegExp(`${payment.id}\\s+pending\\s+pix\\s+R\\$ 12,34`));

    const missing = await orq('payments', 'get', 'pay_01jzzzzzzzzzzzzzzzzzzzzzzz');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Erro: .+ \(not_found, .*request id req_\w+\)$/m);
  });

  it('logs tail shows the calls with status and request id, and --follow prints new ones', async () => {
    const read = await sdk().payments.list({ limit: 1 });
    const requestId = read.lastResponse.requestId!;
    expect(requestId).toMatch(/^req_/);
    // The gateway sends the log in batches (every second): wait for this call to be in it.
    const lines = await until(async () => {
      const tail = await orq('logs', 'tail', '--limit', '100', '--json');
      const logs = tail.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as RequestLog);
      return logs.some((log) => log.request_id === requestId) ? logs : undefined;
    }, 'the SDK call in the request log');
    expect(lines.find((log) => log.request_id === requestId)).toMatchObject({ method: 'GET', path: '/v1/payments', status: 200, mode: 'test' });
    // What the CLI itself did earlier is there too: the trigger's create and simulate, a 404.
    expect(lines.some((log) => log.method === 'POST' && log.path === '/v1/payments' && log.status === 201)).toBe(true);
    expect(lines.some((log) => log.method === 'POST' && /^\/v1\/payments\/pay_\w+\/simulate$/.test(log.path) && log.status === 200)).toBe(true);
    expect(lines.some((log) => log.status === 404 && log.path === '/v1/payments/pay_01jzzzzzzzzzzzzzzzzzzzzzzz')).toBe(true);
    // Oldest first, and the log's own reads are not in it.
    expect(lines.map((log) => log.id)).toEqual([...lines.map((log) => log.id)].sort());
    expect(lines.some((log) => log.path === '/v1/request-logs')).toBe(false);

    const follow = start(['logs', 'tail', '--follow', '--limit', '1', '--interval', '300']);
    try {
      await until(() => (follow.output.stdout.trim() ? true : undefined), 'the first lines of logs tail');
      const later = await sdk().events.list({ limit: 1 });
      const laterId = later.lastResponse.requestId!;
      const line = await until(() => follow.output.stdout.split('\n').find((l) => l.includes(laterId)), 'the new call in logs tail --follow');
      expect(line).toMatch(new RegExp(`GET\\s+200\\s+[\\d.]+ ms\\s+${laterId}\\s+/v1/events$`));
    } finally {
      follow.kill('SIGINT');
    }
    expect(await new Promise((resolve) => follow.once('exit', resolve))).toBe(0);
  });
});
