import { AppError } from '@orquestra/platform';
import type { common, providers } from '@orquestra/contracts';
import type { AddressInput } from '../adapters/provider-adapter';
import type {
  CreateSubaccountInput,
  OnboardingLink,
  ProviderSubaccount,
  SubaccountBalance,
  SubaccountBankAccount,
  SubaccountPerson,
  SubaccountType,
} from '../adapters/provider-subaccounts';

const TYPES: ReadonlyArray<string> = ['individual', 'company'] satisfies ReadonlyArray<SubaccountType>;
const BANK_TYPES: ReadonlyArray<string> = ['checking', 'savings'] satisfies ReadonlyArray<SubaccountBankAccount['type']>;
const KEY_TYPES: ReadonlyArray<string> = ['cpf', 'cnpj', 'email', 'phone', 'random'] satisfies ReadonlyArray<NonNullable<CreateSubaccountInput['pixKey']>['keyType']>;
const INTERVALS: ReadonlyArray<string> = ['daily', 'weekly', 'monthly'] satisfies ReadonlyArray<NonNullable<CreateSubaccountInput['transferInterval']>>;

/** CPF/CNPJ as providers take it: digits, and the alphanumeric CNPJ's letters in upper case. */
const normalizeDocument = (document: string): string => document.replace(/[^0-9a-z]/gi, '').toUpperCase();

/** proto3 strings are '' when absent: absent stays absent in the adapter's input. */
const text = <K extends string>(key: K, value: string): { [P in K]?: string } => (value.trim() ? ({ [key]: value } as { [P in K]: string }) : {});

function addressOf(address: common.Address): AddressInput {
  return { street: address.street, number: address.number, neighborhood: address.neighborhood, city: address.city, state: address.state, zip: address.zip, ...text('complement', address.complement ?? '') };
}

function personOf(person: providers.SubaccountPersonInput): SubaccountPerson {
  return {
    name: person.name,
    document: normalizeDocument(person.document),
    ...text('email', person.email),
    ...text('phone', person.phone),
    ...text('birthdate', person.birthdate),
    ...text('motherName', person.mother_name),
    ...text('occupation', person.occupation),
    ...(person.monthly_income !== undefined ? { monthlyIncome: person.monthly_income } : {}),
    ...(person.address ? { address: addressOf(person.address) } : {}),
  };
}

function bankAccountOf(bank: providers.SubaccountBankAccountInput): SubaccountBankAccount {
  if (!BANK_TYPES.includes(bank.type)) throw new AppError('parameter_invalid', { param: 'bank_account.type', message: 'bank_account.type deve ser checking ou savings.' });
  return {
    bank: bank.bank,
    branch: bank.branch,
    ...text('branchDigit', bank.branch_digit),
    account: bank.account,
    accountDigit: bank.account_digit,
    type: bank.type as SubaccountBankAccount['type'],
    holderName: bank.holder_name,
  };
}

/**
 * The create body as the public API spells it (snake_case), for the requirement table
 * (subaccount-requirements.ts): the 400 then names the field the caller sent, not ours.
 */
export function publicCreateBody(request: providers.CreateSubaccountRequest): Record<string, unknown> {
  const person = request.person;
  return {
    name: person?.name,
    document: person?.document,
    email: person?.email,
    phone: person?.phone,
    birthdate: person?.birthdate,
    mother_name: person?.mother_name,
    occupation: person?.occupation,
    monthly_income: person?.monthly_income,
    address: person?.address,
    bank_account: request.bank_account,
    pix_key: request.pix_key,
    company: request.company && {
      company_type: request.company.company_type,
      trading_name: request.company.trading_name,
      annual_revenue: request.company.annual_revenue,
      founding_date: request.company.founding_date,
    },
    partner: request.partner,
  };
}

/** The request → the adapter's input; a value outside its closed set is parameter_invalid naming the public field. */
export function createSubaccountInput(request: providers.CreateSubaccountRequest): CreateSubaccountInput {
  if (!request.subaccount_id) throw new AppError('parameter_missing', { param: 'subaccount_id' });
  if (!TYPES.includes(request.type)) throw new AppError('parameter_invalid', { param: 'type', message: 'type deve ser individual ou company.' });
  if (!request.person?.name.trim()) throw new AppError('parameter_missing', { param: 'name' });
  if (!request.person.document.trim()) throw new AppError('parameter_missing', { param: 'document' });
  const pixKey = request.pix_key;
  if (pixKey && !KEY_TYPES.includes(pixKey.key_type)) {
    throw new AppError('parameter_invalid', { param: 'pix_key.key_type', message: 'pix_key.key_type deve ser cpf, cnpj, email, phone ou random.' });
  }
  if (request.transfer_interval && !INTERVALS.includes(request.transfer_interval)) {
    throw new AppError('parameter_invalid', { param: 'transfer_interval', message: 'transfer_interval deve ser daily, weekly ou monthly.' });
  }
  const { name, document, ...person } = personOf(request.person);
  const company = request.company;
  return {
    subaccountId: request.subaccount_id,
    type: request.type as SubaccountType,
    name,
    document,
    ...person,
    ...(request.bank_account ? { bankAccount: bankAccountOf(request.bank_account) } : {}),
    ...(pixKey ? { pixKey: { keyType: pixKey.key_type as NonNullable<CreateSubaccountInput['pixKey']>['keyType'], key: pixKey.key } } : {}),
    ...(company
      ? {
          company: {
            ...text('tradingName', company.trading_name),
            ...text('companyType', company.company_type),
            ...text('foundingDate', company.founding_date),
            ...(company.annual_revenue !== undefined ? { annualRevenue: company.annual_revenue } : {}),
          },
        }
      : {}),
    ...(request.partner ? { partner: personOf(request.partner) } : {}),
    ...(request.transfer_interval ? { transferInterval: request.transfer_interval as NonNullable<CreateSubaccountInput['transferInterval']> } : {}),
  };
}

/** The adapter's subaccount → gRPC message. The issued secret is never part of it. */
export function toProtoSubaccount(subaccount: ProviderSubaccount): providers.ProviderSubaccount {
  return {
    provider_subaccount_id: subaccount.providerSubaccountId,
    status: subaccount.status,
    status_detail: subaccount.statusDetail,
    provider_status: subaccount.providerStatus,
    details: { ...subaccount.details },
    split_target: subaccount.splitTarget,
  };
}

/** Subaccounts exist only at Brazilian accounts: their balance is in reais. */
export function toProtoSubaccountBalance(balance: SubaccountBalance): providers.Balance {
  return {
    available: balance.available,
    ...(balance.pending !== undefined ? { pending: balance.pending } : {}),
    currency: 'BRL',
    as_of: balance.asOf.toISOString(),
  };
}

export function toProtoOnboardingLink(link: OnboardingLink): providers.CreateOnboardingLinkResponse {
  return { url: link.url, expires_at: link.expiresAt.toISOString(), ...(link.qrCodeBase64 !== undefined ? { qr_code_base64: link.qrCodeBase64 } : {}) };
}
