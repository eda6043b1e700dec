import { oauth, owners } from '@orquestra/contracts';
import { createRpcClient, type RpcClient } from '@orquestra/platform';

/** What the OAuth edge calls in accounts: its store and the owner-session check of the consent page. */
export interface OAuthClients {
  store: Pick<
    RpcClient<oauth.OAuthStoreServiceService>,
    | 'upsertModel'
    | 'findModel'
    | 'findModelByUid'
    | 'findModelByUserCode'
    | 'consumeModel'
    | 'destroyModel'
    | 'revokeByGrantId'
    | 'registerApp'
    | 'listApps'
    | 'deleteApp'
    | 'listAuthorizations'
    | 'revokeAuthorization'
  >;
  owners: Pick<RpcClient<owners.OwnersServiceService>, 'authenticateSession' | 'recordAudit'>;
}

export function createOAuthClients(accountsAddress: string, deadlineMs: number): OAuthClients & { close(): void } {
  const store = createRpcClient(oauth.OAuthStoreServiceService, accountsAddress, { deadlineMs });
  const ownersClient = createRpcClient(owners.OwnersServiceService, accountsAddress, { deadlineMs });
  return {
    store,
    owners: ownersClient,
    close: () => {
      store.close();
      ownersClient.close();
    },
  };
}
