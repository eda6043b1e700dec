import { loadGatewayConfig } from './config';

describe('gateway config', () => {
  it('has working defaults for every setting', () => {
    const config = loadGatewayConfig({});
    expect(config).toMatchObject({
      SERVICE_NAME: 'gateway',
      HTTP_PORT: 8080,
      ACCOUNTS_GRPC_ADDR: '127.0.0.1:50051',
      PAYMENTS_GRPC_ADDR: '127.0.0.1:50052',
      ROUTING_GRPC_ADDR: '127.0.0.1:50053',
      PROVIDERS_GRPC_ADDR: '127.0.0.1:50054',
      NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:50055',
      SUBSCRIPTIONS_GRPC_ADDR: '127.0.0.1:50056',
      PAYOUTS_GRPC_ADDR: '127.0.0.1:50057',
      VAULT_GRPC_ADDR: '127.0.0.1:50058',
      GRPC_DEADLINE_MS: 10_000,
      CREATE_PAYMENT_DEADLINE_MS: 30_000,
      KEY_CACHE_TTL_MS: 30_000,
      KEY_CACHE_MAX_ENTRIES: 10_000,
      LOG_LEVEL: 'info',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads TRUST_PROXY as addresses, a hop count or a boolean', () => {
    expect(loadGatewayConfig({}).TRUST_PROXY).toBe('loopback, linklocal, uniquelocal');
    expect(loadGatewayConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadGatewayConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
  });

  it('coerces numbers from the environment and refuses bad ones', () => {
    expect(loadGatewayConfig({ HTTP_PORT: '9000' }).HTTP_PORT).toBe(9000);
    expect(() => loadGatewayConfig({ HTTP_PORT: 'abc' })).toThrow(/HTTP_PORT/);
    expect(() => loadGatewayConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });
});
