import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  IdempotencyError,
  InvalidRequestError,
  NotFoundError,
  OPERATIONS,
  OPERATIONS_OUTSIDE_SDK,
  Orquestra,
  PermissionError,
  SCHEMA_FIELDS,
  constructEvent,
  type Payment,
} from '@orquestra/node';
import { stackInfo } from './support/stack-info';

// The SDK (libs/sdk) against the real stack: what a merchant's code and a sales bot do with it.

type Json = Record<string, any>;

const ROOT = path.resolve(__dirname, '../../..');

function sdk(key = stackInfo().testKey): Orquestra {
  return new Orquestra({ apiKey: key, baseUrl: stackInfo().baseUrl, retry: { maxRetries: 1, initialDelayMs: 50 } });
}

const pix = (name = 'Maria Silva', extra: Json = {}) => ({ method: 'pix' as const, amount: 1990, customer: { name }, ...extra });

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

describe('SDK against the stack', () => {
  it('creates, retrieves and cancels a Pix payment', async () => {
    const orquestra = sdk();
    const created = await orquestra.payments.create(pix('SDK Criação', { metadata: { order_id: randomUUID() } }));
    expect(created).toMatchObject({ object: 'payment', method: 'pix', status: 'pending', amount: 1990 });
    expect(created.next_action?.qr_code).toEqual(expect.any(String));

    const read = await orquestra.payments.retrieve(created.id);
    expect(read.id).toBe(created.id);
    expect(read.attempts.length).toBeGreaterThan(0);

    const canceled = await orquestra.payments.cancel(created.id);
    expect(canceled.status).toBe('canceled');
  });

  it('pages through a list with limit and starting_after (list and listAll)', async () => {
    const orquestra = sdk();
    const token = `sdkpag${randomUUID().slice(0, 8)}`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await orquestra.payments.create(pix(`Cliente ${token}`))).id);
    const newestFirst = [...ids].reverse();

    const first = await orquestra.payments.list({ q: token, limit: 2 });
    expect(first.data.map((p) => p.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.has_more).toBe(true);
    const second = await orquestra.payments.list({ q: token, limit: 2, starting_after: first.data[1]!.id });
    expect(second.data.map((p) => p.id)).toEqual(newestFirst.slice(2));
    expect(second.has_more).toBe(false);

    const all: string[] = [];
    for await (const payment of orquestra.payments.listAll({ q: token, limit: 1 })) all.push(payment.id);
    expect(all).toEqual(newestFirst);
  });

  it('raises typed errors carrying code, message and param', async () => {
    const invalid = await sdk()
      .payments.create(pix('Maria', { customer: { name: 'Maria', document: '123' } }))
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'customer.document' });
    expect((invalid as Error).message).toMatch(/CPF/);
    expect((invalid as InvalidRequestError).requestId).toEqual(expect.any(String));

    await expect(sdk().payments.retrieve('pay_01jzzzzzzzzzzzzzzzzzzzzzzz')).rejects.toBeInstanceOf(NotFoundError);

    const restricted = sdk(stackInfo().restrictedTestKey);
    const own = await restricted.payments.create(pix());
    await expect(restricted.payments.cancel(own.id)).rejects.toMatchObject({ code: 'restricted_key', statusCode: 403 });
    await expect(restricted.payments.cancel(own.id)).rejects.toBeInstanceOf(PermissionError);
  });

  it('replays a create with the same Idempotency-Key instead of charging twice', async () => {
    const orquestra = sdk();
    const key = `sdk-${randomUUID()}`;
    const body = pix('SDK Idempotência', { metadata: { order_id: key } });
    const first = await orquestra.payments.create(body, { idempotencyKey: key });
    const again = await orquestra.payments.create(body, { idempotencyKey: key });
    expect(again.id).toBe(first.id);

    const replay = await orquestra.transport.request<Payment>({ method: 'POST', path: '/v1/payments', body, idempotencyKey: key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data.id).toBe(first.id);

    const conflict = await orquestra.payments.create({ ...body, amount: 2990 }, { idempotencyKey: key }).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(IdempotencyError);
    expect(conflict).toMatchObject({ code: 'idempotency_conflict' });
  });

  it('reads providers, provider accounts, routing rules, routing simulation and events', async () => {
    const orquestra = sdk();
    expect((await orquestra.providers.list()).data.map((p) => p.code)).toContain('efi');
    const accounts = await orquestra.providerAccounts.list();
    expect(accounts.data.map((a) => a.id)).toContain(stackInfo().testProviderAccountId);
    expect((await orquestra.providerAccounts.retrieve(stackInfo().testProviderAccountId)).object).toBe('provider_account');
    expect((await orquestra.routingRules.list()).object).toBe('list');
    const simulation = await orquestra.routing.simulate({ method: 'pix', amount: 1990 });
    expect(simulation.candidates[0]?.account_id).toEqual(expect.any(String));
    const events = await orquestra.events.list({ limit: 5 });
    expect(events.data.length).toBeGreaterThan(0);
    expect(events.data[0]).toMatchObject({ object: 'event' });
  });

  it('mirrors the response schemas of the live OpenAPI document field by field', async () => {
    const doc = (await (await fetch(`${stackInfo().baseUrl}/v1/openapi.json`)).json()) as Json;
    const schemas = doc['components']['schemas'] as Json;
    const propertiesOf = (schema: Json): string[] =>
      [
        ...Object.keys(schema['properties'] ?? {}),
        ...((schema['allOf'] ?? []) as Json[]).filter((part) => !part['$ref']).flatMap((part) => Object.keys(part['properties'] ?? {})),
      ].sort();
    for (const [name, fields] of Object.entries(SCHEMA_FIELDS)) {
      const schema = name === 'ErrorBody' ? schemas['Error']?.['properties']?.['error'] : schemas[name];
      expect({ name, documented: schema ? propertiesOf(schema) : 'missing' }).toEqual({ name, documented: [...fields].sort() });
    }
  });
});

/** True when libs/sdk/dist is older than some source file of the SDK (then the pack check builds first). */
function sdkDistStale(): boolean {
  const dist = path.join(ROOT, 'libs/sdk/dist/index.d.mts');
  let built: number;
  try {
    built = statSync(dist).mtimeMs;
  } catch {
    return true;
  }
  const newest = (dir: string): number =>
    Math.max(0, ...readdirSync(dir, { withFileTypes: true }).map((entry) => (entry.isDirectory() ? newest(path.join(dir, entry.name)) : statSync(path.join(dir, entry.name)).mtimeMs)));
  return Math.max(newest(path.join(ROOT, 'libs/sdk/src')), statSync(path.join(ROOT, 'libs/sdk/package.json')).mtimeMs) > built;
}

describe('SDK coverage of the live OpenAPI document', () => {
  it('has a method for every documented operation (bar the listed non-resources), and none for an undocumented one', async () => {
    const doc = (await (await fetch(`${stackInfo().baseUrl}/v1/openapi.json`)).json()) as Json;
    const methods = new Set(['get', 'post', 'put', 'patch', 'delete']);
    const documented = Object.entries(doc['paths'] as Record<string, Json>)
      .flatMap(([route, item]) => Object.keys(item).filter((key) => methods.has(key)).map((key) => `${key.toUpperCase()} ${route}`))
      .sort();
    const inSdk = OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    const outside = Object.keys(OPERATIONS_OUTSIDE_SDK);
    expect({
      withoutSdkMethod: documented.filter((operation) => !inSdk.includes(operation) && !outside.includes(operation)),
      sdkMethodsForUndocumented: inSdk.filter((operation) => !documented.includes(operation)),
      staleExclusions: outside.filter((operation) => !documented.includes(operation) || inSdk.includes(operation)),
    }).toEqual({ withoutSdkMethod: [], sdkMethodsForUndocumented: [], staleExclusions: [] });
  });
});

describe('the packed SDK (npm pack → npm install) and the example Pix bot (libs/sdk/examples/pix-bot.ts)', () => {
  it('installs, compiles as CommonJS and as an ES module, and the bot creates a Pix, polls and delivers once paid', async () => {
    const args = [path.join(ROOT, 'tools/sdk/pack-check.sh'), ...(sdkDistStale() ? [] : ['--skip-build'])];
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        'bash',
        args,
        { cwd: ROOT, env: { ...process.env, ORQUESTRA_BASE_URL: stackInfo().baseUrl, ORQUESTRA_TEST_KEY: stackInfo().testKey }, timeout: 170_000, maxBuffer: 8 << 20 },
        (error, stdout, stderr) => (error ? reject(new Error(`pack-check failed: ${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout)),
      );
    });
    const paid = [...output.matchAll(/(commonjs|module): the example bot created (pay_\w+), polled it and delivered/g)].map((m) => [m[1], m[2]!] as const);
    expect(paid.map(([project]) => project)).toEqual(['commonjs', 'module']);
    for (const [, id] of paid) expect((await sdk().payments.retrieve(id)).status).toBe('succeeded');
    expect(output).toMatch(/commonjs: installed, compiled .* loads node_modules\/@orquestra\/node\/dist\/index\.js/);
    expect(output).toMatch(/module: installed, compiled .* loads file:.*\/@orquestra\/node\/dist\/index\.mjs/);
  }, 180_000);
});

describe('webhook deliveries verified with the SDK', () => {
  let receiver: Server;
  const deliveries: Array<{ body: string; signature: string | undefined }> = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        deliveries.push({ body, signature: req.headers['service-signature'] as string | undefined });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('verifies a real signed delivery, and refuses it with another secret', async () => {
    const orquestra = sdk();
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const endpoint = await orquestra.webhookEndpoints.create({ url, events: ['payment.succeeded'] });
    try {
      const payment = await orquestra.payments.create(pix('SDK Webhook'));
      await orquestra.payments.simulate(payment.id);
      const delivery = await until(
        async () => deliveries.find((d) => d.body.includes(payment.id)),
        'the payment.succeeded delivery',
        30_000,
      );
      const event = constructEvent<Json>(delivery.body, delivery.signature, endpoint.secret);
      expect(event).toMatchObject({ object: 'event', type: 'payment.succeeded' });
      expect(event.data.object?.['id']).toBe(payment.id);
      expect(() => constructEvent(delivery.body, delivery.signature, 'whsec_not_this_one')).toThrow(/assinatura/);
    } finally {
      await orquestra.webhookEndpoints.delete(endpoint.id);
    }
  });
});
