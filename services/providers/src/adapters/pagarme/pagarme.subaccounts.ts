/**
 * Pagar.me recipients as subaccounts (SubaccountCapable, provider-subaccounts.ts), given the
 * adapter's `api` call. Sources: pagarme/pagarme-nodejs-sdk RecipientsController (`POST
 * /recipients`, `GET /recipients/{id}`, getRecipientByCode `GET /recipients/{code}`, `GET
 * /recipients/{id}/balance`, `POST /recipients/{id}/kyc_link` → `{url, base64_qrcode,
 * expiration_date}`), docs.pagar.me "API v5 - Adição do fluxo de Prova de Vida" (a new recipient is
 * `registration` until the seller finishes the KYC through the link; it can sell before, and moves
 * its balance only once `active`) and the recipient statuses registration | affiliation | active |
 * refused | suspended | blocked | inactive (Stone Connect's recipient object, the same API).
 *
 * Never twice: our subaccount id is the recipient's `code` and the create's `idempotency-key`;
 * every create first reads `GET /recipients/{code}`, so a repeat after the key's 24 h still finds it.
 * Unconfirmed: register_information's birthdate as DD/MM/YYYY, monthly_income and annual_revenue
 * in cents.
 */
import { ProviderError } from '../provider-adapter';
import type { AddressInput } from '../provider-adapter';
import type { CreateSubaccountInput, OnboardingLink, ProviderSubaccount, SubaccountBalance, SubaccountPerson, SubaccountRequirement, SubaccountStatus } from '../provider-subaccounts';
import { providerErrorFor } from './pagarme.errors';

/** What Pagar.me refuses a recipient without (the public create body's fields; see subaccount-requirements.ts). */
export const PAGARME_SUBACCOUNT_REQUIREMENTS: readonly SubaccountRequirement[] = [
  { field: 'email' },
  { field: 'phone' },
  // default_bank_account: where its withdrawals go.
  { field: 'bank_account' },
  { field: 'address' },
  { field: 'birthdate', onlyFor: 'individual' },
  { field: 'monthly_income', onlyFor: 'individual' },
  { field: 'occupation', onlyFor: 'individual' },
  { field: 'company.trading_name', onlyFor: 'company' },
  { field: 'company.annual_revenue', onlyFor: 'company' },
  { field: 'company.founding_date', onlyFor: 'company' },
  // managing_partners: the administrator, with a person's fields.
  { field: 'partner', onlyFor: 'company' },
];

export type PagarmeRecipientStatus = 'registration' | 'affiliation' | 'active' | 'refused' | 'suspended' | 'blocked' | 'inactive';

export interface PagarmeRecipient {
  id: string;
  email: string;
  code?: string | null;
  status: string;
  default_bank_account?: { bank?: string; branch_number?: string; account_number?: string; account_check_digit?: string } | null;
  kyc_details?: { status?: string; status_reason?: string } | null;
}

type Api = (method: 'GET' | 'POST', path: string, operation: 'read' | 'write', body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: unknown }>;

const refused = (param: string, publicMessage: string) =>
  new ProviderError('rejected', 'provider_rejected', `pagarme create recipient: ${param} ${publicMessage}`, undefined, { name: param, publicMessage });

function phoneOf(phone: string | undefined, param: string) {
  let digits = (phone ?? '').replace(/\D/g, '');
  if ((digits.length === 12 || digits.length === 13) && digits.startsWith('55')) digits = digits.slice(2);
  if (digits.length !== 10 && digits.length !== 11) throw refused(param, 'A Pagar.me exige um telefone com DDD (10 ou 11 dígitos).');
  return [{ ddd: digits.slice(0, 2), number: digits.slice(2), type: 'mobile' }];
}

function addressOf(address: AddressInput | undefined, param: string) {
  if (!address) throw refused(param, 'A Pagar.me exige o endereço.');
  return {
    street: address.street,
    street_number: address.number,
    neighborhood: address.neighborhood,
    city: address.city,
    state: address.state.toUpperCase(),
    zip_code: address.zip.replace(/\D/g, ''),
    ...(address.complement ? { complementary: address.complement } : {}),
  };
}

/** YYYY-MM-DD → DD/MM/YYYY. */
const brDate = (date: string) => date.split('-').reverse().join('/');

/** An individual's register information (the recipient itself, or a company's administrator). */
function personInformation(p: SubaccountPerson, prefix: string) {
  if (!p.email) throw refused(`${prefix}email`, 'A Pagar.me exige o e-mail.');
  if (!p.birthdate) throw refused(`${prefix}birthdate`, 'A Pagar.me exige a data de nascimento (AAAA-MM-DD).');
  if (p.monthlyIncome === undefined) throw refused(`${prefix}monthly_income`, 'A Pagar.me exige a renda mensal.');
  if (!p.occupation) throw refused(`${prefix}occupation`, 'A Pagar.me exige a profissão.');
  return {
    type: 'individual' as const,
    name: p.name,
    email: p.email,
    document: p.document,
    birthdate: brDate(p.birthdate),
    monthly_income: p.monthlyIncome,
    professional_occupation: p.occupation,
    ...(p.motherName ? { mother_name: p.motherName } : {}),
    phone_numbers: phoneOf(p.phone, `${prefix}phone`),
    address: addressOf(p.address, `${prefix}address`),
  };
}

function registerInformation(input: CreateSubaccountInput) {
  if (input.type === 'individual') return personInformation(input, '');
  const company = input.company;
  if (!company?.tradingName) throw refused('company.trading_name', 'A Pagar.me exige o nome fantasia.');
  if (company.annualRevenue === undefined) throw refused('company.annual_revenue', 'A Pagar.me exige o faturamento anual.');
  if (!company.foundingDate) throw refused('company.founding_date', 'A Pagar.me exige a data de fundação (AAAA-MM-DD).');
  if (!input.partner) throw refused('partner', 'A Pagar.me exige o sócio administrador.');
  if (!input.email) throw refused('email', 'A Pagar.me exige o e-mail.');
  return {
    type: 'company' as const,
    email: input.email,
    document: input.document,
    company_name: input.name,
    trading_name: company.tradingName,
    annual_revenue: company.annualRevenue,
    founding_date: company.foundingDate,
    phone_numbers: phoneOf(input.phone, 'phone'),
    main_address: addressOf(input.address, 'address'),
    managing_partners: [{ ...personInformation(input.partner, 'partner.'), self_declared_legal_representative: true }],
  };
}

const TRANSFER_SETTINGS = {
  daily: { transfer_interval: 'Daily', transfer_day: 0 },
  weekly: { transfer_interval: 'Weekly', transfer_day: 1 },
  monthly: { transfer_interval: 'Monthly', transfer_day: 1 },
} as const;

/** The request, or `rejected` naming the first field Pagar.me would refuse (the 400s check the table before this). */
export function buildRecipientRequest(input: CreateSubaccountInput) {
  if (!input.email) throw refused('email', 'A Pagar.me exige o e-mail do recebedor.');
  const bank = input.bankAccount;
  if (!bank) throw refused('bank_account', 'A Pagar.me exige a conta bancária do recebedor.');
  return {
    name: input.name,
    email: input.email,
    document: input.document,
    type: input.type,
    code: input.subaccountId,
    default_bank_account: {
      holder_name: bank.holderName,
      holder_type: input.type,
      holder_document: input.document,
      bank: bank.bank,
      branch_number: bank.branch,
      ...(bank.branchDigit ? { branch_check_digit: bank.branchDigit } : {}),
      account_number: bank.account,
      account_check_digit: bank.accountDigit,
      type: bank.type,
    },
    // Without an interval the balance stays until a withdrawal by API.
    transfer_settings: input.transferInterval ? { transfer_enabled: true, ...TRANSFER_SETTINGS[input.transferInterval] } : { transfer_enabled: false, transfer_interval: 'Daily', transfer_day: 0 },
    register_information: registerInformation(input),
  };
}

const STATUS_MAP: Record<PagarmeRecipientStatus, (r: PagarmeRecipient) => { status: SubaccountStatus; statusDetail: string }> = {
  registration: () => ({ status: 'pending', statusDetail: 'Cadastro recebido pela Pagar.me: o recebedor precisa concluir a validação de identidade pelo link de onboarding.' }),
  affiliation: () => ({ status: 'pending', statusDetail: 'Em credenciamento pela Pagar.me.' }),
  active: () => ({ status: 'active', statusDetail: 'Recebedor ativo na Pagar.me.' }),
  refused: (r) => ({ status: 'refused', statusDetail: `Recusado pela Pagar.me${r.kyc_details?.status_reason ? `: ${r.kyc_details.status_reason}` : ''}.` }),
  suspended: () => ({ status: 'blocked', statusDetail: 'Suspenso pela Pagar.me.' }),
  blocked: () => ({ status: 'blocked', statusDetail: 'Bloqueado pela Pagar.me.' }),
  inactive: () => ({ status: 'inactive', statusDetail: 'Inativo na Pagar.me.' }),
};

/** Our status of a recipient, with what it means for the seller (pt-BR). An unknown status is pending, never final. */
export function mapRecipientStatus(recipient: PagarmeRecipient): { status: SubaccountStatus; statusDetail: string } {
  const known = Object.hasOwn(STATUS_MAP, recipient.status) ? STATUS_MAP[recipient.status as PagarmeRecipientStatus] : undefined;
  return known ? known(recipient) : { status: 'pending', statusDetail: `Situação "${recipient.status}" na Pagar.me, ainda não conhecida pela Orquestra.` };
}

/** The bank account as shown: bank, branch and the account's last two digits. */
function maskedBankAccount(bank: PagarmeRecipient['default_bank_account']): string | undefined {
  if (!bank?.bank || !bank.account_number) return undefined;
  const tail = bank.account_number.slice(-2);
  return `${bank.bank} ag. ${bank.branch_number ?? ''} cc ${'*'.repeat(Math.max(bank.account_number.length - 2, 0))}${tail}-${bank.account_check_digit ?? ''}`;
}

export function toSubaccount(recipient: PagarmeRecipient): ProviderSubaccount {
  const bank = maskedBankAccount(recipient.default_bank_account);
  return {
    providerSubaccountId: recipient.id,
    splitTarget: recipient.id,
    ...mapRecipientStatus(recipient),
    providerStatus: recipient.status,
    details: { login_email: recipient.email, ...(bank ? { bank_account: bank } : {}) },
  };
}

const path = (id: string) => `/recipients/${encodeURIComponent(id)}`;

/** The public body's field a path of Pagar.me's 422 `errors` is about (first match, most specific first). */
const PARAM_OF_PAGARME_PATH: readonly [RegExp, string][] = [
  [/managing_partners/, 'partner'],
  [/default_bank_account/, 'bank_account'],
  [/phone_numbers/, 'phone'],
  [/address/, 'address'],
  [/birthdate$/, 'birthdate'],
  [/monthly_income$/, 'monthly_income'],
  [/professional_occupation$/, 'occupation'],
  [/mother_name$/, 'mother_name'],
  [/trading_name$/, 'company.trading_name'],
  [/annual_revenue$/, 'company.annual_revenue'],
  [/founding_date$/, 'company.founding_date'],
  [/email$/, 'email'],
  [/document$/, 'document'],
  [/(company_)?name$/, 'name'],
];

/** A 422 about one of our fields carries it as `param` (Pagar.me's messages are English: ours is pt-BR). */
function createRefusal(status: number, body: unknown): ProviderError {
  const error = providerErrorFor(status, body, 'create recipient');
  const paths = status === 422 ? Object.keys((body as { errors?: Record<string, unknown> } | undefined)?.errors ?? {}) : [];
  const param = paths.map((p) => PARAM_OF_PAGARME_PATH.find(([pattern]) => pattern.test(p))?.[1]).find((name) => name !== undefined);
  if (!param) return error;
  return new ProviderError(error.kind, error.normalizedCode, error.message, error.httpStatus, { name: param, publicMessage: `A Pagar.me recusou ${param}: confira o valor informado.` });
}

export async function createPagarmeRecipient(api: Api, input: CreateSubaccountInput): Promise<ProviderSubaccount> {
  const request = buildRecipientRequest(input);
  const found = await api('GET', path(input.subaccountId), 'read');
  if (found.status === 200) return toSubaccount(found.body as PagarmeRecipient);
  if (found.status !== 404) throw providerErrorFor(found.status, found.body, 'find recipient');
  const answer = await api('POST', '/recipients', 'write', request, { 'idempotency-key': input.subaccountId });
  if (answer.status !== 200 && answer.status !== 201) throw createRefusal(answer.status, answer.body);
  return toSubaccount(answer.body as PagarmeRecipient);
}

export async function getPagarmeRecipient(api: Api, recipientId: string): Promise<ProviderSubaccount> {
  const answer = await api('GET', path(recipientId), 'read');
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get recipient');
  return toSubaccount(answer.body as PagarmeRecipient);
}

export async function pagarmeKycLink(api: Api, recipientId: string): Promise<OnboardingLink> {
  const answer = await api('POST', `${path(recipientId)}/kyc_link`, 'write', {});
  if (answer.status !== 200 && answer.status !== 201) throw providerErrorFor(answer.status, answer.body, 'create kyc link');
  const link = answer.body as { url?: unknown; base64_qrcode?: unknown; expiration_date?: unknown };
  const expiresAt = new Date(typeof link.expiration_date === 'string' ? link.expiration_date : '');
  if (typeof link.url !== 'string' || Number.isNaN(expiresAt.getTime())) throw new ProviderError('not_created', 'provider_error', 'pagarme kyc link: answer without url or expiration_date', answer.status);
  return { url: link.url, expiresAt, ...(typeof link.base64_qrcode === 'string' && link.base64_qrcode ? { qrCodeBase64: link.base64_qrcode } : {}) };
}

export async function pagarmeRecipientBalance(api: Api, recipientId: string): Promise<SubaccountBalance> {
  const answer = await api('GET', `${path(recipientId)}/balance`, 'read');
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get recipient balance');
  const balance = answer.body as { available_amount?: unknown; waiting_funds_amount?: unknown };
  if (typeof balance.available_amount !== 'number') throw new ProviderError('not_created', 'provider_error', 'pagarme recipient balance: answer without available_amount', answer.status);
  return { available: balance.available_amount, ...(typeof balance.waiting_funds_amount === 'number' ? { pending: balance.waiting_funds_amount } : {}), asOf: new Date() };
}
