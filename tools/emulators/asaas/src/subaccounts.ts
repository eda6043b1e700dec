/**
 * Subaccounts (`POST /v3/accounts`), as docs.asaas.com describes them ("Criar subconta", "Listar
 * subcontas", "Recuperar uma única subconta", "Consultar situação cadastral da conta", "Eventos de
 * situação da conta"):
 * - required: name, email (unique), cpfCnpj, birthDate (CPF) or companyType (CNPJ: MEI, LIMITED,
 *   INDIVIDUAL, ASSOCIATION), mobilePhone, incomeValue (mandatory since 2024-05-30), address,
 *   addressNumber, province and an 8-digit postalCode; each missing one is a 400 `invalid_<field>`;
 * - the answer carries the subaccount's `apiKey` (this once only) and `walletId`; the apiKey is a
 *   sandbox key of its own account here, so `/v3/finance/balance` and `/v3/myAccount/status` with it
 *   answer the subaccount's own balance and status, and the kit's balance control routes credit it;
 * - its registration status starts all PENDING; the control route moves `general` (and the parts)
 *   to APPROVED or REJECTED and sends `ACCOUNT_STATUS_GENERAL_APPROVAL_*` to the root account's
 *   webhooks subscribed to it, body `{…, accountStatus:{id, commercialInfo, bankAccountInfo,
 *   documentation, general}}`.
 * Unconfirmed (no primary source): `externalReference` on accounts (kept and echoed, a filter of the
 * list), the webhook body's `accountStatus` key, the error codes and texts.
 */
import { newUuid } from './asaas-ids';
import type { Body } from './request-fields';

export type ApprovalStatus = 'PENDING' | 'AWAITING_APPROVAL' | 'APPROVED' | 'REJECTED';

export interface RegistrationStatus {
  commercialInfo: ApprovalStatus;
  bankAccountInfo: ApprovalStatus;
  documentation: ApprovalStatus;
  general: ApprovalStatus;
}

export const COMPANY_TYPES = ['MEI', 'LIMITED', 'INDIVIDUAL', 'ASSOCIATION'] as const;

export interface StoredSubaccount {
  id: string;
  /** The root account's emulator id. */
  parentAccountId: string;
  /** The subaccount's own API key (answered once), under which it is an account of the emulator. */
  apiKey: string;
  walletId: string;
  dateCreated: string;
  /** The request's fields as given (incomeValue as its text). */
  fields: Body;
  externalReference?: string;
  status: RegistrationStatus;
}

export const PENDING_STATUS: RegistrationStatus = { commercialInfo: 'PENDING', bankAccountInfo: 'PENDING', documentation: 'PENDING', general: 'PENDING' };

/** The sandbox key of a new subaccount (Asaas's sandbox keys start `$aact_hmlg_`). */
export const newSubaccountApiKey = () => `$aact_hmlg_sub_${newUuid().replace(/-/g, '')}`;

export function subaccountJson(sub: StoredSubaccount, withApiKey = false) {
  const f = sub.fields;
  return {
    object: 'account',
    id: sub.id,
    name: f['name'],
    email: f['email'],
    loginEmail: f['loginEmail'] ?? f['email'],
    phone: f['phone'] ?? null,
    mobilePhone: f['mobilePhone'],
    address: f['address'],
    addressNumber: f['addressNumber'],
    complement: f['complement'] ?? null,
    province: f['province'],
    postalCode: f['postalCode'],
    cpfCnpj: f['cpfCnpj'],
    birthDate: f['birthDate'] ?? null,
    personType: String(f['cpfCnpj']).length === 11 ? 'FISICA' : 'JURIDICA',
    companyType: f['companyType'] ?? null,
    incomeValue: f['incomeValue'],
    walletId: sub.walletId,
    externalReference: sub.externalReference ?? null,
    ...(withApiKey ? { apiKey: sub.apiKey } : {}),
  };
}

export function statusJson(id: string, status: RegistrationStatus) {
  return { id, ...status };
}

/** What the control route's `status` makes of the registration (Asaas has no blocked account status). */
export function statusFor(target: 'active' | 'refused'): RegistrationStatus {
  return target === 'active'
    ? { commercialInfo: 'APPROVED', bankAccountInfo: 'APPROVED', documentation: 'APPROVED', general: 'APPROVED' }
    : { commercialInfo: 'APPROVED', bankAccountInfo: 'APPROVED', documentation: 'REJECTED', general: 'REJECTED' };
}
