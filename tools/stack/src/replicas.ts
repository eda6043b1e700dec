/**
 * Replicas of a local stack's services: how many of each, and the ports of each replica.
 *
 * `ORQUESTRA_REPLICAS=2` runs two of every service; `ORQUESTRA_REPLICAS=payments=2,providers=3`
 * only those (the rest one each). Replica 1 keeps the service's own ports; replica n (n ≥ 2) adds
 * (n − 1) × REPLICA_PORT_STRIDE to its gRPC and metrics ports. Several gateway replicas sit behind
 * the launcher's HTTP balancer (http-balancer.ts), which takes the gateway's own port: replica n
 * of the gateway then listens on the gateway port + n × REPLICA_PORT_STRIDE.
 *
 * The gRPC clients of the other services get every replica's address in one target,
 * `ipv4:127.0.0.1:p1,127.0.0.1:p2` (grpc-js's ipv4 resolver), and balance over them themselves
 * (docs/deployment.md, "Load across replicas").
 */

export const REPLICA_SERVICES = ['accounts', 'vault', 'providers', 'routing', 'notifications', 'subscriptions', 'payouts', 'payments', 'tracking', 'gateway'] as const;
export type ReplicatedService = (typeof REPLICA_SERVICES)[number];
export type Replicas = Record<ReplicatedService, number>;

/**
 * 100: replica ports stay inside the stack's own thousand (the e2e, bench and chaos stacks are
 * 1000 apart) and off every base port of a stack (8080–8090, 9443–9475, 9560–9569, 50051–50059).
 */
export const REPLICA_PORT_STRIDE = 100;
/** At most this many replicas of one service: more would reach the next stack's ports. */
export const MAX_REPLICAS = 4;

export function singleReplicas(): Replicas {
  return Object.fromEntries(REPLICA_SERVICES.map((name) => [name, 1])) as Replicas;
}

/**
 * Reads `2` (every service) or `payments=2,providers=2` (those services); empty or unset: one of
 * each. Anything else throws, naming what was wrong: a typo must not silently run one replica.
 */
export function parseReplicas(spec: string | undefined): Replicas {
  const replicas = singleReplicas();
  const text = (spec ?? '').trim();
  if (text === '') return replicas;
  const count = (value: string, what: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > MAX_REPLICAS) throw new Error(`replicas of ${what} must be an integer in 1…${MAX_REPLICAS}, got '${value}'`);
    return n;
  };
  if (/^\d+$/.test(text)) {
    const n = count(text, 'every service');
    for (const name of REPLICA_SERVICES) replicas[name] = n;
    return replicas;
  }
  for (const part of text.split(',')) {
    const [name, value, extra] = part.split('=').map((s) => s.trim());
    if (!name || value === undefined || extra !== undefined) throw new Error(`replicas: expected <service>=<n>, got '${part}'`);
    if (!(REPLICA_SERVICES as readonly string[]).includes(name)) throw new Error(`replicas: unknown service '${name}' (one of ${REPLICA_SERVICES.join(', ')})`);
    replicas[name as ReplicatedService] = count(value, name);
  }
  return replicas;
}

/** The process name of replica `index` (0-based): the service's name, then `<service>-2`, `-3`… */
export function replicaName(service: ReplicatedService, index: number): string {
  return index === 0 ? service : `${service}-${index + 1}`;
}

/** The service and 0-based replica a process name names (`payments-2` → payments, 1). */
export function parseReplicaName(name: string): { service: ReplicatedService; index: number } | undefined {
  const match = /^([a-z]+)(?:-(\d+))?$/.exec(name);
  const service = match?.[1] as ReplicatedService | undefined;
  if (!match || !service || !REPLICA_SERVICES.includes(service)) return undefined;
  const index = match[2] === undefined ? 0 : Number(match[2]) - 1;
  return index >= 0 && index < MAX_REPLICAS ? { service, index } : undefined;
}

/** A replica's own ports: gRPC (or HTTP for the gateway) and Prometheus metrics. */
export function replicaPorts(base: { main: number; metrics: number }, index: number, behindBalancer: boolean): { main: number; metrics: number } {
  const shift = REPLICA_PORT_STRIDE * index;
  return { main: base.main + shift + (behindBalancer ? REPLICA_PORT_STRIDE : 0), metrics: base.metrics + shift };
}

/** A gRPC target naming every replica: `127.0.0.1:p` for one, `ipv4:127.0.0.1:p1,127.0.0.1:p2` for several. */
export function grpcTarget(ports: number[]): string {
  if (ports.length === 1) return `127.0.0.1:${ports[0]}`;
  return `ipv4:${ports.map((port) => `127.0.0.1:${port}`).join(',')}`;
}
