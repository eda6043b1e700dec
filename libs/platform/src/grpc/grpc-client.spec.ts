import { rpcTarget, serviceConfigFor, DEFAULT_RETRY } from './grpc-client';

describe('rpcTarget', () => {
  it('passes one address and every resolver scheme through as it is', () => {
    expect(rpcTarget('127.0.0.1:50051')).toBe('127.0.0.1:50051');
    expect(rpcTarget('payments:50052')).toBe('payments:50052');
    expect(rpcTarget('dns:///orq-payments-headless.ns.svc.cluster.local:50052')).toBe('dns:///orq-payments-headless.ns.svc.cluster.local:50052');
    expect(rpcTarget('ipv4:127.0.0.1:50051,127.0.0.1:50061')).toBe('ipv4:127.0.0.1:50051,127.0.0.1:50061');
  });

  it('takes a list of IP literals without a scheme as ipv4: or ipv6:', () => {
    expect(rpcTarget('127.0.0.1:50051, 127.0.0.1:50061')).toBe('ipv4:127.0.0.1:50051,127.0.0.1:50061');
    expect(rpcTarget('[::1]:50051,[::1]:50061')).toBe('ipv6:[::1]:50051,[::1]:50061');
  });

  it('refuses a list of names or of mixed families, naming the form to use', () => {
    expect(() => rpcTarget('localhost:50051,localhost:50061')).toThrow(/dns:\/\/\//);
    expect(() => rpcTarget('127.0.0.1:50051,[::1]:50061')).toThrow(/one family/);
  });
});

describe('serviceConfigFor', () => {
  it('balances round_robin, retries the given methods on UNAVAILABLE and UNIMPLEMENTED only (nothing ran), with the budget', () => {
    const config = JSON.parse(serviceConfigFor([{ service: 'orquestra.routing.v1.RoutingService', method: 'Route' }], DEFAULT_RETRY));
    expect(config).toEqual({
      loadBalancingConfig: [{ round_robin: {} }],
      methodConfig: [
        {
          name: [{ service: 'orquestra.routing.v1.RoutingService', method: 'Route' }],
          retryPolicy: { maxAttempts: 3, initialBackoff: '0.050s', maxBackoff: '0.500s', backoffMultiplier: 2, retryableStatusCodes: ['UNAVAILABLE', 'UNIMPLEMENTED'] },
        },
      ],
      retryThrottling: { maxTokens: 20, tokenRatio: 0.1 },
    });
    expect(JSON.parse(serviceConfigFor([], DEFAULT_RETRY)).methodConfig).toEqual([]);
  });
});
