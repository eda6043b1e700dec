import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { eventually } from './support/api';
import { stackInfo } from './support/stack-info';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * Restarts keep working (issue 11 point 7): `npm run stop && npm start` on the same `.local` data
 * works like the first start. This suite runs npm start's own entry point (dist/tools/stack/main.js)
 * as a second copy, on its own ports, folder and databases, on the store and broker of the suite's
 * stack: it pays, stops, starts again and pays again (simulate → succeeded by the provider's
 * webhook, and the merchant's webhook delivered), then starts once more after the emulator lost
 * its memory (data from before emulators kept state), where the seed replaces the account whose
 * webhook the emulator forgot. npm start's seed connects a test account at every emulator: they are
 * reused across the restart, boleto and card pay (at Asaas), and the Asaas account is replaced too
 * when the Asaas emulator lost its state.
 */
jest.setTimeout(400_000);

type Json = Record<string, any>;

const ROOT = path.resolve(__dirname, '../../..');
const DIR = path.join(ROOT, '.local', 'e2e-restart');
/** Beside npm start (0), e2e (1000), fuzz (2500) and the bench (3000). */
const PORT_OFFSET = 4000;

interface StackEnv {
  ORQUESTRA_BASE_URL: string;
  ORQUESTRA_TEST_KEY: string;
  ORQUESTRA_TEST_PROVIDER_ACCOUNT_ID: string;
}

/** One `npm start` (without the provisioning and build that tools/stack/stack.sh does first). */
class NpmStart {
  private child: ChildProcess | undefined;

  constructor(private readonly dbPrefix: string) {}

  async start(): Promise<StackEnv> {
    const script = path.join(ROOT, 'dist/tools/stack/main.js');
    if (!existsSync(script)) throw new Error(`${script} is missing: run tools/build/build-all.sh first`);
    const child = spawn(process.execPath, ['--enable-source-maps', script], {
      env: {
        ...process.env,
        MONGO_URL: stackInfo().mongoUrl,
        AMQP_URL: stackInfo().amqpUrl,
        ORQUESTRA_STACK_DIR: DIR,
        ORQUESTRA_STACK_PORT_OFFSET: String(PORT_OFFSET),
        ORQUESTRA_STACK_DB_PREFIX: this.dbPrefix,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not become ready in 180 s:\n${output}`)), 180_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Press Ctrl-C to stop')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited with code ${code}; logs in ${DIR}/logs:\n${output}`));
      });
    });
    const values = Object.fromEntries(
      readFileSync(path.join(DIR, 'stack.env'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    return values as unknown as StackEnv;
  }

  /** `npm run stop`: SIGTERM, which stops every service and emulator gracefully. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
}

async function call(stack: StackEnv, method: string, route: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${stack.ORQUESTRA_BASE_URL}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${stack.ORQUESTRA_TEST_KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json };
}

const pix = () => ({ method: 'pix', amount: 1990, customer: { name: 'Maria Silva', email: 'maria@example.com' }, metadata: { order_id: randomUUID() } });
/** Boleto and card go to the seed's Asaas account (npm start connects one at every emulator); Asaas needs a CPF. */
const other = (method: 'boleto' | 'card') => ({ method, amount: 4990, customer: { name: 'Maria Silva', email: 'maria@example.com', document: '52998224725' } });
const EMULATORS = ['asaas', 'efi', 'mercadopago', 'pagarme', 'stripe', 'woovi'];
/** The enabled test accounts, provider → id. */
async function enabledAccounts(env: StackEnv): Promise<Record<string, string>> {
  const accounts = (await call(env, 'GET', '/v1/provider-accounts')).body.data as Json[];
  return Object.fromEntries(accounts.filter((a) => a.enabled).map((a) => [a.provider as string, a.id as string]));
}

describe('npm start after npm run stop', () => {
  const receiver = new WebhookReceiver();
  const stack = new NpmStart(`e2e_restart_${randomBytes(3).toString('hex')}_`);

  beforeAll(async () => {
    rmSync(DIR, { recursive: true, force: true });
    await receiver.start();
  });
  afterAll(async () => {
    await stack.stop();
    await receiver.stop();
  });

  async function createPending(env: StackEnv, body: Json = pix()): Promise<Json> {
    const created = await call(env, 'POST', '/v1/payments', body);
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('pending');
    return created.body;
  }

  /** Simulate → succeeded, which only the provider's webhook can do, and the merchant hears of it. */
  async function pay(env: StackEnv, payment: Json): Promise<void> {
    expect((await call(env, 'POST', `/v1/payments/${payment.id}/simulate`)).status).toBe(200);
    await eventually(async () => ((await call(env, 'GET', `/v1/payments/${payment.id}`)).body.status === 'succeeded' ? true : undefined), `payment ${payment.id} to succeed`, 30_000);
    await eventually(
      async () => (receiver.received.some((r) => r.event.type === 'payment.succeeded' && r.event.data.object.id === payment.id) ? true : undefined),
      `payment.succeeded webhook for ${payment.id}`,
      30_000,
    );
  }

  it('pays on the first start, and after a restart pays new and earlier payments the same way', async () => {
    const first = await stack.start();
    // A test account at each of the six emulators (npm start's seed only; the e2e stack's seed does not).
    const accountsFirst = await enabledAccounts(first);
    expect(Object.keys(accountsFirst).sort()).toEqual(EMULATORS);
    const hook = await call(first, 'POST', '/v1/webhook-endpoints', { url: `${receiver.url}/restart`, events: ['payment.*'] });
    expect(hook.status).toBe(201);
    const paidBefore = await createPending(first);
    await pay(first, paidBefore);
    const openAcrossRestart = await createPending(first);
    await stack.stop();
    // The emulators wrote what they know where npm start keeps its data.
    expect(existsSync(path.join(DIR, 'emulators', 'efi.json'))).toBe(true);

    const second = await stack.start();
    // Same keys, same merchant, same provider account: the data of the first start.
    expect(second).toEqual(first);
    expect((await call(second, 'GET', `/v1/payments/${paidBefore.id}`)).body.status).toBe('succeeded');
    // A Pix created before the restart is still payable, and a new one too.
    await pay(second, openAcrossRestart);
    await pay(second, await createPending(second));
    // The restart reused the accounts at every emulator, and boleto and card work out of the box.
    expect(await enabledAccounts(second)).toEqual(accountsFirst);
    for (const method of ['boleto', 'card'] as const) {
      const payment = await createPending(second, other(method));
      expect(payment.provider).toBe('asaas');
      await pay(second, payment);
    }
    await stack.stop();
  });

  it('replaces the seeded account whose webhook the emulator forgot (its state file gone), and pays', async () => {
    const before = JSON.parse(readFileSync(path.join(DIR, 'seed.json'), 'utf8')) as Json;
    rmSync(path.join(DIR, 'emulators', 'efi.json'));
    rmSync(path.join(DIR, 'emulators', 'asaas.json'));
    const third = await stack.start();
    const seedAfter = JSON.parse(readFileSync(path.join(DIR, 'seed.json'), 'utf8')) as Json;
    expect(seedAfter.testKey).toBe(before.testKey);
    const accounts = (await call(third, 'GET', '/v1/provider-accounts')).body.data as Json[];
    const replaced = accounts.filter((a) => a.provider === 'efi' && a.id !== third.ORQUESTRA_TEST_PROVIDER_ACCOUNT_ID);
    expect(replaced).toHaveLength(1);
    expect(replaced[0]).toMatchObject({ enabled: false });
    expect(replaced[0]!.name).toMatch(/substituída/);
    await pay(third, await createPending(third));
    // Asaas forgot its account too (it answers the seed's registration as new): replaced, and a card pays.
    const asaas = accounts.filter((a) => a.provider === 'asaas');
    expect(asaas.map((a) => a.enabled).sort()).toEqual([false, true]);
    expect(asaas.find((a) => !a.enabled)!.name).toMatch(/substituída/);
    const card = await createPending(third, other('card'));
    expect(card.provider_account_id).toBe(asaas.find((a) => a.enabled)!.id);
    await pay(third, card);
    await stack.stop();
  });
});
