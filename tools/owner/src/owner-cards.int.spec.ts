import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { accounts, common, vault } from '@orquestra/contracts';
import { createRpcClient, grpcHealthStatus, type RpcClient } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import { MongoClient } from 'mongodb';
import { runOwnerCommand, type AccountsClient } from './owner';

jest.setTimeout(90_000);

/**
 * `npm run owner -- cards …` against the real accounts and vault services (their own code, bundled
 * fresh into private files, run as processes on the test store): the owner turns the card vault on
 * and off per merchant and mode, and a card fields tokenize call feels it.
 */
const ROOT = path.resolve(__dirname, '../../..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm run owner -- cards … against the vault', () => {
  const processes: ChildProcess[] = [];
  let client: AccountsClient;
  let vaultClient: RpcClient<typeof vault.VaultServiceService>;
  let mongoUrl: string;
  let dbPrefix: string;
  let merchantId: string;

  async function startService(name: 'accounts' | 'vault', extra: Record<string, string>): Promise<string> {
    const bundle = `dist/test/owner-cards-spec/${name}.js`;
    execFileSync(process.execPath, ['tools/build/build-tool.mjs', `services/${name}/src/main.ts`, bundle], { cwd: ROOT, stdio: 'ignore' });
    const address = `127.0.0.1:${await freePort()}`;
    const infra = await ensureTestInfra();
    const child = spawn(process.execPath, [path.join(ROOT, bundle)], {
      env: { PATH: process.env.PATH ?? '', SERVICE_NAME: name, LOG_LEVEL: 'warn', METRICS_PORT: '0', GRPC_ADDRESS: address, MONGO_URL: infra.mongoUrl, AMQP_URL: infra.amqpUrl, DB_PREFIX: dbPrefix, EVENTS_EXCHANGE: `${dbPrefix}events`, ...extra },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    processes.push(child);
    const deadline = Date.now() + 30_000;
    while ((await grpcHealthStatus(address, 500)) !== 'SERVING') {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${name} at ${address} never served`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return address;
  }

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    mongoUrl = infra.mongoUrl;
    dbPrefix = uniqueDbPrefix('owner_cards');
    const [accountsAddress, vaultAddress] = await Promise.all([
      startService('accounts', { OWNER_SECRETS_KEYS: `o1:${randomBytes(32).toString('base64')}` }),
      startService('vault', { CARD_ENCRYPTION_KEYS: `t1:${randomBytes(32).toString('base64')}`, FINGERPRINT_KEY: randomBytes(32).toString('base64') }),
    ]);
    client = createRpcClient(accounts.AccountsServiceService, accountsAddress, { deadlineMs: 10_000 });
    vaultClient = createRpcClient(vault.VaultServiceService, vaultAddress, { deadlineMs: 10_000 });
    merchantId = (await client.createMerchant({ name: 'Loja dos Cartões', email: 'cartoes@owner.test' })).merchant!.id;
  });
  afterAll(async () => {
    client?.close();
    vaultClient?.close();
    for (const child of processes) child.kill('SIGTERM');
    const mongo = await MongoClient.connect(mongoUrl);
    await dropTestDatabase(mongo.db(`${dbPrefix}accounts`));
    await dropTestDatabase(mongo.db(`${dbPrefix}vault`));
    await mongo.close();
  });

  async function owner(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const status = await runOwnerCommand(argv, client, { out: (l) => out.push(l), err: (l) => err.push(l) }, vaultClient);
    return { status, out: out.join('\n'), err: err.join('\n') };
  }

  it('test mode starts on and live off; the owner turns live on, then off, and tokenize follows', async () => {
    const test = await owner('cards', 'status', '--merchant', 'cartoes@owner.test');
    expect(test).toMatchObject({ status: 0, err: '' });
    expect(test.out).toContain('card vault (test): ON');
    expect(test.out).toMatch(/publishable key: pk_test_[0-9a-f]{32}/);
    expect(test.out).toContain('allowed sites: any');
    const live = await owner('cards', 'status', '--merchant', merchantId, '--mode', 'live', '--json');
    const { config } = JSON.parse(live.out) as { config: { enabled?: boolean; publishable_key: string } };
    expect(config.enabled ?? false).toBe(false);
    const tokenize = () =>
      vaultClient.tokenize({ publishable_key: config.publishable_key, origin: 'https://loja.test', number: '4111111111111111', exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: '123' });
    await expect(tokenize()).rejects.toMatchObject({ code: 'account_not_enabled' });

    expect((await owner('cards', 'enable', '--merchant', merchantId, '--mode', 'live')).out).toContain('card vault (live): ON');
    expect((await tokenize()).token).toMatch(/^tok_/);
    expect((await owner('cards', 'disable', '--merchant', merchantId, '--mode', 'live')).out).toContain('card vault (live): OFF');
    await expect(tokenize()).rejects.toMatchObject({ code: 'account_not_enabled' });
    // Test mode was never touched.
    expect((await vaultClient.getCardsConfig({ caller: common.Caller.fromPartial({ merchant_id: merchantId, mode: common.Mode.MODE_TEST }) })).config?.enabled).toBe(true);
    expect(await owner('cards', 'explode', '--merchant', merchantId)).toMatchObject({ status: 2, err: expect.stringContaining('unknown command') });
  });
});
