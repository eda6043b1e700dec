import { grpcTarget, parseReplicaName, parseReplicas, replicaName, replicaPorts, REPLICA_PORT_STRIDE } from './replicas';
import { serviceEnvironment, stackPorts } from './stack-layout';

describe('parseReplicas', () => {
  it('runs one of each service without a setting', () => {
    expect(Object.values(parseReplicas(undefined)).every((n) => n === 1)).toBe(true);
    expect(parseReplicas('  ').payments).toBe(1);
  });

  it('takes one number for every service, or <service>=<n> for some', () => {
    expect(Object.values(parseReplicas('2')).every((n) => n === 2)).toBe(true);
    const some = parseReplicas('payments=2, providers=3');
    expect([some.payments, some.providers, some.gateway, some.routing]).toEqual([2, 3, 1, 1]);
  });

  it('refuses what it cannot read instead of running one replica', () => {
    expect(() => parseReplicas('0')).toThrow(/1…4/);
    expect(() => parseReplicas('9')).toThrow(/1…4/);
    expect(() => parseReplicas('payment=2')).toThrow(/unknown service 'payment'/);
    expect(() => parseReplicas('payments')).toThrow(/<service>=<n>/);
    expect(() => parseReplicas('payments=two')).toThrow(/payments/);
  });
});

describe('replica names and ports', () => {
  it('names the first replica as its service and the others <service>-<n>', () => {
    expect([replicaName('payments', 0), replicaName('payments', 1)]).toEqual(['payments', 'payments-2']);
    expect(parseReplicaName('payments-2')).toEqual({ service: 'payments', index: 1 });
    expect(parseReplicaName('gateway')).toEqual({ service: 'gateway', index: 0 });
    expect(parseReplicaName('efi-emulator')).toBeUndefined();
  });

  it('moves each further replica by the stride, and the gateways past the balancer on their port', () => {
    expect(replicaPorts({ main: 51052, metrics: 10562 }, 1, false)).toEqual({ main: 51052 + REPLICA_PORT_STRIDE, metrics: 10562 + REPLICA_PORT_STRIDE });
    expect(replicaPorts({ main: 9080, metrics: 10560 }, 0, true)).toEqual({ main: 9080 + REPLICA_PORT_STRIDE, metrics: 10560 });
    expect(replicaPorts({ main: 9080, metrics: 10560 }, 1, true)).toEqual({ main: 9080 + 2 * REPLICA_PORT_STRIDE, metrics: 10560 + REPLICA_PORT_STRIDE });
  });

  it('gives gRPC clients one address for one replica and an ipv4 list for several', () => {
    expect(grpcTarget([50052])).toBe('127.0.0.1:50052');
    expect(grpcTarget([50052, 50152])).toBe('ipv4:127.0.0.1:50052,127.0.0.1:50152');
  });

  it('puts every replica of a service in its clients’ address', () => {
    const env = serviceEnvironment({
      ports: stackPorts(0),
      mongoUrl: 'mongodb://x',
      amqpUrl: 'amqp://x',
      dbPrefix: 'p_',
      encryptionKeys: 'k:x',
      certDir: '/tmp',
      logLevel: 'info',
      replicas: { ...parseReplicas('providers=2') },
    });
    expect(env['payments']?.['PROVIDERS_GRPC_ADDR']).toBe('ipv4:127.0.0.1:50054,127.0.0.1:50154');
    expect(env['gateway']?.['PROVIDERS_GRPC_ADDR']).toBe('ipv4:127.0.0.1:50054,127.0.0.1:50154');
    expect(env['gateway']?.['PAYMENTS_GRPC_ADDR']).toBe('127.0.0.1:50052');
  });
});
