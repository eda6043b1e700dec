import { accounts } from '@orquestra/contracts';
import { createRpcClient } from '@orquestra/platform';
import { runOwnerCommand } from './owner';

/** `npm run owner -- …`: the owner's payout controls until the dashboard exists (docs/owner.md). */
async function main(): Promise<void> {
  // The dev stack's accounts service (tools/stack/src/stack-layout.ts) unless told otherwise.
  const address = process.env.ACCOUNTS_GRPC_ADDR ?? '127.0.0.1:50051';
  const client = createRpcClient(accounts.AccountsServiceService, address, { deadlineMs: 10_000 });
  try {
    process.exitCode = await runOwnerCommand(process.argv.slice(2), client, {
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    });
  } finally {
    client.close();
  }
}

void main();
