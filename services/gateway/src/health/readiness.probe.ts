import { credentials, makeGenericClientConstructor, type Client, type ServiceDefinition } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { rpcTarget } from '@orquestra/platform';

export type DependencyState = 'SERVING' | 'NOT_SERVING' | 'UNKNOWN' | 'UNREACHABLE';

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, DependencyState>;
}

/** What GET /readyz asks. */
export interface ReadinessCheck {
  check(): Promise<ReadinessReport>;
}

type HealthClient = Client & {
  check(
    request: { service: string },
    options: { deadline: Date },
    callback: (error: Error | null, response?: { status?: string }) => void,
  ): void;
};

// grpc-health-check exports the proto-loader definition of grpc.health.v1.Health; grpc-js accepts
// it at runtime, only the two libraries' type declarations differ.
const HealthClientConstructor = makeGenericClientConstructor(
  healthService as unknown as ServiceDefinition,
  'grpc.health.v1.Health',
);

/**
 * Ready when every listed service answers `grpc.health.v1.Health/Check` with SERVING. The answer
 * is reused for `cacheMs` so that a probe storm never becomes a gRPC storm, and it turns
 * not-ready for good once shutdown starts (the load balancer stops sending new requests).
 */
export class GrpcReadinessProbe implements ReadinessCheck {
  private readonly clients: Array<{ name: string; client: HealthClient }>;
  private cached: { report: ReadinessReport; at: number } | undefined;
  private pending: Promise<ReadinessReport> | undefined;
  private shuttingDown = false;

  constructor(
    targets: Array<{ name: string; address: string }>,
    private readonly options: { cacheMs: number; deadlineMs: number } = { cacheMs: 2_000, deadlineMs: 1_000 },
  ) {
    this.clients = targets.map(({ name, address }) => ({
      name,
      // Any form a *_GRPC_ADDR takes (a list of replicas included); the check reaches one of them.
      client: new HealthClientConstructor(rpcTarget(address), credentials.createInsecure()) as unknown as HealthClient,
    }));
  }

  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  async check(): Promise<ReadinessReport> {
    if (this.shuttingDown) {
      return { ready: false, checks: Object.fromEntries(this.clients.map(({ name }) => [name, 'UNKNOWN' as const])) };
    }
    if (this.cached && Date.now() - this.cached.at < this.options.cacheMs) return this.cached.report;
    this.pending ??= this.probeAll().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  close(): void {
    for (const { client } of this.clients) client.close();
  }

  private async probeAll(): Promise<ReadinessReport> {
    const states = await Promise.all(this.clients.map(async ({ name, client }) => [name, await this.probe(client)] as const));
    const report = { ready: states.every(([, state]) => state === 'SERVING'), checks: Object.fromEntries(states) };
    this.cached = { report, at: Date.now() };
    return report;
  }

  private probe(client: HealthClient): Promise<DependencyState> {
    return new Promise((resolve) => {
      client.check({ service: '' }, { deadline: new Date(Date.now() + this.options.deadlineMs) }, (error, response) => {
        if (error) resolve('UNREACHABLE');
        else if (response?.status === 'SERVING' || response?.status === 'NOT_SERVING') resolve(response.status);
        else resolve('UNKNOWN');
      });
    });
  }
}
