import { modeFromName, type providers } from '@orquestra/contracts';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import { providerDefinition, requiresList, type ProviderDefinition } from '../domain/provider-catalog';

/** Stored account → gRPC message. Credentials never leave; only their last 4 characters. */
export function toProtoAccount(doc: ProviderAccountDoc, breakerState: string, webhookUrl: string): providers.ProviderAccount {
  const definition = providerDefinition(doc.provider);
  return {
    id: doc._id,
    merchant_id: doc.merchant_id,
    mode: modeFromName(doc.mode),
    provider: doc.provider,
    name: doc.name,
    priority: doc.priority,
    enabled: doc.enabled,
    methods: doc.methods,
    requires: definition ? requiresList(definition) : [],
    fees: doc.fees.map((fee) => ({ method: fee.method, percent_bps: fee.percent_bps, fixed: fee.fixed })),
    credentials_last4: doc.credentials_last4,
    breaker_state: breakerState,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    // The URL embeds the account's webhook secret: only shown when the owner must paste it.
    webhook_url: doc.webhook_manual_setup ? webhookUrl : '',
    webhook_manual_setup: doc.webhook_manual_setup,
    keeps_metadata: definition?.capabilities.keepsMetadata ?? false,
    // Only methods the account takes (an account connected before its provider gained one does not).
    hosted_checkout: (definition?.hostedCheckout ?? []).filter((method) => doc.methods.includes(method)),
    // Only where the account takes cards at all.
    vault_cards: doc.methods.includes('card') && (definition?.capabilities.cardVault ?? false),
    vault_cards_need_cvc: definition?.capabilities.vaultCardsNeedCvc ?? false,
  };
}

export function toProtoProvider(definition: ProviderDefinition): providers.ProviderInfo {
  const c = definition.capabilities;
  return {
    code: definition.code,
    name: definition.name,
    credential_fields: definition.credentialFields,
    amount_unit: definition.amountUnit,
    notes: definition.notes,
    capabilities: {
      methods: definition.methods,
      partial_refunds: c.partialRefunds,
      disputes: c.disputes,
      dispute_evidence: c.disputeEvidence,
      subaccounts: c.subaccounts,
      max_splits: c.maxSplits,
      payouts: c.payouts,
      payout_destinations: c.payoutDestinations,
      subscriptions: c.subscriptions,
      card_vault: c.cardVault,
      keeps_metadata: c.keepsMetadata,
      customer_requires: Object.fromEntries(Object.entries(definition.customerRequires).map(([method, fields]) => [method, { fields: fields ?? [] }])),
      hosted_checkout: definition.hostedCheckout,
    },
  };
}
