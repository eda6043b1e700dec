import * as contracts from './index';
import { RPC_RETRY_POLICY } from './rpc-retry-policy';

/** Every generated service definition: `{ method: { path: '/pkg.Service/Method', … } }`. */
function serviceDefinitions(): Map<string, string[]> {
  const services = new Map<string, string[]>();
  for (const module of Object.values(contracts)) {
    if (typeof module !== 'object' || module === null) continue;
    for (const [name, value] of Object.entries(module as Record<string, unknown>)) {
      if (!name.endsWith('Service') || typeof value !== 'object' || value === null) continue;
      for (const method of Object.values(value as Record<string, { path?: unknown }>)) {
        if (typeof method?.path !== 'string') continue;
        const [, service, rpc] = /^\/(.+)\/(\w+)$/.exec(method.path) ?? [];
        if (!service || !rpc) continue;
        services.set(service, [...(services.get(service) ?? []), rpc]);
      }
    }
  }
  return services;
}

describe('RPC_RETRY_POLICY', () => {
  const services = serviceDefinitions();

  it('classifies every method of every generated service exactly once', () => {
    expect(services.size).toBeGreaterThanOrEqual(16);
    expect(Object.keys(RPC_RETRY_POLICY).sort()).toEqual([...services.keys()].sort());
    for (const [service, methods] of services) {
      const policy = RPC_RETRY_POLICY[service];
      const classified = [...(policy?.retry ?? []), ...(policy?.keyed ?? []), ...(policy?.once ?? [])];
      expect({ service, methods: [...classified].sort() }).toEqual({ service, methods: [...new Set(methods)].sort() });
      expect(new Set(classified).size).toBe(classified.length);
    }
  });

  it('retries a write by its key only where the request has an idempotency_key field', () => {
    for (const [service, policy] of Object.entries(RPC_RETRY_POLICY)) {
      for (const method of policy.keyed) {
        const requestType = findRequestType(service, method);
        expect({ service, method, hasKey: 'idempotency_key' in (requestType?.fromPartial({}) ?? {}) }).toEqual({ service, method, hasKey: true });
      }
    }
  });
});

/** The generated `XRequest` codec of a method, found in the module that defines its service. */
function findRequestType(service: string, method: string): { fromPartial(value: object): object } | undefined {
  const serviceName = service.split('.').pop() ?? '';
  for (const module of Object.values(contracts)) {
    if (typeof module !== 'object' || module === null) continue;
    const exports = module as Record<string, unknown>;
    const definition = exports[`${serviceName}Service`] as Record<string, { path?: string }> | undefined;
    if (!definition || !Object.values(definition).some((m) => m.path === `/${service}/${method}`)) continue;
    return exports[`${method}Request`] as { fromPartial(value: object): object } | undefined;
  }
  return undefined;
}
