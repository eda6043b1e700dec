import type { providers } from '@orquestra/contracts';
import type { RpcClient } from '@orquestra/platform';

/** What subscriptions need of the providers service: its accounts and catalog, and Pix Automático at an account. */
export type RecurrenceProvider = Pick<
  RpcClient<typeof providers.ProvidersServiceService>,
  'listAccounts' | 'getAccount' | 'listProviders' | 'createRecurrence' | 'cancelRecurrence' | 'approveRecurrenceInSandbox'
>;
