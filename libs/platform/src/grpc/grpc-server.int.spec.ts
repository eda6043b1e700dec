import { MongoNetworkError } from 'mongodb';
import pino from 'pino';
import { providers } from '@orquestra/contracts';
import { AppError } from '../errors';
import { createRpcClient, RpcError } from './grpc-client';
import { GrpcServer } from './grpc-server';

/**
 * What a handler's failure becomes for the caller: its AppError as it is; a store out of reach as
 * `service_unavailable` (the gateway's 503 with Retry-After: the caller may repeat the request);
 * anything else as `internal`.
 */
describe('GrpcServer answers a handler failure', () => {
  const failures: Record<string, () => Error> = {
    m_app: () => new AppError('not_found', { param: 'id' }),
    m_store: () => new MongoNetworkError('connection 3 to 127.0.0.1:27017 closed'),
    m_bug: () => new TypeError("Cannot read properties of undefined (reading 'x')"),
    m_limited: () => new AppError('rate_limited', { retryAfterSeconds: 840 }),
  };
  const server = new GrpcServer(pino({ level: 'silent' }));
  let client: ReturnType<typeof createRpcClient<typeof providers.ProvidersServiceService>>;

  beforeAll(async () => {
    server.addService(providers.ProvidersServiceService, {
      listAccounts: async (request: providers.ListAccountsRequest) => {
        throw failures[request.merchant_id]!();
      },
    } as never);
    const port = await server.listen('127.0.0.1:0');
    client = createRpcClient(providers.ProvidersServiceService, `127.0.0.1:${port}`, { deadlineMs: 5_000 });
  });
  afterAll(async () => {
    client.close();
    await server.shutdown(1_000);
  });

  const failureOf = async (merchantId: string) => {
    const error = await client.listAccounts(providers.ListAccountsRequest.fromPartial({ merchant_id: merchantId })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RpcError);
    return error as RpcError;
  };
  const codeOf = async (merchantId: string) => (await failureOf(merchantId)).code;

  it('an AppError keeps its code', async () => {
    expect(await codeOf('m_app')).toBe('not_found');
  });
  it('a store out of reach is service_unavailable, to be repeated after a second', async () => {
    expect(await failureOf('m_store')).toMatchObject({ code: 'service_unavailable', retryAfterSeconds: 1 });
  });
  it('an AppError’s time to try again crosses the hop; none is said when the error gives none', async () => {
    expect(await failureOf('m_limited')).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 840 });
    expect((await failureOf('m_app')).retryAfterSeconds).toBeUndefined();
  });
  it('any other error is internal', async () => {
    expect(await codeOf('m_bug')).toBe('internal');
  });
});
