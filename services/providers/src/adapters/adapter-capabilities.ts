/**
 * What an adapter can do, read from the adapter itself: the methods its createCharge takes (the
 * static list its own guard uses) and the optional interface methods it implements. The catalog
 * (GET /v1/providers) is built from this, so it can only claim what exists in code.
 */
import type { ChargeMethod, ProviderAdapter } from './provider-adapter';
import { PAYOUT_METHODS, type PayoutCapable, type PayoutDestination } from './provider-payouts';
import type { RecurrenceCapable } from './provider-recurrences';
import { SUBACCOUNT_METHODS, type SubaccountAdapterClass, type SubaccountCapable, type SubaccountRequirement } from './provider-subaccounts';

/** An adapter class, as far as capabilities go. */
export interface AdapterClass extends SubaccountAdapterClass {
  /** The methods createCharge takes; anything else is refused before a request (refuseOtherMethods). */
  readonly methods: readonly ChargeMethod[];
  /** The webhook events through which the provider reports disputes, which parseWebhook reads. */
  readonly disputeEvents?: readonly string[];
  /**
   * The destinations a PayoutCapable adapter pays to by API (its instance's `payoutDestinations`
   * returns this same list); absent or empty: no payouts by API.
   */
  readonly payoutDestinations?: ReadonlyArray<PayoutDestination['type']>;
  /** How many split parts its createCharge sends in the provider's form (absent: none). */
  readonly maxSplits?: number;
  /**
   * Its createCharge takes a card from the vault (`card.vaultCard`) and creates it at the provider
   * in the provider's own form; `needsCvc`: the provider refuses such a card without its security
   * code. Absent: vault cards are not charged here.
   */
  readonly vaultCards?: { readonly needsCvc: boolean };
  readonly prototype: ProviderAdapter;
}

export interface AdapterCapabilities {
  methods: ChargeMethod[];
  /** refundCharge: a part or all of a paid charge (RefundChargeInput.amount). */
  partialRefunds: boolean;
  /** Disputes reach us: polled (listDisputes) or by webhook (disputeEvents). */
  disputes: boolean;
  /** submitDisputeEvidence. */
  disputeEvidence: boolean;
  /** Pix Automático: the adapter is RecurrenceCapable (the subscriptions service drives it). */
  subscriptions: boolean;
  /** The adapter is PayoutCapable with at least one destination: balance and transfers by API. */
  payouts: boolean;
  /** Where its transfers can go (empty without payouts). */
  payoutDestinations: Array<PayoutDestination['type']>;
  /**
   * The adapter is SubaccountCapable; `requires` is its class's `subaccountRequirements`, one entry
   * per field of the public create body: the dotted path (`email`, `address.zip`), followed by
   * ` (individual)` or ` (company)` when only that type needs it, e.g. `birthdate (individual)`.
   * Empty when not supported.
   */
  subaccounts: { supported: boolean; requires: string[] };
  /** Split parts one charge may carry: the class's `maxSplits`, only with subaccounts (0: none). */
  maxSplits: number;
  /** Charges vault cards (the class's `vaultCards`), and whether only with the security code. */
  cardVault: boolean;
  vaultCardsNeedCvc: boolean;
}

/** RecurrenceCapable's required methods. */
const RECURRENCE_METHODS: readonly (keyof RecurrenceCapable)[] = ['createRecurrence', 'getRecurrence', 'cancelRecurrence', 'createCycleCharge', 'getCycleCharge', 'parseRecurrenceWebhook'];

export function capabilitiesOf(adapter: AdapterClass): AdapterCapabilities {
  const implemented = (name: keyof ProviderAdapter) => typeof adapter.prototype[name] === 'function';
  return {
    methods: [...adapter.methods],
    partialRefunds: implemented('refundCharge'),
    disputes: implemented('listDisputes') || (adapter.disputeEvents?.length ?? 0) > 0,
    disputeEvidence: implemented('submitDisputeEvidence'),
    subscriptions: RECURRENCE_METHODS.every((name) => typeof (adapter.prototype as Partial<RecurrenceCapable>)[name] === 'function'),
    subaccounts: subaccountsOf(adapter),
    maxSplits: subaccountsOf(adapter).supported ? (adapter.maxSplits ?? 0) : 0,
    ...payoutsOf(adapter),
    cardVault: adapter.vaultCards !== undefined,
    vaultCardsNeedCvc: adapter.vaultCards?.needsCvc ?? false,
  };
}

function payoutsOf(adapter: AdapterClass): Pick<AdapterCapabilities, 'payouts' | 'payoutDestinations'> {
  const destinations = [...(adapter.payoutDestinations ?? [])];
  const payouts = destinations.length > 0 && PAYOUT_METHODS.every((name) => typeof (adapter.prototype as Partial<PayoutCapable>)[name] === 'function');
  return { payouts, payoutDestinations: payouts ? destinations : [] };
}

function subaccountsOf(adapter: AdapterClass): AdapterCapabilities['subaccounts'] {
  const supported = SUBACCOUNT_METHODS.every((name) => typeof (adapter.prototype as Partial<SubaccountCapable>)[name] === 'function');
  return { supported, requires: supported ? (adapter.subaccountRequirements ?? []).map(requirementLabel) : [] };
}

/** The catalog's spelling of a requirement: `email`, `birthdate (individual)`. */
function requirementLabel(requirement: SubaccountRequirement): string {
  return requirement.onlyFor ? `${requirement.field} (${requirement.onlyFor})` : requirement.field;
}
