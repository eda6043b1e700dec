import { providers, routing } from '@orquestra/contracts';
import { createRpcClient, runService } from '@orquestra/platform';
import { config } from './config';
import { routingHandlers } from './grpc/routing.handlers';

void runService({
  config,
  grpcAddress: config.GRPC_ADDRESS,
  setup: async ({ grpc, onShutdown }) => {
    const providersClient = createRpcClient(providers.ProvidersServiceService, config.PROVIDERS_GRPC_ADDR, {
      deadlineMs: config.GRPC_DEADLINE_MS,
    });
    onShutdown(() => providersClient.close());
    grpc.addService(routing.RoutingServiceService, routingHandlers(providersClient), 'orquestra.routing.v1.RoutingService');
  },
});
