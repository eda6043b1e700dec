import type { RequestOptions, WithLastResponse } from '../http/transport';
import type { List } from '../types/common.types';
import type { ConnectProviderAccountParams, Provider, ProviderAccount, UpdateProviderAccountParams } from '../types/provider.types';
import { Resource, segment } from './resource';

/** /v1/providers: the supported providers, their credential fields and capabilities. */
export class ProvidersResource extends Resource {
  list(options?: RequestOptions): Promise<WithLastResponse<List<Provider>>> {
    return this.call({ method: 'GET', path: '/v1/providers' }, options);
  }
}

/** /v1/provider-accounts: connected provider accounts (credentials are never returned). */
export class ProviderAccountsResource extends Resource {
  list(options?: RequestOptions): Promise<WithLastResponse<List<ProviderAccount>>> {
    return this.call({ method: 'GET', path: '/v1/provider-accounts' }, options);
  }

  /** Connects an account; the credentials are checked with the provider first. */
  create(params: ConnectProviderAccountParams, options?: RequestOptions): Promise<WithLastResponse<ProviderAccount>> {
    return this.call({ method: 'POST', path: '/v1/provider-accounts', body: params }, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<ProviderAccount>> {
    return this.call({ method: 'GET', path: `/v1/provider-accounts/${segment(id)}` }, options);
  }

  update(id: string, params: UpdateProviderAccountParams, options?: RequestOptions): Promise<WithLastResponse<ProviderAccount>> {
    return this.call({ method: 'POST', path: `/v1/provider-accounts/${segment(id)}`, body: params }, options);
  }

  enable(id: string, options?: RequestOptions): Promise<WithLastResponse<ProviderAccount>> {
    return this.call({ method: 'POST', path: `/v1/provider-accounts/${segment(id)}/enable` }, options);
  }

  disable(id: string, options?: RequestOptions): Promise<WithLastResponse<ProviderAccount>> {
    return this.call({ method: 'POST', path: `/v1/provider-accounts/${segment(id)}/disable` }, options);
  }
}
