/**
 * The Efí emulator's control port (tools/emulators/efi/src/control.routes.ts): its counters, and
 * the outage of one sandbox client that the failover run needs.
 */
export interface EmulatorStats {
  charges_created: number;
  /** Charges created per sandbox client id (one client per provider account). */
  by_client: Record<string, number>;
  faults_injected: number;
  tokens_issued?: number;
}

async function control(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${await response.text()}`);
  return response;
}

export async function emulatorStats(controlUrl: string): Promise<EmulatorStats> {
  return (await (await control(`${controlUrl}/__control/stats`)).json()) as EmulatorStats;
}

/**
 * Every request of `clientId` fails from now on: the emulator destroys the socket (outage_mode
 * `reset`, its default), the way a provider that went down looks to the adapter.
 */
export async function startOutage(controlUrl: string, clientId: string): Promise<void> {
  await control(`${controlUrl}/__control/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, outage: true }),
  });
}

/** Clears every injected fault. */
export async function clearFaults(controlUrl: string): Promise<void> {
  await control(`${controlUrl}/__control/faults`, { method: 'DELETE' });
}

/** Charges created per client between two snapshots. */
export function chargesByClient(before: EmulatorStats, after: EmulatorStats): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [client, count] of Object.entries(after.by_client)) {
    const grew = count - (before.by_client[client] ?? 0);
    if (grew > 0) delta[client] = grew;
  }
  return delta;
}
