/**
 * Recipients created by API (a marketplace's sellers), as Pagar.me API v5 describes them
 * (pagarme/pagarme-nodejs-sdk RecipientsController: `POST /recipients`, `GET /recipients/{id}`,
 * `GET /recipients/{code}` (getRecipientByCode), `POST /recipients/{id}/kyc_link`; docs.pagar.me
 * "API v5 - Adição do fluxo de Prova de Vida"; Stone Connect's recipient object: status
 * registration | affiliation | active | refused | suspended | blocked | inactive):
 * - required: name, email, document (valid CPF/CNPJ), type (individual|company, matching the
 *   document), code, default_bank_account (holder_name, holder_type, holder_document = document,
 *   bank 3 digits, branch_number, account_number, account_check_digit, type checking|savings) and
 *   register_information (the 2024 contract: an individual's birthdate, monthly_income,
 *   professional_occupation, phone_numbers, address; a company's trading_name, annual_revenue,
 *   founding_date, phone_numbers, main_address, managing_partners); missing ones → 422 with
 *   `errors` keyed by the field path, as Pagar.me answers validation;
 * - a new recipient is `registration` without `kyc_details`; the KYC link is answered any time
 *   before it is active (the URL is not served by the emulator); the control route moves it to
 *   active (kyc approved), refused (kyc denied, its reason kept) or blocked, and sends
 *   `recipient.updated` when the account's webhook subscribes to it;
 * - each has its own balance (the kit's book, keyed by the recipient id).
 * Unconfirmed (no primary source): the error paths' exact spelling, birthdate as DD/MM/YYYY and
 * founding_date as YYYY-MM-DD, kyc_details' values, the `recipient.updated` payload.
 */
import { z } from 'zod';

export type RecipientStatus = 'registration' | 'affiliation' | 'active' | 'refused' | 'suspended' | 'blocked' | 'inactive';

const text = z.string().trim().min(1);
const phone = z.object({ ddd: z.string().regex(/^\d{2}$/), number: z.string().regex(/^\d{8,9}$/), type: z.string().optional() });
const address = z.object({
  street: text,
  street_number: text,
  neighborhood: text,
  city: text,
  state: z.string().regex(/^[A-Z]{2}$/),
  zip_code: z.string().regex(/^\d{8}$/),
  complementary: z.string().optional(),
  reference_point: z.string().optional(),
});
const BR_DATE = /^\d{2}\/\d{2}\/\d{4}$/;
const person = z.object({
  name: text,
  email: z.string().email(),
  document: z.string().regex(/^\d{11}$/),
  type: z.literal('individual').optional(),
  birthdate: z.string().regex(BR_DATE),
  monthly_income: z.number().int().positive(),
  professional_occupation: text,
  mother_name: z.string().optional(),
  phone_numbers: z.array(phone).min(1),
  address,
});

export const recipientSchema = z.object({
  name: text,
  email: z.string().email(),
  document: z.string().regex(/^\d{11}$|^\d{14}$/),
  type: z.enum(['individual', 'company']),
  code: text.max(52),
  description: z.string().optional(),
  default_bank_account: z.object({
    holder_name: text,
    holder_type: z.enum(['individual', 'company']),
    holder_document: z.string().regex(/^\d{11}$|^\d{14}$/),
    bank: z.string().regex(/^\d{3}$/),
    branch_number: z.string().regex(/^\d{1,4}$/),
    branch_check_digit: z.string().max(1).optional(),
    account_number: z.string().regex(/^\d{1,13}$/),
    account_check_digit: z.string().regex(/^[0-9Xx]{1,2}$/),
    type: z.enum(['checking', 'savings']),
  }),
  transfer_settings: z
    .object({ transfer_enabled: z.boolean(), transfer_interval: z.enum(['Daily', 'Weekly', 'Monthly']), transfer_day: z.number().int().min(0).max(31) })
    .optional(),
  register_information: z.discriminatedUnion('type', [
    person.extend({ type: z.literal('individual') }),
    z.object({
      type: z.literal('company'),
      email: z.string().email(),
      document: z.string().regex(/^\d{14}$/),
      company_name: text,
      trading_name: text,
      annual_revenue: z.number().int().positive(),
      founding_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      phone_numbers: z.array(phone).min(1),
      main_address: address,
      managing_partners: z.array(person.extend({ self_declared_legal_representative: z.boolean() })).min(1),
    }),
  ]),
});

export type RecipientRequest = z.infer<typeof recipientSchema>;

export interface StoredRecipient {
  id: string;
  accountId: string;
  request: RecipientRequest;
  status: RecipientStatus;
  kyc?: { status: 'approved' | 'denied'; reason?: string };
  bankAccountId: string;
  createdAt: string;
  updatedAt: string;
}

export function recipientJson(r: StoredRecipient) {
  const { default_bank_account: bank, transfer_settings: transfer } = r.request;
  return {
    id: r.id,
    name: r.request.name,
    email: r.request.email,
    document: r.request.document,
    description: r.request.description ?? null,
    type: r.request.type,
    code: r.request.code,
    status: r.status,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    default_bank_account: { id: r.bankAccountId, ...bank, status: 'active' },
    transfer_settings: transfer ?? { transfer_enabled: false, transfer_interval: 'Daily', transfer_day: 0 },
    ...(r.kyc ? { kyc_details: { status: r.kyc.status, ...(r.kyc.reason ? { status_reason: r.kyc.reason } : {}) } } : {}),
  };
}

/** The control route's target: Pagar.me's status and the KYC outcome that goes with it. */
export function applyStatus(r: StoredRecipient, target: 'active' | 'refused' | 'blocked', reason: string | undefined, at: Date): void {
  r.status = target;
  if (target === 'active') r.kyc = { status: 'approved' };
  if (target === 'refused') r.kyc = { status: 'denied', ...(reason ? { reason } : {}) };
  r.updatedAt = at.toISOString();
}
