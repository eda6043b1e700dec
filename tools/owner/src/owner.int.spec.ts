import { randomBytes } from 'node:crypto';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { accounts } from '@orquestra/contracts';
import { createRpcClient, grpcHealthStatus } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import { MongoClient } from 'mongodb';
import { runOwnerCommand, type AccountsClient } from './owner';

jest.setTimeout(90_000);

/**
 * The owner command against a real accounts service: the service's own code, bundled fresh into a
 * private file (never the stack's dist/), run as a process on the test store.
 */
const ROOT = path.resolve(__dirname, '../../..');
const SERVICE = 'dist/test/owner-spec/accounts.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm run owner -- … against the accounts service', () => {
  let service: ChildProcess;
  let client: AccountsClient;
  let address: string;
  let mongoUrl: string;
  let dbPrefix: string;
  let merchantId: string;

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    mongoUrl = infra.mongoUrl;
    dbPrefix = uniqueDbPrefix('owner');
    execFileSync(process.execPath, ['tools/build/build-tool.mjs', 'services/accounts/src/main.ts', SERVICE], { cwd: ROOT, stdio: 'ignore' });
    address = `127.0.0.1:${await freePort()}`;
    service = spawn(process.execPath, [path.join(ROOT, SERVICE)], {
      env: {
        PATH: process.env.PATH ?? '',
        SERVICE_NAME: 'accounts',
        LOG_LEVEL: 'warn',
        METRICS_PORT: '0',
        GRPC_ADDRESS: address,
        MONGO_URL: infra.mongoUrl,
        AMQP_URL: infra.amqpUrl,
        DB_PREFIX: dbPrefix,
        EVENTS_EXCHANGE: `${dbPrefix}events`,
        OWNER_SECRETS_KEYS: `o1:${randomBytes(32).toString('base64')}`,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const deadline = Date.now() + 30_000;
    while ((await grpcHealthStatus(address, 500)) !== 'SERVING') {
      if (Date.now() > deadline || service.exitCode !== null) throw new Error(`the accounts service at ${address} never served`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    client = createRpcClient(accounts.AccountsServiceService, address, { deadlineMs: 10_000 });
    merchantId = (await client.createMerchant({ name: 'Loja do Dono', email: 'dono@owner.test' })).merchant!.id;
  });
  afterAll(async () => {
    client?.close();
    service?.kill('SIGTERM');
    const mongo = await MongoClient.connect(mongoUrl);
    await dropTestDatabase(mongo.db(`${dbPrefix}accounts`));
    await mongo.close();
  });

  async function owner(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const status = await runOwnerCommand(argv, client, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { status, out: out.join('\n'), err: err.join('\n') };
  }

  it('shows the defaults, then turns payouts on and sets the limit, per mode', async () => {
    const status = await owner('payouts', 'status', '--merchant', 'dono@owner.test');
    expect(status).toMatchObject({ status: 0, err: '' });
    expect(status.out).toContain(`merchant: Loja do Dono <dono@owner.test> (${merchantId}), mode test`);
    expect(status.out).toContain('payouts by API (test): OFF');
    expect(status.out).toContain('daily limit (test): R$ 10.000,00 (1000000 cents) per São Paulo day');
    expect(status.out).toContain('updated at: never (defaults)');

    expect((await owner('payouts', 'enable', '--merchant', merchantId)).out).toContain('payouts by API (test): ON');
    expect((await owner('payouts', 'limit', '2500000', '--merchant', merchantId)).out).toContain('R$ 25.000,00 (2500000 cents)');
    const json = await owner('payouts', 'status', '--merchant', merchantId, '--json');
    expect(JSON.parse(json.out)).toMatchObject({ settings: { api_enabled: true, daily_limit: 2_500_000 } });
    const live = await owner('payouts', 'status', '--merchant', merchantId, '--mode', 'live', '--json');
    expect(JSON.parse(live.out)).toEqual({ settings: { api_enabled: false, daily_limit: 1_000_000, updated_at: '' } });
    expect((await owner('payouts', 'disable', '--merchant', merchantId)).out).toContain('payouts by API (test): OFF');
  });

  it('saves, lists and shows Pix keys; saving one again shows the saved one', async () => {
    const added = await owner('destinations', 'add', '--merchant', merchantId, '--type', 'email', '--key', 'Fin@Loja.com', '--label', 'Conta da empresa', '--json');
    expect(added.status).toBe(0);
    const { destination } = JSON.parse(added.out) as { destination: accounts.PayoutDestination };
    expect(destination).toMatchObject({ id: expect.stringMatching(/^pdest_/), key_type: 'email', key: 'fin@loja.com', label: 'Conta da empresa' });
    const again = await owner('destinations', 'add', '--merchant', merchantId, '--type', 'email', '--key', 'fin@loja.com', '--label', 'Outra', '--json');
    expect(JSON.parse(again.out)).toEqual({ destination });

    const list = await owner('destinations', 'list', '--merchant', merchantId);
    expect(list.out).toContain(`${destination.id}  email  fin@loja.com  "Conta da empresa"`);
    expect((await owner('destinations', 'list', '--merchant', merchantId, '--mode', 'live')).out).toContain('no saved Pix keys yet');
    expect((await owner('destinations', 'get', destination.id, '--merchant', merchantId)).out).toContain(destination.id);
  });

  it("prints the service's Portuguese refusal with its param, exit status 1", async () => {
    const badKey = await owner('destinations', 'add', '--merchant', merchantId, '--type', 'cpf', '--key', '123.456.789-00', '--label', 'Sócio');
    expect(badKey).toMatchObject({ status: 1, out: expect.any(String) });
    expect(badKey.err).toMatch(/^refused: parameter_invalid \(key\): CPF inválido/);
    expect((await owner('destinations', 'get', 'pdest_nope', '--merchant', merchantId)).err).toMatch(/^refused: not_found \(destination_id\)/);
    expect((await owner('payouts', 'status', '--merchant', 'ninguem@owner.test')).err).toMatch(/^refused: not_found \(email\)/);
  });

  it('answers usage mistakes with exit status 2 before calling anything', async () => {
    expect(await owner('payouts', 'limit', '10,50', '--merchant', merchantId)).toMatchObject({ status: 2, err: expect.stringContaining('whole cents') });
    expect(await owner('payouts', 'status')).toMatchObject({ status: 2, err: expect.stringContaining('--merchant') });
    expect(await owner('payouts', 'status', '--merchant', merchantId, '--mode', 'prod')).toMatchObject({ status: 2, err: expect.stringContaining('test or live') });
    expect(await owner('destinations', 'add', '--merchant', merchantId, '--type', 'email')).toMatchObject({ status: 2, err: expect.stringContaining('--key') });
    expect(await owner('payouts', 'explode', '--merchant', merchantId)).toMatchObject({ status: 2, err: expect.stringContaining('unknown command') });
    expect(await owner('payouts', '--bogus')).toMatchObject({ status: 2 });
    expect(await owner('help')).toMatchObject({ status: 0, out: expect.stringContaining('usage: npm run owner') });
  });

  it('runs as `npm run owner` (tools/owner/owner.sh) with ACCOUNTS_GRPC_ADDR', async () => {
    const run = promisify(execFile);
    const { stdout } = await run('bash', ['tools/owner/owner.sh', 'payouts', 'status', '--merchant', merchantId], {
      cwd: ROOT,
      env: { ...process.env, ACCOUNTS_GRPC_ADDR: address },
    });
    expect(stdout).toContain('payouts by API (test): OFF');
    const refused = await run('bash', ['tools/owner/owner.sh', 'payouts', 'limit', '0', '--merchant', merchantId], {
      cwd: ROOT,
      env: { ...process.env, ACCOUNTS_GRPC_ADDR: address },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('refused: parameter_invalid (daily_limit)') });
  });
});
