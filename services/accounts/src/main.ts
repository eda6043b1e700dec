import './telemetry';
import { accounts } from '@orquestra/contracts';
import { ensureIndexes, runService } from '@orquestra/platform';
import { config } from './config';
import { registerAccountsModels } from './db/accounts.models';
import { accountsHandlers } from './grpc/accounts.handlers';

void runService({
  config,
  grpcAddress: config.GRPC_ADDRESS,
  setup: async ({ db, grpc }) => {
    const models = registerAccountsModels(db);
    await ensureIndexes(db);
    grpc.addService(accounts.AccountsServiceService, accountsHandlers(models), 'orquestra.accounts.v1.AccountsService');
  },
});
