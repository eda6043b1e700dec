import { accounts, vault } from '@orquestra/contracts';
import { createRpcClient } from '@orquestra/platform';
import { runOwnerCommand } from './owner';

/** `npm run owner -- …`: the owner's payout and card vault controls until the dashboard exists (docs/owner.md). */
async function main(): Promise<void> {
  // The dev stack's accounts service (tools/stack/src/stack-layout.ts) unless told otherwise.
  const address = process.env.ACCOUNTS_GRPC_ADDR ?? '127.0.0.1:50051';
  const client = createRpcClient(accounts.AccountsServiceService, address, { deadlineMs: 10_000 });
  const vaultClient = createRpcClient(vault.VaultServiceService, process.env.VAULT_GRPC_ADDR ?? '127.0.0.1:50058', { deadlineMs: 10_000 });
  try {
    process.exitCode = await runOwnerCommand(
      process.argv.slice(2),
      client,
      {
        out: (line) => console.log(line),
        err: (line) => console.error(line),
      },
      vaultClient,
    );
  } finally {
    client.close();
    vaultClient.close();
  }
}

void main();
