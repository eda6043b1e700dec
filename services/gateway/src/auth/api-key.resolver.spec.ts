import { accounts, common } from '@orquestra/contracts';
import { AppError, RpcError } from '@orquestra/platform';
import { status } from '@grpc/grpc-js';
import { RESTRICTED_KEY, TEST_KEY, silentLogger } from '../testing/fixtures';
import { ApiKeyResolver } from './api-key.resolver';

function resolverWith(answer: (secret: string) => Promise<accounts.AuthenticateKeyResponse>, now = () => 0) {
  const authenticateKey = jest.fn(({ secret }: { secret: string }) => answer(secret));
  const resolver = new ApiKeyResolver(
    { accounts: { authenticateKey }, logger: silentLogger },
    { ttlMs: 30_000, maxEntries: 10, now },
  );
  return { resolver, authenticateKey };
}

const fullKey = async (): Promise<accounts.AuthenticateKeyResponse> => ({
  merchant_id: 'acct_1',
  key_id: 'key_1',
  mode: common.Mode.MODE_TEST,
  kind: accounts.KeyKind.KEY_KIND_FULL,
});

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error.code : 'not-an-app-error';
  }
}

describe('API key resolver', () => {
  it('resolves a key and caches the answer', async () => {
    let now = 0;
    const { resolver, authenticateKey } = resolverWith(fullKey, () => now);
    await expect(resolver.resolve(TEST_KEY, 'req_1')).resolves.toEqual({
      merchant_id: 'acct_1',
      key_id: 'key_1',
      mode: common.Mode.MODE_TEST,
      restricted: false,
    });
    await resolver.resolve(TEST_KEY, 'req_2');
    expect(authenticateKey).toHaveBeenCalledTimes(1);
    now = 30_001;
    await resolver.resolve(TEST_KEY, 'req_3');
    expect(authenticateKey).toHaveBeenCalledTimes(2);
  });

  it('shares one downstream call between concurrent requests with the same key', async () => {
    const { resolver, authenticateKey } = resolverWith(fullKey);
    await Promise.all([resolver.resolve(TEST_KEY, 'a'), resolver.resolve(TEST_KEY, 'b'), resolver.resolve(TEST_KEY, 'c')]);
    expect(authenticateKey).toHaveBeenCalledTimes(1);
  });

  it.each(['', 'abc', 'sk_test_123', 'svc_prod_AbCdEfGhIjKlMnOpQrStUv', 'svc_test_short', `svc_test_${'x'.repeat(200)}`])(
    'refuses %p locally, without asking accounts',
    async (secret) => {
      const { resolver, authenticateKey } = resolverWith(fullKey);
      expect(await codeOf(resolver.resolve(secret, 'r'))).toBe('unauthenticated');
      expect(authenticateKey).not.toHaveBeenCalled();
    },
  );

  it('passes on the unauthenticated answer of accounts and does not cache it', async () => {
    const { resolver, authenticateKey } = resolverWith(async () => {
      throw new RpcError('unauthenticated', status.UNAUTHENTICATED, {});
    });
    expect(await codeOf(resolver.resolve(TEST_KEY, 'r'))).toBe('unauthenticated');
    expect(await codeOf(resolver.resolve(TEST_KEY, 'r'))).toBe('unauthenticated');
    expect(authenticateKey).toHaveBeenCalledTimes(2);
  });

  it('answers service_unavailable when accounts cannot be reached', async () => {
    const { resolver } = resolverWith(async () => {
      throw new RpcError('service_unavailable', status.UNAVAILABLE, {});
    });
    expect(await codeOf(resolver.resolve(TEST_KEY, 'r'))).toBe('service_unavailable');
  });

  it('marks restricted keys, and fails closed on an unspecified kind', async () => {
    const restricted = resolverWith(async () => ({ ...(await fullKey()), kind: accounts.KeyKind.KEY_KIND_RESTRICTED }));
    expect((await restricted.resolver.resolve(RESTRICTED_KEY, 'r')).restricted).toBe(true);
    const unspecified = resolverWith(async () => ({ ...(await fullKey()), kind: accounts.KeyKind.KEY_KIND_UNSPECIFIED }));
    expect((await unspecified.resolver.resolve(TEST_KEY, 'r')).restricted).toBe(true);
  });

  it('refuses a key whose stored mode differs from its prefix', async () => {
    const { resolver } = resolverWith(async () => ({ ...(await fullKey()), mode: common.Mode.MODE_LIVE }));
    expect(await codeOf(resolver.resolve(TEST_KEY, 'r'))).toBe('unauthenticated');
  });
});

describe('API key resolver and revocation signals', () => {
  it('asks accounts again at once after a key is dropped, and keeps other keys cached', async () => {
    const authenticateKey = jest.fn(async ({ secret }: { secret: string }) => ({ ...(await fullKey()), key_id: secret === TEST_KEY ? 'key_1' : 'key_2' }));
    const resolver = new ApiKeyResolver({ accounts: { authenticateKey }, logger: silentLogger }, { ttlMs: 30_000, maxEntries: 10 });
    await resolver.resolve(TEST_KEY, 'a');
    await resolver.resolve(RESTRICTED_KEY, 'b');
    resolver.dropKey('key_1');
    await resolver.resolve(TEST_KEY, 'c');
    await resolver.resolve(RESTRICTED_KEY, 'd');
    expect(authenticateKey.mock.calls.map(([{ secret }]) => secret)).toEqual([TEST_KEY, RESTRICTED_KEY, TEST_KEY]);
  });

  it('does not keep an answer whose look-up was running when the key was dropped', async () => {
    const releases: Array<(value: accounts.AuthenticateKeyResponse) => void> = [];
    const authenticateKey = jest.fn(() => new Promise<accounts.AuthenticateKeyResponse>((resolve) => releases.push(resolve)));
    const resolver = new ApiKeyResolver({ accounts: { authenticateKey }, logger: silentLogger }, { ttlMs: 30_000, maxEntries: 10 });
    const racing = resolver.resolve(TEST_KEY, 'a');
    resolver.dropKey('key_1');
    // A request after the drop does not share the older look-up.
    const after = resolver.resolve(TEST_KEY, 'b');
    expect(authenticateKey).toHaveBeenCalledTimes(2);
    releases[0]!(await fullKey());
    await racing;
    releases[1]!(await fullKey());
    await after;
    // The look-up started after the drop is kept; the racing one was not.
    await resolver.resolve(TEST_KEY, 'c');
    expect(authenticateKey).toHaveBeenCalledTimes(2);
    resolver.dropKey('key_1');
    const again = resolver.resolve(TEST_KEY, 'd');
    releases[2]!(await fullKey());
    await again;
    expect(authenticateKey).toHaveBeenCalledTimes(3);
  });

  it('reads through and forgets while the signals are not live', async () => {
    let live = false;
    const authenticateKey = jest.fn(fullKey);
    const resolver = new ApiKeyResolver({ accounts: { authenticateKey }, logger: silentLogger }, { ttlMs: 30_000, maxEntries: 10, trusted: () => live });
    await resolver.resolve(TEST_KEY, 'a');
    await resolver.resolve(TEST_KEY, 'b');
    expect(authenticateKey).toHaveBeenCalledTimes(2);
    live = true;
    await resolver.resolve(TEST_KEY, 'c');
    await resolver.resolve(TEST_KEY, 'd');
    expect(authenticateKey).toHaveBeenCalledTimes(3);
  });
});
