import type { providers } from '@orquestra/contracts';
import type { ProviderJson, ProviderListJson } from '../schemas/provider.response.schema';
import { nullIfEmpty } from './nullable';

/** One catalog entry (ListProviders) as GET /v1/providers shows it. */
export function toProviderJson(info: providers.ProviderInfo): ProviderJson {
  const c = info.capabilities;
  return {
    code: info.code,
    object: 'provider',
    name: info.name,
    credential_fields: info.credential_fields.map((field) => ({ name: field.name, label: field.label, secret: field.secret })),
    capabilities: {
      methods: [...(c?.methods ?? [])],
      partial_refunds: c?.partial_refunds ?? false,
      disputes: c?.disputes ?? false,
      dispute_evidence: c?.dispute_evidence ?? false,
      subaccounts: { supported: c?.subaccounts?.supported ?? false, requires: [...(c?.subaccounts?.requires ?? [])] },
      max_splits: c?.max_splits ?? 0,
      payouts: c?.payouts ?? false,
      payout_destinations: [...(c?.payout_destinations ?? [])],
      subscriptions: c?.subscriptions ?? false,
      card_vault: c?.card_vault ?? false,
      keeps_metadata: c?.keeps_metadata ?? false,
      customer_requires: Object.fromEntries(Object.entries(c?.customer_requires ?? {}).map(([method, required]) => [method, [...required.fields]])),
      hosted_checkout: [...(c?.hosted_checkout ?? [])],
    },
    amount_unit: info.amount_unit,
    notes: nullIfEmpty(info.notes),
  };
}

export function toProviderListJson(response: providers.ListProvidersResponse): ProviderListJson {
  return { object: 'list', data: response.providers.map(toProviderJson), has_more: false };
}
