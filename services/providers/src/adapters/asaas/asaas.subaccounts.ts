/**
 * Asaas subaccounts (SubaccountCapable, provider-subaccounts.ts), given the adapter's `api` call.
 * Sources: docs.asaas.com "Criar subconta" (`POST /v3/accounts` → the subaccount with `apiKey`,
 * answered once, and `walletId`; incomeValue mandatory since 2024-05-30; a postalCode Asaas cannot
 * place is a 400), "Recuperar uma única subconta" (`GET /v3/accounts/{id}`), "Listar subcontas"
 * (`GET /v3/accounts?cpfCnpj=`), "Consultar situação cadastral da conta" (`GET
 * /v3/myAccount/status` → commercialInfo, bankAccountInfo, documentation, general: PENDING |
 * AWAITING_APPROVAL | APPROVED | REJECTED; the account is approved when `general` is APPROVED),
 * "Recuperar saldo da conta" (`GET /v3/finance/balance`). Status and balance are the subaccount's
 * own: read with its apiKey (the `issuedSecret`), not the root account's.
 *
 * Never twice: our subaccount id goes in `externalReference`, and every create first lists the
 * root account's subaccounts with this CPF/CNPJ for one carrying it. A repeat finds the account
 * but not its apiKey (Asaas shows it only in the create's answer): the first answer's secret is the
 * one to keep. Asaas names no "blocked" account status, so `blocked` is never answered here.
 */
import { ProviderError } from '../provider-adapter';
import type { CreateSubaccountInput, ProviderSubaccount, SubaccountBalance, SubaccountRequirement, SubaccountStatus } from '../provider-subaccounts';
import { errorCode, providerErrorFor } from './asaas.errors';
import type { JsonDecimal } from './asaas.json';
import { brazilianPhone, centsToReais, documentDigits, reaisToCents, type AsaasList, type DecimalText } from './asaas.transformers';

/** What Asaas refuses a subaccount without (the public create body's fields; see subaccount-requirements.ts). */
export const ASAAS_SUBACCOUNT_REQUIREMENTS: readonly SubaccountRequirement[] = [
  { field: 'email' },
  // mobilePhone is mandatory at Asaas.
  { field: 'phone' },
  { field: 'birthdate', onlyFor: 'individual' },
  { field: 'company.company_type', onlyFor: 'company' },
  // incomeValue: monthly income (individual) or revenue (company).
  { field: 'monthly_income' },
  // address, addressNumber, province and postalCode (the public address is whole or absent).
  { field: 'address' },
];

/**
 * The root account's webhook events about its subaccounts' approval (docs.asaas.com "Eventos para
 * situação da conta"), body `{id, event, dateCreated, accountStatus:{id, …}}`: `accountStatus.id`
 * names the subaccount. Only `general` decides our status (mapAccountStatus), so only its events.
 */
export const ACCOUNT_STATUS_EVENTS = [
  'ACCOUNT_STATUS_GENERAL_APPROVAL_APPROVED',
  'ACCOUNT_STATUS_GENERAL_APPROVAL_AWAITING_APPROVAL',
  'ACCOUNT_STATUS_GENERAL_APPROVAL_PENDING',
  'ACCOUNT_STATUS_GENERAL_APPROVAL_REJECTED',
] as const;

/** The subaccount an `ACCOUNT_STATUS_*` event names (its Asaas account id), or undefined when it names none. */
export function subaccountOfEvent(body: Record<string, unknown>): string | undefined {
  const id = (body['accountStatus'] as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

export type AsaasApprovalStatus = 'PENDING' | 'AWAITING_APPROVAL' | 'APPROVED' | 'REJECTED';

export interface AsaasAccountStatus {
  id: string;
  commercialInfo: AsaasApprovalStatus;
  bankAccountInfo: AsaasApprovalStatus;
  documentation: AsaasApprovalStatus;
  general: AsaasApprovalStatus;
}

export interface AsaasAccount {
  id: string;
  walletId: string;
  email: string;
  loginEmail?: string | null;
  externalReference?: string | null;
  /** Only in the create's answer. */
  apiKey?: string;
}

interface AsaasAccountRequest {
  name: string;
  email: string;
  cpfCnpj: string;
  birthDate?: string;
  companyType?: string;
  mobilePhone: string;
  incomeValue: JsonDecimal;
  address: string;
  addressNumber: string;
  complement?: string;
  province: string;
  postalCode: string;
  externalReference: string;
}

type Api = (method: 'GET' | 'POST', path: string, operation: 'read' | 'write', body?: unknown, apiKey?: string) => Promise<{ status: number; body: unknown }>;

const refused = (param: string, publicMessage: string) =>
  new ProviderError('rejected', 'provider_rejected', `asaas create subaccount: ${param} ${publicMessage}`, undefined, { name: param, publicMessage });

/** The request, or `rejected` naming the first field Asaas would refuse (the 400s check the table before this). */
export function buildAccountRequest(input: CreateSubaccountInput): AsaasAccountRequest {
  const cpfCnpj = documentDigits(input.document);
  if (!cpfCnpj) throw refused('document', 'O CPF/CNPJ da subconta é inválido.');
  if (!input.email) throw refused('email', 'O Asaas exige o e-mail da subconta.');
  const mobilePhone = brazilianPhone(input.phone);
  if (!mobilePhone) throw refused('phone', 'O Asaas exige um celular com DDD (10 ou 11 dígitos).');
  if (input.type === 'individual' && !input.birthdate) throw refused('birthdate', 'O Asaas exige a data de nascimento (AAAA-MM-DD) de pessoa física.');
  if (input.type === 'company' && !input.company?.companyType) throw refused('company.company_type', 'O Asaas exige o tipo de empresa (MEI, LIMITED, INDIVIDUAL ou ASSOCIATION).');
  if (input.monthlyIncome === undefined) throw refused('monthly_income', 'O Asaas exige a renda ou o faturamento mensal.');
  if (!input.address) throw refused('address', 'O Asaas exige o endereço da subconta.');
  const { address } = input;
  return {
    name: input.name,
    email: input.email,
    cpfCnpj,
    ...(input.type === 'individual' ? { birthDate: input.birthdate } : { companyType: input.company?.companyType }),
    mobilePhone,
    incomeValue: centsToReais(input.monthlyIncome),
    address: address.street,
    addressNumber: address.number,
    ...(address.complement ? { complement: address.complement } : {}),
    province: address.neighborhood,
    postalCode: address.zip.replace(/\D/g, ''),
    externalReference: input.subaccountId,
  };
}

const PART_PENDING: Record<'commercialInfo' | 'documentation' | 'bankAccountInfo', string> = {
  commercialInfo: 'dados comerciais',
  documentation: 'documentos',
  bankAccountInfo: 'conta bancária',
};

/** Our status of an Asaas account: `general` decides; the parts say what is missing (pt-BR). */
export function mapAccountStatus(status: AsaasAccountStatus): { status: SubaccountStatus; statusDetail: string } {
  const parts = (wanted: AsaasApprovalStatus) => (Object.keys(PART_PENDING) as (keyof typeof PART_PENDING)[]).filter((part) => status[part] === wanted).map((part) => PART_PENDING[part]);
  switch (status.general) {
    case 'APPROVED':
      return { status: 'active', statusDetail: 'Conta aprovada pelo Asaas.' };
    case 'REJECTED': {
      const rejected = parts('REJECTED');
      return { status: 'refused', statusDetail: `Conta reprovada pelo Asaas${rejected.length > 0 ? ` (${rejected.join(', ')} reprovados)` : ''}.` };
    }
    case 'AWAITING_APPROVAL':
      return { status: 'pending', statusDetail: 'Cadastro completo, em análise pelo Asaas.' };
    case 'PENDING': {
      const pending = parts('PENDING');
      const review = parts('AWAITING_APPROVAL');
      const detail = [pending.length > 0 ? `pendente de envio: ${pending.join(', ')}` : '', review.length > 0 ? `em análise: ${review.join(', ')}` : ''].filter(Boolean).join('; ');
      return { status: 'pending', statusDetail: `Cadastro em andamento no Asaas${detail ? ` (${detail})` : ''}.` };
    }
    default:
      throw new ProviderError('not_created', 'provider_error', `asaas subaccount: unknown general status ${String(status.general)}`);
  }
}

function toSubaccount(account: AsaasAccount, status: AsaasAccountStatus | undefined): ProviderSubaccount {
  // Right after the create Asaas has not analysed anything yet: pending.
  const mapped = status ? mapAccountStatus(status) : { status: 'pending' as const, statusDetail: 'Subconta criada no Asaas, aguardando a análise cadastral.' };
  return {
    providerSubaccountId: account.id,
    ...mapped,
    providerStatus: status?.general ?? 'PENDING',
    details: { wallet_id: account.walletId, login_email: account.loginEmail ?? account.email },
    splitTarget: account.walletId,
    ...(account.apiKey ? { issuedSecret: account.apiKey } : {}),
  };
}

/** The root account's subaccount carrying our id, if any. */
async function findAccount(api: Api, cpfCnpj: string, subaccountId: string): Promise<AsaasAccount | undefined> {
  const answer = await api('GET', `/accounts?cpfCnpj=${cpfCnpj}&limit=100`, 'read');
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'find subaccount');
  return (answer.body as AsaasList<AsaasAccount>).data.find((a) => a.externalReference === subaccountId);
}

/** Asaas's `invalid_<field>` on a create, as the public body's field. */
const PARAM_OF_ASAAS_FIELD: Readonly<Record<string, string>> = {
  name: 'name',
  email: 'email',
  cpfCnpj: 'document',
  birthDate: 'birthdate',
  companyType: 'company.company_type',
  mobilePhone: 'phone',
  incomeValue: 'monthly_income',
  address: 'address',
  addressNumber: 'address',
  province: 'address',
  postalCode: 'address',
};

/** A 400 naming one of our fields carries it as `param`, with Asaas's own (Portuguese) description. */
function createRefusal(status: number, body: unknown): ProviderError {
  const error = providerErrorFor(status, body, 'create subaccount');
  const param = status === 400 ? PARAM_OF_ASAAS_FIELD[errorCode(body)?.replace(/^invalid_/, '') ?? ''] : undefined;
  const description = (body as { errors?: { description?: unknown }[] } | undefined)?.errors?.[0]?.description;
  if (!param) return error;
  return new ProviderError(error.kind, error.normalizedCode, error.message, error.httpStatus, { name: param, publicMessage: `O Asaas recusou ${param}${typeof description === 'string' ? `: ${description}` : '.'}` });
}

export async function createAsaasSubaccount(api: Api, input: CreateSubaccountInput): Promise<ProviderSubaccount> {
  const request = buildAccountRequest(input);
  const existing = await findAccount(api, request.cpfCnpj, input.subaccountId);
  if (existing) return toSubaccount(existing, undefined);
  const answer = await api('POST', '/accounts', 'write', request);
  if (answer.status !== 200) throw createRefusal(answer.status, answer.body);
  return toSubaccount(answer.body as AsaasAccount, undefined);
}

function needSecret(issuedSecret: string | undefined, operation: string): string {
  if (issuedSecret) return issuedSecret;
  throw new ProviderError('rejected', 'provider_rejected', `asaas ${operation}: the subaccount's apiKey is needed (Asaas answers its status and balance only to it)`);
}

export async function getAsaasSubaccount(api: Api, accountId: string, issuedSecret: string | undefined): Promise<ProviderSubaccount> {
  const apiKey = needSecret(issuedSecret, 'get subaccount');
  const account = await api('GET', `/accounts/${encodeURIComponent(accountId)}`, 'read');
  if (account.status !== 200) throw providerErrorFor(account.status, account.body, 'get subaccount');
  const status = await api('GET', '/myAccount/status', 'read', undefined, apiKey);
  if (status.status !== 200) throw providerErrorFor(status.status, status.body, 'get subaccount status');
  return toSubaccount(account.body as AsaasAccount, status.body as AsaasAccountStatus);
}

export async function asaasSubaccountBalance(api: Api, issuedSecret: string | undefined): Promise<SubaccountBalance> {
  const apiKey = needSecret(issuedSecret, 'get subaccount balance');
  const answer = await api('GET', '/finance/balance', 'read', undefined, apiKey);
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get subaccount balance');
  const balance = (answer.body as { balance?: DecimalText } | undefined)?.balance;
  if (typeof balance !== 'string') throw new ProviderError('not_created', 'provider_error', 'asaas get subaccount balance: answer without a balance', answer.status);
  return { available: reaisToCents(balance), asOf: new Date() };
}
