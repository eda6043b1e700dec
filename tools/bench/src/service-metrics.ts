/**
 * What the services' Prometheus `/metrics` say about one phase (the difference of two scrapes):
 * - time per gRPC method (`orquestra_grpc_server_handling_seconds`): where a request's time goes;
 * - calls of the providers service to each provider account by result
 *   (`orquestra_provider_request_duration_seconds`): during the failover run, how many requests
 *   still paid for a try on account A (`not_created`: the reset) and how many its open breaker
 *   turned away at once (`breaker_open`);
 * - commands each service sent to the store (`orquestra_store_commands_total`, by command name) and
 *   messages it published to or consumed from the broker (`orquestra_bus_messages_total`).
 */
type Samples = Map<string, number>;

export interface MetricsSnapshot {
  byPort: Map<number, Samples>;
}

/** account → result → calls. */
export type ProviderCalls = Record<string, Record<string, number>>;

export interface MethodTime {
  /** `<service>.<method>`, or `providers → <account>` for the calls to provider accounts. */
  name: string;
  calls: number;
  meanMs: number;
}

const SAMPLE = /^([a-z_]+)\{([^}]*)\}\s+(\S+)$/;

function label(labels: string, name: string): string {
  return new RegExp(`(?:^|,)${name}="([^"]*)"`).exec(labels)?.[1] ?? '';
}

async function scrape(port: number): Promise<Samples> {
  const samples: Samples = new Map();
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
  if (!response?.ok) return samples;
  for (const line of (await response.text()).split('\n')) {
    const match = SAMPLE.exec(line);
    if (match && /_(sum|count|total)$/.test(match[1] ?? '')) samples.set(`${match[1]}{${match[2]}}`, Number(match[3]));
  }
  return samples;
}

/** Scrapes every port at once; a service that does not answer contributes nothing. */
export async function snapshotMetrics(ports: number[]): Promise<MetricsSnapshot> {
  const scraped = await Promise.all(ports.map(async (port) => [port, await scrape(port)] as const));
  return { byPort: new Map(scraped) };
}

/** Every `<metric>_sum|_count|_total{labels}` that grew between the snapshots, with its growth. */
function growth(before: MetricsSnapshot, after: MetricsSnapshot): Array<{ key: string; metric: string; labels: string; value: number }> {
  const out: Array<{ key: string; metric: string; labels: string; value: number }> = [];
  for (const [port, samples] of after.byPort) {
    for (const [key, value] of samples) {
      const grew = value - (before.byPort.get(port)?.get(key) ?? 0);
      const [, metric = '', labels = ''] = /^([^{]+)\{(.*)\}$/.exec(key) ?? [];
      if (grew > 0) out.push({ key, metric, labels, value: grew });
    }
  }
  return out;
}

export function providerCalls(before: MetricsSnapshot, after: MetricsSnapshot, names: Record<string, string>): ProviderCalls {
  const calls: ProviderCalls = {};
  for (const { metric, labels, value } of growth(before, after)) {
    if (metric !== 'orquestra_provider_request_duration_seconds_count') continue;
    const account = names[label(labels, 'account_id')] ?? label(labels, 'account_id');
    const result = label(labels, 'result');
    (calls[account] ??= {})[result] = (calls[account]?.[result] ?? 0) + value;
  }
  return calls;
}

/** Mean time per gRPC method (all result codes) and per provider account, slowest first. */
export function methodTimes(before: MetricsSnapshot, after: MetricsSnapshot, names: Record<string, string>): MethodTime[] {
  const totals = new Map<string, { sum: number; count: number }>();
  for (const { metric, labels, value } of growth(before, after)) {
    const grpc = metric.startsWith('orquestra_grpc_server_handling_seconds_');
    const provider = metric.startsWith('orquestra_provider_request_duration_seconds_');
    if (!grpc && !provider) continue;
    const account = label(labels, 'account_id');
    const name = grpc ? `${label(labels, 'service')}.${label(labels, 'method').split('/').pop() ?? ''}` : `providers → account ${names[account] ?? account}`;
    const total = totals.get(name) ?? { sum: 0, count: 0 };
    if (metric.endsWith('_sum')) total.sum += value;
    else total.count += value;
    totals.set(name, total);
  }
  return [...totals]
    .filter(([, t]) => t.count > 0)
    .map(([name, t]) => ({ name, calls: t.count, meanMs: (t.sum / t.count) * 1000 }))
    .sort((a, b) => b.meanMs - a.meanMs);
}

/** service → command name and collection ('insert payments') → commands sent to the store during the phase. */
export type StoreCommands = Record<string, Record<string, number>>;

export function storeCommands(before: MetricsSnapshot, after: MetricsSnapshot): StoreCommands {
  const commands: StoreCommands = {};
  for (const { metric, labels, value } of growth(before, after)) {
    if (metric !== 'orquestra_store_commands_total') continue;
    const service = label(labels, 'service');
    const collection = labels.includes('collection=') ? label(labels, 'collection') : '';
    const command = collection ? `${label(labels, 'command')} ${collection}` : label(labels, 'command');
    (commands[service] ??= {})[command] = (commands[service]?.[command] ?? 0) + value;
  }
  return commands;
}

/** service → messages it published (confirmed by the broker) and consumed during the phase. */
export type BusMessages = Record<string, { published: number; consumed: number }>;

export function busMessages(before: MetricsSnapshot, after: MetricsSnapshot): BusMessages {
  const messages: BusMessages = {};
  for (const { metric, labels, value } of growth(before, after)) {
    if (metric !== 'orquestra_bus_messages_total') continue;
    const direction = label(labels, 'direction');
    if (direction !== 'published' && direction !== 'consumed') continue;
    const counts = (messages[label(labels, 'service')] ??= { published: 0, consumed: 0 });
    counts[direction] += value;
  }
  return messages;
}
