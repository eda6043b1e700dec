import { toPublicPayout, type payouts } from '@orquestra/contracts';
import {
  PAYOUT_DESTINATION_TYPES,
  PAYOUT_STATUSES,
  PIX_KEY_TYPES,
  type BalanceListJson,
  type PayoutDestinationListJson,
  type PayoutJson,
  type PayoutListJson,
} from '../schemas/payout.response.schema';
import { oneOf } from './narrow';

/** A payout as the public API shows it (§2): `toPublicPayout`, with the enums the document promises narrowed. */
export function toPayoutJson(payout: payouts.Payout): PayoutJson {
  const shown = toPublicPayout(payout);
  const { destination } = shown;
  return {
    ...shown,
    status: oneOf(PAYOUT_STATUSES, shown.status, 'payout.status'),
    destination:
      destination.type === 'pix_key'
        ? { ...destination, key_type: oneOf(PIX_KEY_TYPES, destination.key_type, 'payout.destination.key_type') }
        : destination,
  };
}

export function toPayoutListJson(response: payouts.ListPayoutsResponse): PayoutListJson {
  return { object: 'list', data: response.data.map(toPayoutJson), has_more: response.has_more };
}

/** GET /v1/payout-destinations: the saved Pix keys, masked by the payouts service. */
export function toPayoutDestinationListJson(response: payouts.ListPayoutDestinationsResponse): PayoutDestinationListJson {
  return {
    object: 'list',
    data: response.data.map((destination) => ({
      type: oneOf(['pix_key'] as const, destination.type, 'payout_destination.type'),
      destination_id: destination.destination_id,
      key_type: oneOf(PIX_KEY_TYPES, destination.key_type, 'payout_destination.key_type'),
      key: destination.key,
      label: destination.label,
    })),
  };
}

/** GET /v1/balances: absent proto optionals become null (a balance that could not be read is never shown as 0). */
export function toBalanceListJson(response: payouts.GetBalancesResponse): BalanceListJson {
  return {
    object: 'list',
    data: response.data.map((balance) => ({
      provider_account_id: balance.provider_account_id,
      provider: balance.provider,
      name: balance.name,
      available: balance.available ?? null,
      pending: balance.pending ?? null,
      currency: 'BRL',
      as_of: balance.as_of || null,
      payouts_supported: balance.payouts_supported,
      destination_types: balance.destination_types.map((type) => oneOf(PAYOUT_DESTINATION_TYPES, type, 'balance.destination_types')),
      error: balance.error || null,
    })),
    payouts_api_enabled: response.payouts_api_enabled,
  };
}
