import { credentials, makeGenericClientConstructor, type ServiceDefinition } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { rpcTarget } from './grpc-client';

/** What `grpc.health.v1.Health/Check` answered, or `UNREACHABLE` when no answer came. */
export type GrpcHealthStatus = 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN' | 'UNKNOWN' | 'UNREACHABLE';

const STATUS_BY_NUMBER: Record<number, GrpcHealthStatus> = { 0: 'UNKNOWN', 1: 'SERVING', 2: 'NOT_SERVING', 3: 'SERVICE_UNKNOWN' };

/** Asks a server's standard `grpc.health.v1.Health/Check` and answers its status. */
export function grpcHealthStatus(address: string, timeoutMs = 1_000, serviceName = ''): Promise<GrpcHealthStatus> {
  const Client = makeGenericClientConstructor(healthService as unknown as ServiceDefinition, 'Health');
  const client = new Client(rpcTarget(address), credentials.createInsecure()) as unknown as {
    check(request: { service: string }, options: { deadline: Date }, callback: (error: Error | null, response?: { status: unknown }) => void): void;
    close(): void;
  };
  return new Promise((resolve) => {
    client.check({ service: serviceName }, { deadline: new Date(Date.now() + timeoutMs) }, (error, response) => {
      client.close();
      if (error || !response) return resolve('UNREACHABLE');
      const status = response.status;
      resolve(typeof status === 'number' ? (STATUS_BY_NUMBER[status] ?? 'UNKNOWN') : ((status as GrpcHealthStatus) ?? 'UNKNOWN'));
    });
  });
}

/**
 * Asks a server's standard `grpc.health.v1.Health/Check`. Resolves true only for SERVING; any
 * error, timeout or other status is false. Used by readiness checks and the stack launcher.
 */
export async function checkGrpcHealth(address: string, timeoutMs = 1_000, serviceName = ''): Promise<boolean> {
  return (await grpcHealthStatus(address, timeoutMs, serviceName)) === 'SERVING';
}
