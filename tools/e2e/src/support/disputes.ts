import { api, eventually } from './api';

type Json = Record<string, any>;

/**
 * A merchant's dispute as the chargeback suites follow it: the event types its events carry, and
 * waits on an event type or a status (the provider's report reaches us asynchronously).
 */
export function disputeWatch(key: () => string) {
  const eventsOf = async (disputeId: string): Promise<string[]> =>
    ((await api('GET', '/v1/events?limit=100', { key: key() })).body.data as Json[]).filter((e) => e.data?.object?.id === disputeId).map((e) => e.type as string);
  return {
    eventsOf,
    async eventsInclude(disputeId: string, type: string): Promise<void> {
      await eventually(async () => ((await eventsOf(disputeId)).includes(type) ? true : undefined), `${type} of ${disputeId}`, 15_000);
    },
    statusOf(id: string, status: string): Promise<Json> {
      return eventually(
        async () => {
          const current = await api('GET', `/v1/disputes/${id}`, { key: key() });
          return current.body.status === status ? current.body : undefined;
        },
        `dispute ${id} to become ${status}`,
        20_000,
      );
    },
  };
}
