import { parseArgs } from 'node:util';
import { accounts, common, type vault } from '@orquestra/contracts';
import { formatBrl, isAppError, type RpcClient } from '@orquestra/platform';

export type AccountsClient = RpcClient<typeof accounts.AccountsServiceService>;
export type VaultClient = Pick<RpcClient<typeof vault.VaultServiceService>, 'getCardsConfig' | 'setCardsEnabled'>;

export const USAGE = `Owner controls of payouts and the card vault (talks to the accounts service at ACCOUNTS_GRPC_ADDR,
default 127.0.0.1:50051, and for cards to the vault at VAULT_GRPC_ADDR, default 127.0.0.1:50058).

usage: npm run owner -- <command> --merchant <acct_…|e-mail> [--mode test|live] [--json]

  payouts status                      payouts by API on or off, and the daily limit
  payouts enable | payouts disable    turn payouts by API (POST /payouts, withdrawals) on or off
  payouts limit <cents>               the most payouts may total per São Paulo day (1000000 = R$ 10.000,00)
  destinations list                   the saved Pix keys payouts may go to
  destinations add --type cpf|cnpj|email|phone|evp --key <key> --label <name>
                                      save a Pix key of the company (saving it again shows the saved one)
  destinations get <pdest_…>          one saved Pix key
  cards status                        the card vault on or off in this mode, publishable key, allowed sites
  cards enable | cards disable        turn the card vault on or off (off: saving and charging cards is
                                      account_not_enabled; test mode starts on, live mode off)

  --mode defaults to test. --json prints the service's answer as JSON.`;

/** What a command prints; the exit status says how it ended (0 done, 1 refused or failed, 2 usage). */
export interface OwnerOutput {
  out(line: string): void;
  err(line: string): void;
}

class UsageError extends Error {}

function money(cents: number): string {
  return `${formatBrl(cents)} (${cents} cents)`;
}

function showSettings(settings: accounts.PayoutSettings | undefined, mode: string): string[] {
  if (!settings) throw new Error('the accounts service answered no settings');
  return [
    `payouts by API (${mode}): ${settings.api_enabled ? 'ON' : 'OFF'}`,
    `daily limit (${mode}): ${money(settings.daily_limit)} per São Paulo day`,
    `updated at: ${settings.updated_at || 'never (defaults)'}`,
  ];
}

function showDestination(destination: accounts.PayoutDestination): string {
  return `${destination.id}  ${destination.key_type.padEnd(5)}  ${destination.key}  "${destination.label}"  (created ${destination.created_at})`;
}

function showCardsConfig(config: vault.CardsConfig | undefined, mode: string): string[] {
  if (!config) throw new Error('the vault answered no config');
  return [
    `card vault (${mode}): ${config.enabled ? 'ON' : 'OFF'}`,
    `publishable key: ${config.publishable_key}`,
    `allowed sites: ${config.allowed_origins.length ? config.allowed_origins.join(', ') : 'any'}`,
  ];
}

function parseCents(text: string | undefined): number {
  if (!text || !/^\d+$/.test(text)) throw new UsageError('payouts limit takes whole cents, e.g. `payouts limit 1000000` for R$ 10.000,00');
  return Number(text);
}

/**
 * Runs one owner command against the accounts service. Never reachable with an API key: it speaks
 * gRPC to accounts directly, which the gateway does not expose for these setters.
 */
export async function runOwnerCommand(argv: string[], client: AccountsClient, output: OwnerOutput, vaultClient?: VaultClient): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        merchant: { type: 'string' },
        mode: { type: 'string', default: 'test' },
        json: { type: 'boolean', default: false },
        type: { type: 'string' },
        key: { type: 'string' },
        label: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    output.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [group, action, argument] = positionals;
  if (values.help || !group || group === 'help') {
    output.out(USAGE);
    return values.help || group === 'help' ? 0 : 2;
  }
  const print = (lines: string[], answer: unknown) => {
    if (values.json) output.out(JSON.stringify(answer, null, 2));
    else for (const line of lines) output.out(line);
  };

  try {
    if (values.mode !== 'test' && values.mode !== 'live') throw new UsageError('--mode is test or live');
    const modeName = values.mode;
    const mode = modeName === 'live' ? common.Mode.MODE_LIVE : common.Mode.MODE_TEST;
    if (!values.merchant) throw new UsageError('--merchant <acct_…|e-mail> is required');
    const byEmail = values.merchant.includes('@');
    const { merchant } = await client.getMerchant({ merchant_id: byEmail ? '' : values.merchant, email: byEmail ? values.merchant : '' });
    if (!merchant) throw new Error('the accounts service answered no merchant');
    const merchant_id = merchant.id;
    if (!values.json) output.out(`merchant: ${merchant.name} <${merchant.email}> (${merchant.id}), mode ${modeName}`);

    const command = `${group} ${action ?? ''}`.trim();
    switch (command) {
      case 'payouts status': {
        const answer = await client.getPayoutSettings({ merchant_id, mode });
        print(showSettings(answer.settings, modeName), answer);
        return 0;
      }
      case 'payouts enable':
      case 'payouts disable': {
        const answer = await client.setPayoutSettings({ merchant_id, mode, api_enabled: action === 'enable' });
        print(showSettings(answer.settings, modeName), answer);
        return 0;
      }
      case 'payouts limit': {
        const answer = await client.setPayoutSettings({ merchant_id, mode, daily_limit: parseCents(argument) });
        print(showSettings(answer.settings, modeName), answer);
        return 0;
      }
      case 'destinations list': {
        const answer = await client.listPayoutDestinations({ merchant_id, mode });
        print(answer.destinations.length ? answer.destinations.map(showDestination) : ['no saved Pix keys yet: add one with `destinations add`'], answer);
        return 0;
      }
      case 'destinations add': {
        const { type, key, label } = values;
        if (!type || !key || !label) throw new UsageError('destinations add needs --type, --key and --label');
        const answer = await client.createPayoutDestination({ merchant_id, mode, key_type: type, key, label });
        print(answer.destination ? [showDestination(answer.destination)] : [], answer);
        return 0;
      }
      case 'destinations get': {
        if (!argument) throw new UsageError('destinations get takes the id: `destinations get pdest_…`');
        const answer = await client.getPayoutDestination({ merchant_id, mode, destination_id: argument });
        print(answer.destination ? [showDestination(answer.destination)] : [], answer);
        return 0;
      }
      case 'cards status':
      case 'cards enable':
      case 'cards disable': {
        if (!vaultClient) throw new Error('no vault client configured');
        const answer =
          action === 'status'
            ? await vaultClient.getCardsConfig({ caller: common.Caller.fromPartial({ merchant_id, mode, request_id: 'owner' }) })
            : await vaultClient.setCardsEnabled({ merchant_id, mode, enabled: action === 'enable' });
        print(showCardsConfig(answer.config, modeName), answer);
        return 0;
      }
      default:
        throw new UsageError(`unknown command: ${command}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (isAppError(error)) {
      // The service's own Portuguese message, with the field it names.
      output.err(`refused: ${error.code}${error.param ? ` (${error.param})` : ''}: ${error.message}`);
      if (error.code === 'service_unavailable') output.err('Is the stack running (npm start), and ACCOUNTS_GRPC_ADDR (VAULT_GRPC_ADDR for cards) its service?');
      return 1;
    }
    throw error;
  }
}
