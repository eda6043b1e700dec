import type { List } from '../types/common.types';
import type { ConnectProviderAccountParams, Provider, ProviderAccount, UpdateProviderAccountParams } from '../types/provider.types';
import { Resource, segment } from './resource';

/** /v1/providers: the supported providers, their credential fields and capabilities. */
export class ProvidersResource extends Resource {
  list(): Promise<List<Provider>> {
    return this.call({ method: 'GET', path: '/v1/providers' });
  }
}

/** /v1/provider-accounts: connected provider accounts (credentials are never returned). */
export class ProviderAccountsResource extends Resource {
  list(): Promise<List<ProviderAccount>> {
    return this.call({ method: 'GET', path: '/v1/provider-accounts' });
  }

  /** Connects an account; the credentials are checked with the provider first. */
  create(params: ConnectProviderAccountParams): Promise<ProviderAccount> {
    return this.call({ method: 'POST', path: '/v1/provider-accounts', body: params });
  }

  retrieve(id: string): Promise<ProviderAccount> {
    return this.call({ method: 'GET', path: `/v1/provider-accounts/${segment(id)}` });
  }

  update(id: string, params: UpdateProviderAccountParams): Promise<ProviderAccount> {
    return this.call({ method: 'POST', path: `/v1/provider-accounts/${segment(id)}`, body: params });
  }

  enable(id: string): Promise<ProviderAccount> {
    return this.call({ method: 'POST', path: `/v1/provider-accounts/${segment(id)}/enable` });
  }

  disable(id: string): Promise<ProviderAccount> {
    return this.call({ method: 'POST', path: `/v1/provider-accounts/${segment(id)}/disable` });
  }
}
