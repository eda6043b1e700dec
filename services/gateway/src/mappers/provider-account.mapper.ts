import { modeName, type common, type providers } from '@orquestra/contracts';
import { PAYMENT_METHODS } from '../schemas/create-payment.schema';
import {
  bpsToPercentage,
  percentageToBps,
  type ConnectProviderAccountInput,
  type UpdateProviderAccountInput,
} from '../schemas/provider-account.schema';
import {
  BREAKER_STATES,
  type FeeJson,
  type ProviderAccountJson,
  type ProviderAccountListJson,
} from '../schemas/provider-account.response.schema';
import { oneOf } from './narrow';
import { nullIfEmpty } from './nullable';

type FeeInput = NonNullable<ConnectProviderAccountInput['fees']>[number];

/** Public fee → proto fee: the percentage becomes basis points once, here (0.99 → 99). */
function toFeeRule(fee: FeeInput): providers.FeeRule {
  return { method: fee.method, percent_bps: percentageToBps(fee.percentage), fixed: fee.fixed };
}

function toFeeJson(fee: providers.FeeRule): FeeJson {
  return { method: oneOf(PAYMENT_METHODS, fee.method, 'fees.method'), percentage: bpsToPercentage(fee.percent_bps), fixed: fee.fixed };
}

/** "<method>:<field>" entries → { method: [fields] }. */
function customerRequires(requires: readonly string[]): Record<string, string[]> {
  const byMethod: Record<string, string[]> = {};
  for (const entry of requires) {
    const [method, field] = entry.split(':');
    if (!method || !field) continue;
    (byMethod[method] ??= []).push(field);
  }
  return byMethod;
}

/**
 * A connected account as the public API shows it. Only what the providers service chose to
 * expose reaches here: the last 4 characters of each credential, never the credentials.
 */
export function toProviderAccountJson(account: providers.ProviderAccount): ProviderAccountJson {
  return {
    id: account.id,
    object: 'provider_account',
    mode: modeName(account.mode),
    provider: account.provider,
    name: account.name,
    priority: account.priority,
    enabled: account.enabled,
    methods: [...account.methods],
    customer_requires: customerRequires(account.requires),
    fees: account.fees.map(toFeeJson),
    credentials_last4: { ...account.credentials_last4 },
    breaker_state: oneOf(BREAKER_STATES, account.breaker_state || 'closed', 'breaker_state'),
    keeps_metadata: account.keeps_metadata,
    webhook_url: account.webhook_manual_setup ? nullIfEmpty(account.webhook_url) : null,
    webhook_manual_setup: account.webhook_manual_setup,
    created_at: account.created_at,
    updated_at: account.updated_at,
  };
}

export function toProviderAccountListJson(response: providers.ListAccountsResponse): ProviderAccountListJson {
  return { object: 'list', data: response.accounts.map(toProviderAccountJson), has_more: false };
}

/** POST /v1/provider-accounts → ConnectAccount, in the key's merchant and mode. */
export function toConnectAccountRequest(input: ConnectProviderAccountInput, caller: common.Caller): providers.ConnectAccountRequest {
  return {
    merchant_id: caller.merchant_id,
    mode: caller.mode,
    provider: input.provider,
    // Empty: the providers service names the account after the provider.
    name: input.name ?? '',
    priority: input.priority,
    enabled: input.enabled,
    credentials: { ...input.credentials },
    fees: (input.fees ?? []).map(toFeeRule),
  };
}

/** POST /v1/provider-accounts/{id} → UpdateAccount: fields not sent stay as they are. */
export function toUpdateAccountRequest(
  input: UpdateProviderAccountInput,
  caller: common.Caller,
  accountId: string,
): providers.UpdateAccountRequest {
  return {
    merchant_id: caller.merchant_id,
    mode: caller.mode,
    account_id: accountId,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.priority !== undefined ? { priority: input.priority } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    set_fees: input.fees !== undefined,
    fees: (input.fees ?? []).map(toFeeRule),
  };
}

/** POST /v1/provider-accounts/{id}/enable|disable → UpdateAccount with only `enabled`. */
export function toSetEnabledRequest(caller: common.Caller, accountId: string, enabled: boolean): providers.UpdateAccountRequest {
  return { merchant_id: caller.merchant_id, mode: caller.mode, account_id: accountId, enabled, set_fees: false, fees: [] };
}
