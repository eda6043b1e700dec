/**
 * Subaccounts at a provider (spec §2 Subaccount, §4 Subaccounts; psp-apis.md: Asaas `POST
 * /v3/accounts` → apiKey + walletId, Pagar.me `/recipients` + KYC link, Woovi `/api/v1/subaccount`
 * keyed by a Pix key, Stripe Connect accounts + account links). Optional capability of an adapter
 * (`SubaccountCapable`); the payouts service drives it through the providers service.
 *
 * What each provider requires is one static table per adapter class (`subaccountRequirements`):
 * the catalog lists it (GET /v1/providers `capabilities.subaccounts.requires`) and the same table
 * produces the 400 naming the missing field, before any request. A requirement is a dotted field
 * path of the public create body (`email`, `birthdate`, `address.zip`, `bank_account`, `pix_key`,
 * `company.company_type`, …), optionally only for one type (`individual` / `company`).
 *
 * Amounts are integer cents; dates `YYYY-MM-DD`.
 */
import type { ProviderTransfer } from './provider-payouts';
import type { AddressInput, WebhookRegistration, WebhookRequest } from './provider-adapter';

export type SubaccountType = 'individual' | 'company';

export interface SubaccountRequirement {
  /** Dotted path in the create body, e.g. `address.zip`, `monthly_income`, `company.company_type`. */
  field: string;
  /** Required only for this type; absent: for both. */
  onlyFor?: SubaccountType;
}

export interface SubaccountPerson {
  name: string;
  /** CPF digits. */
  document: string;
  email?: string;
  phone?: string;
  birthdate?: string;
  motherName?: string;
  occupation?: string;
  /** Cents per month. */
  monthlyIncome?: number;
  address?: AddressInput;
}

export interface SubaccountBankAccount {
  /** 3-digit bank code. */
  bank: string;
  branch: string;
  branchDigit?: string;
  account: string;
  accountDigit: string;
  type: 'checking' | 'savings';
  holderName: string;
}

export interface CreateSubaccountInput {
  /** Our subaccount id (sub_…): the provider-side reference, and what makes a repeated create find the first. */
  subaccountId: string;
  type: SubaccountType;
  name: string;
  /** CPF or CNPJ (CNPJ may be alphanumeric), normalized (digits / upper case). */
  document: string;
  email?: string;
  phone?: string;
  birthdate?: string;
  motherName?: string;
  occupation?: string;
  monthlyIncome?: number;
  address?: AddressInput;
  bankAccount?: SubaccountBankAccount;
  pixKey?: { keyType: 'cpf' | 'cnpj' | 'email' | 'phone' | 'random'; key: string };
  company?: { tradingName?: string; companyType?: string; foundingDate?: string; annualRevenue?: number };
  /** The administrator partner of a company. */
  partner?: SubaccountPerson;
  transferInterval?: 'daily' | 'weekly' | 'monthly';
}

/** Our subaccount statuses (spec §2). */
export type SubaccountStatus = 'pending' | 'active' | 'refused' | 'blocked' | 'inactive';

export interface ProviderSubaccount {
  /** The provider's own id (Asaas account id, Pagar.me recipient id, Woovi Pix key, Stripe acct_…). */
  providerSubaccountId: string;
  status: SubaccountStatus;
  /** Portuguese explanation (what is pending, why refused). */
  statusDetail: string;
  providerStatus: string;
  /** Shown masked by the API: bank account, login e-mail, wallet id (`details`). */
  details: Record<string, string>;
  /** What a split part names at the provider (Asaas walletId, Pagar.me recipient id, Woovi Pix key, Stripe acct_…). */
  splitTarget: string;
  /**
   * A credential the provider issued for this subaccount (Asaas apiKey): stored encrypted by the
   * providers service, never returned by the API, never logged.
   */
  issuedSecret?: string;
}

/**
 * A delivery about subaccounts, authenticated: each subaccount it names, to be read back at the
 * provider (the body is only a hint). `subaccountId`: ours, when the provider echoes it (Pagar.me's
 * recipient `code`); absent, the providers service finds it by the provider's id.
 */
export type SubaccountWebhookParseResult =
  | { ok: true; eventKey: string; subaccounts: Array<{ providerSubaccountId: string; subaccountId?: string }> }
  | { ok: false; reason: 'unauthenticated' | 'malformed'; httpStatus: number };

export interface OnboardingLink {
  url: string;
  expiresAt: Date;
  /** PNG base64 of a QR for the link, when the provider gives one. */
  qrCodeBase64?: string;
}

export interface SubaccountBalance {
  available: number;
  pending?: number;
  asOf: Date;
}

/**
 * Subaccounts of one connected account. Errors are ProviderError as for charges: a refusal of the
 * input is `rejected` with `param` naming the field; `not_found` for an unknown id.
 *
 * @example
 * const sub = await adapter.createSubaccount({ subaccountId: 'sub_01…', type: 'individual', name: 'Ana Lima',
 *   document: '52998224725', email: 'ana@exemplo.com', pixKey: { keyType: 'email', key: 'ana@exemplo.com' } });
 * if (sub.status === 'pending' && adapter.onboardingLink) show((await adapter.onboardingLink(sub.providerSubaccountId)).url);
 */
export interface SubaccountCapable {
  /** Idempotent on `subaccountId`: a repeat answers the subaccount the first call made. */
  createSubaccount(input: CreateSubaccountInput): Promise<ProviderSubaccount>;
  /**
   * `issuedSecret`: the one createSubaccount answered (stored encrypted), for providers whose
   * subaccount is read with its own credential (Asaas: status and balance use the subaccount's
   * apiKey); the others ignore it. Such an adapter refuses the read without it.
   */
  getSubaccount(providerSubaccountId: string, issuedSecret?: string): Promise<ProviderSubaccount>;
  /** Providers with identity onboarding (Pagar.me KYC link, Stripe account link). */
  onboardingLink?(providerSubaccountId: string): Promise<OnboardingLink>;
  getSubaccountBalance(providerSubaccountId: string, issuedSecret?: string): Promise<SubaccountBalance>;
  /**
   * The subaccounts a delivery to the account's webhook names (a status change at the provider);
   * read from the same delivery as parseWebhook, authenticated alike. An adapter without it has its
   * subaccounts' changes seen by sync only.
   */
  parseSubaccountWebhook?(request: WebhookRequest): SubaccountWebhookParseResult;
  /**
   * Providers whose subaccounts' events come to an endpoint of their own with its own signing
   * secret (Stripe Connect): registers it at `url` (the account's intake URL with the sub-path
   * SUBACCOUNT_WEBHOOK_SUB_PATH). Its deliveries are parsed by an adapter made with that secret.
   */
  registerSubaccountWebhook?(url: string): Promise<WebhookRegistration>;
  /**
   * A withdrawal: money out of the subaccount's balance to its own destination (its Pix key saved
   * at creation, or the bank account the provider holds for it). Idempotent on `payoutId` like
   * createTransfer, with the same error contract (insufficient_balance; `ambiguous` when the
   * provider may have made it). A provider that takes the whole balance answers `wholeBalance`.
   */
  withdrawFromSubaccount?(input: SubaccountWithdrawalInput): Promise<ProviderTransfer>;
  /** The withdrawal's state now (by the provider's id when known, else by `payoutId`). */
  getSubaccountWithdrawal?(input: SubaccountWithdrawalLookup): Promise<ProviderTransfer>;
}

export interface SubaccountWithdrawalSource {
  providerSubaccountId: string;
  /** The Pix key saved at the subaccount's creation, when one was given. */
  pixKey?: { keyType: 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp'; key: string };
  /** The credential the provider issued for the subaccount (Asaas apiKey), when it has one. */
  issuedSecret?: string;
}

export interface SubaccountWithdrawalInput extends SubaccountWithdrawalSource {
  /** Our payout id (po_…): the provider-side idempotency handle. */
  payoutId: string;
  amount: number;
  description?: string;
}

export interface SubaccountWithdrawalLookup extends SubaccountWithdrawalSource {
  payoutId: string;
  providerTransferId?: string;
}

/** What an adapter class declares for the catalog and the 400s (the one requirement table). */
export interface SubaccountAdapterClass {
  readonly subaccountRequirements?: readonly SubaccountRequirement[];
}

/** Where a provider's own subaccount endpoint delivers, below the account's intake URL. */
export const SUBACCOUNT_WEBHOOK_SUB_PATH = 'subaccounts';

export const SUBACCOUNT_METHODS: readonly (keyof SubaccountCapable)[] = ['createSubaccount', 'getSubaccount', 'getSubaccountBalance'];

export function isSubaccountCapable(adapter: object): adapter is SubaccountCapable {
  return SUBACCOUNT_METHODS.every((name) => typeof (adapter as Partial<SubaccountCapable>)[name] === 'function');
}
