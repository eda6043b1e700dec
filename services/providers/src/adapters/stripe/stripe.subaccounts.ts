/**
 * Stripe Connect connected accounts as subaccounts (SubaccountCapable in provider-subaccounts.ts;
 * docs.stripe.com/api/accounts, /api/account_links, /connect/express-accounts; psp-apis.md §6).
 *
 * Account type: **express**. Stripe hosts the onboarding (the account link), collects and verifies
 * the seller's identity and bank account, and gives the seller the Express Dashboard; the platform
 * keeps payouts and branding. Brazilian platforms can create Express accounts. Custom would make us
 * collect and submit every KYC field and document ourselves and answer Stripe's verification
 * requests: what our create body carries (name, document, e-mail) is not enough for Stripe, and
 * handling identity documents is outside Orquestra. So the create only names the account; the rest
 * is collected by Stripe through the onboarding link.
 *
 * Create: `POST /v1/accounts` `type=express, country=BR, email, business_type, capabilities[transfers]
 * [requested]=true, business_profile[name], metadata[orquestra_subaccount_id]`, `Idempotency-Key` =
 * our subaccount id (Stripe replays the first answer for 24 h; after that the providers service
 * already holds the acct_ id and reads instead of creating).
 *
 * Status (`GET /v1/accounts/{id}`): `requirements.disabled_reason` `rejected.*` → refused;
 * `listed`, `platform_paused`, `other` → blocked; any other reason (`requirements.past_due`,
 * `requirements.pending_verification`, `under_review`, `action_required.*`) → pending, its detail
 * listing `currently_due` in Portuguese; no reason with `payouts_enabled` and the transfers
 * capability active → active (`charges_enabled` stays false: we request transfers only, the
 * platform charges); otherwise pending while Stripe turns the capability on.
 *
 * Webhooks: Stripe sends a connected account's `account.updated` to the platform's **Connect**
 * endpoints only (`connect=true`, their own signing secret), never to the account endpoint that
 * registerWebhook makes; registerSubaccountWebhook makes that endpoint (at a URL path of its own:
 * registering at the same URL as registerWebhook would replace one with the other).
 */
import { ProviderError, type WebhookRegistration } from '../provider-adapter';
import type { CreateSubaccountInput, OnboardingLink, ProviderSubaccount, SubaccountBalance, SubaccountRequirement, SubaccountStatus } from '../provider-subaccounts';
import { webhookObject } from '../webhook-body';
import { providerErrorFor } from './stripe.errors';
import type { FormValue } from './stripe.form-encoding';
import type { StripeErrorBody } from './stripe.transformers';

/** Stripe collects the rest in its onboarding; the e-mail names the seller's Express login. */
export const STRIPE_SUBACCOUNT_REQUIREMENTS: readonly SubaccountRequirement[] = [{ field: 'email' }];

export const SUBACCOUNT_METADATA_KEY = 'orquestra_subaccount_id';

/** The events of the Connect endpoint (registerSubaccountWebhook). */
export const CONNECT_WEBHOOK_EVENTS = ['account.updated'] as const;

/**
 * `context.settings` keys (PROVIDER_SETTINGS `{"stripe": {…}}`): where Stripe sends the seller
 * after onboarding (`return_url`) and when the link expired or was used (`refresh_url`, which should
 * ask us for a new link). Without them, the placeholders below: onboarding still completes at
 * Stripe, the seller's browser only lands nowhere afterwards.
 */
export const ONBOARDING_RETURN_URL_SETTING = 'connect_return_url';
export const ONBOARDING_REFRESH_URL_SETTING = 'connect_refresh_url';
export const DEFAULT_ONBOARDING_RETURN_URL = 'https://orquestra.invalid/subaccounts/onboarding/return';
export const DEFAULT_ONBOARDING_REFRESH_URL = 'https://orquestra.invalid/subaccounts/onboarding/refresh';

export interface StripeConnectedAccount {
  id: string;
  object: 'account';
  type?: string;
  email?: string | null;
  charges_enabled?: boolean;
  payouts_enabled?: boolean;
  details_submitted?: boolean;
  capabilities?: Record<string, string>;
  metadata?: Record<string, string>;
  requirements?: { currently_due?: string[]; disabled_reason?: string | null; current_deadline?: number | null } | null;
}

type Api = (method: 'GET' | 'POST', path: string, purpose: 'read' | 'write', params?: Record<string, FormValue>, idempotencyKey?: string, connectedAccount?: string) => Promise<{ status: number; body: unknown }>;

/** Portuguese names of what Stripe asks for (by the requirement's first segments); others are shown as Stripe names them. */
const REQUIREMENT_LABELS: ReadonlyArray<[RegExp, string]> = [
  [/^business_type$/, 'tipo de negócio'],
  [/^business_profile\.mcc$/, 'ramo de atividade'],
  [/^business_profile\.(url|product_description)$/, 'site ou descrição do negócio'],
  [/^external_account$/, 'conta bancária'],
  [/^tos_acceptance\./, 'aceite dos termos da Stripe'],
  [/^(individual|representative)\.(first_name|last_name)$/, 'nome completo'],
  [/^(individual|representative)\.id_number$/, 'CPF'],
  [/^(individual|representative)\.dob\./, 'data de nascimento'],
  [/^individual\.address\./, 'endereço'],
  [/^(individual|representative)\.phone$/, 'telefone'],
  [/^(individual|company)\.email$/, 'e-mail'],
  [/^(individual|representative)\.verification\./, 'documento de identidade'],
  [/^representative\./, 'dados do representante legal'],
  [/^company\.name$/, 'razão social'],
  [/^company\.tax_id$/, 'CNPJ'],
  [/^company\.address\./, 'endereço da empresa'],
  [/^company\.verification\./, 'documento da empresa'],
];

export function dueInPortuguese(due: readonly string[]): string {
  const labels = due.map((field) => REQUIREMENT_LABELS.find(([pattern]) => pattern.test(field))?.[1] ?? field);
  return [...new Set(labels)].join(', ');
}

const REFUSALS: Record<string, string> = {
  'rejected.fraud': 'suspeita de fraude',
  'rejected.terms_of_service': 'violação dos termos de serviço',
  'rejected.listed': 'presença em lista restritiva',
  'rejected.incomplete_verification': 'verificação de identidade não concluída',
  'rejected.other': 'motivo não informado',
};
const BLOCKS: Record<string, string> = {
  listed: 'possível presença em lista restritiva, em análise',
  platform_paused: 'conta pausada pela plataforma',
  other: 'motivo não informado pela Stripe',
};

function statusOf(account: StripeConnectedAccount): { status: SubaccountStatus; statusDetail: string } {
  const reason = account.requirements?.disabled_reason ?? null;
  const due = account.requirements?.currently_due ?? [];
  if (reason?.startsWith('rejected.')) return { status: 'refused', statusDetail: `A Stripe recusou a conta: ${REFUSALS[reason] ?? reason}.` };
  if (reason && BLOCKS[reason]) return { status: 'blocked', statusDetail: `A Stripe bloqueou a conta: ${BLOCKS[reason]}.` };
  if (due.length > 0) return { status: 'pending', statusDetail: `Cadastro pendente na Stripe: falta informar ${dueInPortuguese(due)}.` };
  if (reason === 'requirements.pending_verification') return { status: 'pending', statusDetail: 'Dados enviados; a Stripe está verificando as informações.' };
  if (reason === 'under_review') return { status: 'pending', statusDetail: 'A conta está em análise pela Stripe.' };
  if (reason) return { status: 'pending', statusDetail: `A Stripe ainda não habilitou a conta (${reason}).` };
  if (account.payouts_enabled && account.capabilities?.['transfers'] === 'active') return { status: 'active', statusDetail: 'Ativa: a Stripe habilitou repasses para a conta.' };
  return { status: 'pending', statusDetail: 'A Stripe ainda não habilitou repasses para a conta.' };
}

export function toProviderSubaccount(account: StripeConnectedAccount): ProviderSubaccount {
  const { status, statusDetail } = statusOf(account);
  return {
    providerSubaccountId: account.id,
    splitTarget: account.id,
    status,
    statusDetail,
    providerStatus: account.requirements?.disabled_reason ?? (account.payouts_enabled ? 'enabled' : 'restricted'),
    details: { account: account.id, ...(account.type ? { type: account.type } : {}), ...(account.email ? { email: account.email } : {}) },
  };
}

function accountOf(answer: { status: number; body: unknown }, operation: string): StripeConnectedAccount {
  const account = answer.body as Partial<StripeConnectedAccount> | undefined;
  if (account?.object === 'account' && typeof account.id === 'string') return account as StripeConnectedAccount;
  throw new ProviderError('not_created', 'provider_error', `stripe ${operation}: HTTP ${answer.status} without an account`, answer.status);
}

/** Stripe's `param` in our create body's words, so the caller answers a 400 naming it. */
const OUR_PARAM: Record<string, { name: string; publicMessage: string }> = {
  email: { name: 'email', publicMessage: 'A Stripe recusou o e-mail da subconta.' },
  business_type: { name: 'type', publicMessage: 'A Stripe recusou o tipo da subconta.' },
  'business_profile[name]': { name: 'name', publicMessage: 'A Stripe recusou o nome da subconta.' },
};

export async function createStripeSubaccount(api: Api, input: CreateSubaccountInput): Promise<ProviderSubaccount> {
  if (!input.email) {
    throw new ProviderError('rejected', 'provider_rejected', 'stripe create account: an e-mail is required', undefined, {
      name: 'email',
      publicMessage: 'A Stripe exige o e-mail do titular da subconta (login do painel Express).',
    });
  }
  const answer = await api(
    'POST',
    '/v1/accounts',
    'write',
    {
      type: 'express',
      country: 'BR',
      email: input.email,
      business_type: input.type,
      capabilities: { transfers: { requested: true } },
      business_profile: { name: input.company?.tradingName ?? input.name },
      metadata: { [SUBACCOUNT_METADATA_KEY]: input.subaccountId },
    },
    input.subaccountId,
  );
  if (answer.status === 200) return toProviderSubaccount(accountOf(answer, 'create account'));
  const error = providerErrorFor(answer.status, answer.body, 'create account');
  const param = OUR_PARAM[(answer.body as Partial<StripeErrorBody> | undefined)?.error?.param ?? ''];
  if (error.kind === 'rejected' && param) throw new ProviderError('rejected', 'provider_rejected', error.message, answer.status, param);
  throw error;
}

export async function getStripeSubaccount(api: Api, accountId: string): Promise<ProviderSubaccount> {
  const answer = await api('GET', `/v1/accounts/${encodeURIComponent(accountId)}`, 'read');
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get account');
  return toProviderSubaccount(accountOf(answer, 'get account'));
}

/** A fresh single-use link each time (Stripe's links expire within minutes and after one visit). */
export async function stripeOnboardingLink(api: Api, accountId: string, urls: { returnUrl: string; refreshUrl: string }): Promise<OnboardingLink> {
  const answer = await api('POST', '/v1/account_links', 'write', { account: accountId, refresh_url: urls.refreshUrl, return_url: urls.returnUrl, type: 'account_onboarding' });
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'create account link');
  const link = answer.body as { url?: unknown; expires_at?: unknown } | undefined;
  if (typeof link?.url !== 'string' || typeof link.expires_at !== 'number') throw new ProviderError('not_created', 'provider_error', `stripe create account link: HTTP ${answer.status} without url`, answer.status);
  return { url: link.url, expiresAt: new Date(link.expires_at * 1000) };
}

/** `GET /v1/balance` as the connected account (`Stripe-Account`), BRL only. */
export async function stripeSubaccountBalance(api: Api, accountId: string): Promise<SubaccountBalance> {
  const answer = await api('GET', '/v1/balance', 'read', undefined, undefined, accountId);
  // Stripe's 403 for a Stripe-Account the platform does not have is about that account, not our key.
  if (answer.status === 403 && (answer.body as Partial<StripeErrorBody> | undefined)?.error?.code === 'account_invalid') {
    throw new ProviderError('not_found', 'not_found', `stripe connected account balance: no access to ${accountId}`, answer.status);
  }
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'connected account balance');
  const body = answer.body as { available?: Array<{ amount: number; currency: string }>; pending?: Array<{ amount: number; currency: string }> };
  const brl = (entries: typeof body.available) => (entries ?? []).filter((e) => e.currency === 'brl').reduce((sum, e) => sum + e.amount, 0);
  return { available: brl(body.available), pending: brl(body.pending), asOf: new Date() };
}

/** The Connect endpoint for `account.updated`; answers its signing secret (shown only here). */
export async function registerStripeConnectEndpoint(api: Api, url: string, apiVersion: string): Promise<WebhookRegistration & { endpointId: string }> {
  const created = await api('POST', '/v1/webhook_endpoints', 'write', { url, enabled_events: [...CONNECT_WEBHOOK_EVENTS], connect: true, api_version: apiVersion, description: 'Orquestra Connect' });
  if (created.status !== 200) throw providerErrorFor(created.status, created.body, 'create connect webhook endpoint');
  const endpoint = created.body as { id?: unknown; secret?: unknown } | undefined;
  if (typeof endpoint?.secret !== 'string' || !endpoint.secret || typeof endpoint.id !== 'string') {
    throw new ProviderError('ambiguous', 'provider_error', 'stripe create connect webhook endpoint: answer without secret', created.status);
  }
  return { signingSecret: endpoint.secret, endpointId: endpoint.id };
}

/** The connected accounts an event is about: `account.updated` names its account; other events none. */
export function connectedAccountsOfEvent(rawBody: Buffer): string[] {
  const body = webhookObject(rawBody) as { type?: unknown; account?: unknown; data?: { object?: { object?: unknown; id?: unknown } } } | undefined;
  const object = body?.data?.object;
  if (body?.type !== 'account.updated' || object?.object !== 'account' || typeof object.id !== 'string') return [];
  return [object.id];
}
