import { credentials, makeGenericClientConstructor, type ServiceDefinition } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';

/**
 * Asks a server's standard `grpc.health.v1.Health/Check`. Resolves true only for SERVING; any
 * error, timeout or other status is false. Used by readiness checks and the stack launcher.
 */
export function checkGrpcHealth(address: string, timeoutMs = 1_000, serviceName = ''): Promise<boolean> {
  const Client = makeGenericClientConstructor(healthService as unknown as ServiceDefinition, 'Health');
  const client = new Client(address, credentials.createInsecure()) as unknown as {
    check(request: { service: string }, options: { deadline: Date }, callback: (error: Error | null, response?: { status: unknown }) => void): void;
    close(): void;
  };
  return new Promise((resolve) => {
    client.check({ service: serviceName }, { deadline: new Date(Date.now() + timeoutMs) }, (error, response) => {
      client.close();
      resolve(!error && (response?.status === 'SERVING' || response?.status === 1));
    });
  });
}
