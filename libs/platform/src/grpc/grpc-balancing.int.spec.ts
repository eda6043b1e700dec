import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { experimental, Server, ServerCredentials, status as GrpcStatus, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';
import { providers } from '@orquestra/contracts';
import { eventuallyExpect } from '../testing/eventually';
import { createRpcClient, RpcError, type RpcClient } from './grpc-client';

// Real gRPC servers (the platform's GrpcServer in processes of their own, killed with SIGKILL) and
// the real client: balancing over several addresses, retries of what is safe to repeat when a
// replica dies mid-call, the connection age that makes clients find replicas started later, and
// the retry budget.

const root = path.resolve(__dirname, '../../../..');
const bundle = path.join(root, 'node_modules', '.cache', 'orquestra', `rpc-replica-${process.pid}.js`);

interface Replica {
  name: string;
  port: number;
  process: ChildProcess;
  calls: Array<{ method: string; merchant_id: string }>;
}

const replicas: Replica[] = [];
const clients: Array<{ close(): void }> = [];

async function startReplica(name: string, options: { maxAgeMs?: number; hang?: boolean } = {}): Promise<Replica> {
  const child = fork(bundle, [name, '0', String(options.maxAgeMs ?? 0), options.hang ? 'hang' : 'serve'], { stdio: 'inherit' });
  const replica: Replica = { name, port: 0, process: child, calls: [] };
  replicas.push(replica);
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`replica ${name} exited (${code})`)));
    child.on('message', (message: { type: string; port?: number; method?: string; merchant_id?: string }) => {
      if (message.type === 'ready') {
        replica.port = message.port ?? 0;
        resolve();
      } else if (message.type === 'call') {
        replica.calls.push({ method: message.method ?? '', merchant_id: message.merchant_id ?? '' });
      }
    });
  });
  return replica;
}

function killed(replica: Replica): Promise<void> {
  return new Promise((resolve) => {
    replica.process.once('exit', () => resolve());
    replica.process.kill('SIGKILL');
  });
}

function client(address: string, retry?: Parameters<typeof createRpcClient>[2]['retry']): RpcClient<typeof providers.ProvidersServiceService> {
  const rpc = createRpcClient(providers.ProvidersServiceService, address, { deadlineMs: 5_000, retry });
  clients.push(rpc);
  return rpc;
}

const list = (merchantId = 'm1') => providers.ListAccountsRequest.fromPartial({ merchant_id: merchantId });
const connect = (merchantId = 'm1') => providers.ConnectAccountRequest.fromPartial({ merchant_id: merchantId, provider: 'efi' });
const charge = (merchantId: string, key: string) => providers.CreateChargeRequest.fromPartial({ merchant_id: merchantId, idempotency_key: key, amount: 100 });
const calls = (replica: Replica, method: string, merchantId?: string) =>
  replica.calls.filter((call) => call.method === method && (merchantId === undefined || call.merchant_id === merchantId)).length;

beforeAll(() => {
  mkdirSync(path.dirname(bundle), { recursive: true });
  buildSync({
    entryPoints: [path.join(__dirname, 'testing', 'rpc-replica.fixture.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    tsconfig: path.join(root, 'tsconfig.base.json'),
    logLevel: 'warning',
  });
});

afterAll(() => rmSync(bundle, { force: true }));

afterEach(async () => {
  for (const rpc of clients.splice(0)) rpc.close();
  await Promise.all(replicas.splice(0).filter((replica) => replica.process.exitCode === null && replica.process.signalCode === null).map(killed));
});

describe('gRPC client balancing and retries against real servers', () => {
  it('spreads calls round_robin over every address of a list, and never repeats a handler error', async () => {
    const a = await startReplica('a');
    const b = await startReplica('b');
    // The scheme-less list form every *_GRPC_ADDR accepts (taken as ipv4:…).
    const rpc = client(`127.0.0.1:${a.port},127.0.0.1:${b.port}`);
    const answered: Record<string, number> = {};
    for (let i = 0; i < 40; i += 1) {
      const { accounts } = await rpc.listAccounts(list());
      const by = accounts[0]?.id ?? '';
      answered[by] = (answered[by] ?? 0) + 1;
    }
    // pick_first (grpc-js's default) would send all 40 to one replica.
    expect(answered.a).toBeGreaterThanOrEqual(15);
    expect(answered.b).toBeGreaterThanOrEqual(15);
    expect(Object.keys(answered).sort()).toEqual(['a', 'b']);

    // A handler's own UNAVAILABLE (provider_unavailable) is its verdict: sent once, not retried.
    const error = await rpc.listAccounts(list('fail')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: 'provider_unavailable', grpcStatus: GrpcStatus.UNAVAILABLE });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls(a, 'ListAccounts', 'fail') + calls(b, 'ListAccounts', 'fail')).toBe(1);
  });

  it('when a replica dies mid-call, retries reads and keyed writes on the other and fails unkeyed writes', async () => {
    const a = await startReplica('a', { hang: true });
    const b = await startReplica('b');
    const rpc = client(`ipv4:127.0.0.1:${a.port},127.0.0.1:${b.port}`);
    // Both channels (plain, and the one for keyed writes) connected to both replicas first.
    await eventuallyExpect(async () => {
      const answers = await Promise.all([1, 2, 3, 4].map(() => rpc.listAccounts(list())));
      expect(new Set(answers.map((answer) => answer.accounts[0]?.id))).toEqual(new Set(['a', 'b']));
    });
    await eventuallyExpect(async () => {
      const answers = await Promise.all([1, 2, 3, 4].map((i) => rpc.createCharge(charge('m1', `warm-${i}`))));
      expect(new Set(answers.map((answer) => answer.charge?.provider_payment_id))).toEqual(new Set(['a', 'b']));
    });

    // Four of each kind at once: round_robin sends about half of each to `a`, which hangs on them.
    // Settled as they are sent: a rejection waits for the assertions below.
    const reads = Promise.allSettled([1, 2, 3, 4].map(() => rpc.listAccounts(list('hang'))));
    const writes = Promise.allSettled([1, 2, 3, 4].map(() => rpc.connectAccount(connect('hang'))));
    const keyed = Promise.allSettled([1, 2, 3, 4].map((i) => rpc.createCharge(charge('hang', `pay_${i}:acc_1`))));
    const unkeyed = Promise.allSettled([1, 2, 3, 4].map(() => rpc.createCharge(charge('hang', ''))));
    await eventuallyExpect(() => {
      // Every call has reached a replica (each tells its parent before answering or hanging)…
      expect(['ListAccounts', 'ConnectAccount', 'CreateCharge'].map((method) => calls(a, method, 'hang') + calls(b, method, 'hang'))).toEqual([4, 4, 8]);
      // …and `a` holds some of each kind.
      for (const method of ['ListAccounts', 'ConnectAccount', 'CreateCharge']) expect(calls(a, method, 'hang')).toBeGreaterThanOrEqual(1);
      expect(calls(a, 'CreateCharge', 'hang')).toBeGreaterThanOrEqual(2);
    });
    const hungWrites = calls(a, 'ConnectAccount', 'hang');
    await killed(a);

    const [readResults, writeResults, keyedResults, unkeyedResults] = await Promise.all([reads, writes, keyed, unkeyed]);
    // Reads and keyed writes: every one answered, by `b`.
    expect(readResults.map((result) => (result.status === 'fulfilled' ? result.value.accounts[0]?.id : 'failed'))).toEqual(['b', 'b', 'b', 'b']);
    expect(keyedResults.map((result) => (result.status === 'fulfilled' ? result.value.charge?.provider_payment_id : 'failed'))).toEqual(['b', 'b', 'b', 'b']);
    // A write without a key may have been done by `a`: the caller learns UNAVAILABLE, nothing is repeated.
    const failedWrites = writeResults.filter((result) => result.status === 'rejected');
    expect(failedWrites).toHaveLength(hungWrites);
    for (const result of failedWrites) expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'service_unavailable', grpcStatus: GrpcStatus.UNAVAILABLE });
    // (A replica's report of a call may trail its answer by a moment.)
    await eventuallyExpect(() => expect(calls(b, 'ConnectAccount', 'hang')).toBe(4 - hungWrites), 2_000);
    const failedUnkeyed = unkeyedResults.filter((result) => result.status === 'rejected').length;
    expect(failedUnkeyed).toBeGreaterThanOrEqual(1);
    await eventuallyExpect(() => expect(calls(b, 'CreateCharge', 'hang')).toBe(4 + (4 - failedUnkeyed)), 2_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls(b, 'ConnectAccount', 'hang')).toBe(4 - hungWrites);
    expect(calls(b, 'CreateCharge', 'hang')).toBe(4 + (4 - failedUnkeyed));

    // Afterwards every call goes to the replica left.
    const after = await Promise.all([1, 2, 3, 4, 5, 6].map(() => rpc.listAccounts(list())));
    expect(after.map((answer) => answer.accounts[0]?.id)).toEqual(['b', 'b', 'b', 'b', 'b', 'b']);
  });

  it('repeats a read on the other replica when one answers UNIMPLEMENTED (listening, its handlers not yet registered)', async () => {
    // A replica starting up listens at once (health NOT_SERVING) and registers its services after
    // its database and broker connect; a client balancing over fixed addresses reaches it in that
    // window and gets grpc-js's own UNIMPLEMENTED, which no handler ran to answer.
    const starting = new Server();
    const startingPort = await new Promise<number>((resolve, reject) =>
      starting.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
    );
    const ready = await startReplica('ready');
    try {
      // A budget this test does not reach (the budget has its own test below): the warm-up's
      // failures would otherwise spend it.
      const rpc = client(`127.0.0.1:${startingPort},127.0.0.1:${ready.port}`, { maxTokens: 1_000 });
      // As in a running stack, the client is connected to the ready replica already (round_robin
      // picks only connected addresses: until then every attempt goes to the starting one).
      await eventuallyExpect(async () => expect((await rpc.listAccounts(list('warm-up')).catch(() => undefined))?.accounts[0]?.id).toBe('ready'), 5_000);
      // One after another, as a client's steady traffic.
      const answers: string[] = [];
      for (let i = 0; i < 12; i++) answers.push((await rpc.listAccounts(list('starting'))).accounts[0]?.id ?? '');
      expect(answers).toEqual(Array(12).fill('ready'));
      // A write sent once is not repeated: some reach the starting replica and fail there.
      const writes = await Promise.all(Array.from({ length: 12 }, () => rpc.connectAccount(connect('starting')).then(() => 'ok', (error: RpcError) => error.grpcStatus)));
      expect(writes).toContain(GrpcStatus.UNIMPLEMENTED);
      expect(calls(ready, 'ConnectAccount', 'starting')).toBe(writes.filter((outcome) => outcome === 'ok').length);
    } finally {
      starting.forceShutdown();
    }
  });

  it('finds a replica started later once the server closes connections at their maximum age', async () => {
    // A resolver like DNS: it answers the current address list only when the channel asks again
    // (which grpc-js does when a connection closes), as a headless Service's records do.
    const lists = new Map<string, string[]>();
    // Like grpc-js's DNS resolver, it answers at most once per interval (there 30 s by default).
    class ListResolver implements experimental.Resolver {
      private timer: NodeJS.Timeout | undefined;
      private last = 0;
      constructor(
        private readonly target: { path: string },
        private readonly listener: experimental.ResolverListener,
      ) {}
      updateResolution(): void {
        if (this.timer) return;
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.last = Date.now();
          const endpoints = (lists.get(this.target.path) ?? []).map((address) => {
            const [host = '', port = '0'] = address.split(':');
            return { addresses: [{ host, port: Number(port) }] };
          });
          this.listener(experimental.statusOrFromValue(endpoints), {}, null, '');
        }, Math.max(0, this.last + 200 - Date.now()));
      }
      destroy(): void {
        clearTimeout(this.timer);
      }
      static getDefaultAuthority(target: { path: string }): string {
        return target.path;
      }
    }
    experimental.registerResolver('orqtest', ListResolver);

    const aged = await startReplica('aged', { maxAgeMs: 1_000 });
    const forever = await startReplica('forever');
    lists.set('aged', [`127.0.0.1:${aged.port}`]);
    lists.set('forever', [`127.0.0.1:${forever.port}`]);
    const agedClient = client('orqtest:aged');
    const foreverClient = client('orqtest:forever');
    expect((await agedClient.listAccounts(list())).accounts[0]?.id).toBe('aged');
    expect((await foreverClient.listAccounts(list())).accounts[0]?.id).toBe('forever');

    const late = await startReplica('late');
    lists.set('aged', [`127.0.0.1:${aged.port}`, `127.0.0.1:${late.port}`]);
    lists.set('forever', [`127.0.0.1:${forever.port}`, `127.0.0.1:${late.port}`]);
    const seen = { aged: new Set<string>(), forever: new Set<string>() };
    const started = Date.now();
    // At least 3.5 s of calls (the forever client must never ask again in that time), and on until
    // the aged client has reached the late replica (a loaded machine may take longer), up to 15 s.
    while ((seen.aged.size < 2 || Date.now() - started < 3_500) && Date.now() - started < 15_000) {
      seen.aged.add((await agedClient.listAccounts(list('aged'))).accounts[0]?.id ?? '');
      seen.forever.add((await foreverClient.listAccounts(list('forever'))).accounts[0]?.id ?? '');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The aged server's GOAWAY made its client resolve again and balance over both.
    expect([...seen.aged].sort()).toEqual(['aged', 'late']);
    // Without a maximum age the client never asked again: the late replica got none of its calls.
    expect([...seen.forever]).toEqual(['forever']);
    expect(calls(late, 'ListAccounts', 'forever')).toBe(0);
  }, 20_000);

  it('stops retrying when the retry budget is spent, and retries again once successes refill it', async () => {
    // A server that answers UNAVAILABLE itself (as a draining proxy or an overloaded peer does),
    // without the no-retry marker, counting attempts per merchant.
    let failing = true;
    const attempts = new Map<string, number>();
    const server = new Server();
    server.addService(providers.ProvidersServiceService, {
      listAccounts: (call: ServerUnaryCall<providers.ListAccountsRequest, unknown>, callback: sendUnaryData<unknown>) => {
        const merchant = call.request.merchant_id;
        attempts.set(merchant, (attempts.get(merchant) ?? 0) + 1);
        if (failing) callback({ code: GrpcStatus.UNAVAILABLE, details: 'draining' });
        else callback(null, { accounts: [] });
      },
    } as never);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    try {
      // 10 tokens; retries only while more than 5 are left; every failure costs 1, a success gives 0.5.
      const rpc = client(`127.0.0.1:${port}`, { maxAttempts: 3, initialBackoffMs: 5, maxBackoffMs: 10, maxTokens: 10, tokenRatio: 0.5 });
      for (let i = 1; i <= 5; i += 1) {
        await expect(rpc.listAccounts(list(`f${i}`))).rejects.toMatchObject({ grpcStatus: GrpcStatus.UNAVAILABLE });
      }
      // 10 → 7 (three attempts), → 5 (two: 6 left allowed one retry), then one attempt each.
      expect([1, 2, 3, 4, 5].map((i) => attempts.get(`f${i}`))).toEqual([3, 2, 1, 1, 1]);

      failing = false;
      for (let i = 0; i < 20; i += 1) await rpc.listAccounts(list('ok'));
      failing = true;
      await expect(rpc.listAccounts(list('again'))).rejects.toMatchObject({ grpcStatus: GrpcStatus.UNAVAILABLE });
      expect(attempts.get('again')).toBe(3);
    } finally {
      server.forceShutdown();
    }
  });
});
