import type { Adapter, AdapterConstructor, AdapterPayload } from 'oidc-provider';
import type { OAuthClients } from './oauth.clients';

/**
 * oidc-provider's Adapter over gRPC: the gateway keeps nothing, every model lives in the accounts
 * service (OAuthStoreService), one call per library operation. The library builds one adapter per
 * model name (Grant, AccessToken, Client, …).
 *
 * @example
 * new Provider(issuer, { adapter: grpcStoreAdapter(clients.store), … });
 */
export function grpcStoreAdapter(store: OAuthClients['store']): AdapterConstructor {
  const parse = (answer: { found: boolean; payload_json: string }): AdapterPayload | undefined =>
    answer.found ? (JSON.parse(answer.payload_json) as AdapterPayload) : undefined;

  return class GrpcStoreAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await store.upsertModel({ model: this.model, id, payload_json: JSON.stringify(payload), expires_in: Math.max(0, Math.floor(expiresIn || 0)) });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return parse(await store.findModel({ model: this.model, id }));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return parse(await store.findModelByUid({ model: this.model, uid }));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return parse(await store.findModelByUserCode({ model: this.model, user_code: userCode }));
    }

    async consume(id: string): Promise<void> {
      await store.consumeModel({ model: this.model, id });
    }

    async destroy(id: string): Promise<void> {
      await store.destroyModel({ model: this.model, id });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await store.revokeByGrantId({ grant_id: grantId });
    }
  };
}
