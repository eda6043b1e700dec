// One replica of a providers-shaped gRPC service in a process of its own (the real GrpcServer and
// contracts), for grpc-balancing.int.spec.ts: it answers ListAccounts, ConnectAccount and
// CreateCharge with its own name, tells its parent about every call before answering, hangs on
// merchant `hang` when started with `hang`, and answers merchant `fail` with a handler error.
// Usage (bundled by the spec): node rpc-replica.js <name> <port> <maxConnectionAgeMs> <hang|serve>
import pino from 'pino';
import { providers } from '@orquestra/contracts';
import { AppError } from '../../errors';
import { GrpcServer, type Handlers } from '../grpc-server';

const [name = 'replica', port = '0', maxAgeMs = '0', mode = 'serve'] = process.argv.slice(2);
const server = new GrpcServer(pino({ level: 'silent' }), { maxConnectionAgeMs: Number(maxAgeMs), maxConnectionAgeGraceMs: 1_000 });

async function answer<T>(method: string, merchantId: string, value: T): Promise<T> {
  process.send?.({ type: 'call', name, method, merchant_id: merchantId });
  if (merchantId === 'hang' && mode === 'hang') await new Promise(() => undefined);
  if (merchantId === 'fail') throw new AppError('provider_unavailable');
  return value;
}

const account = providers.ProviderAccount.fromPartial({ id: name });
server.addService(providers.ProvidersServiceService, {
  listAccounts: (request: providers.ListAccountsRequest) => answer('ListAccounts', request.merchant_id, { accounts: [account] }),
  connectAccount: (request: providers.ConnectAccountRequest) => answer('ConnectAccount', request.merchant_id, { account }),
  createCharge: (request: providers.CreateChargeRequest) =>
    answer('CreateCharge', request.merchant_id, { charge: providers.Charge.fromPartial({ provider_payment_id: name }) }),
} as unknown as Handlers<typeof providers.ProvidersServiceService>);

void server.listen(`127.0.0.1:${port}`).then((bound) => {
  server.setServing(true);
  process.send?.({ type: 'ready', port: bound });
});
