/**
 * The 400 for a subaccount create body that lacks a field its provider requires (spec §4: "400 with
 * error.param when a field required by the provider is missing"). Pure: the adapter class's
 * `subaccountRequirements` table against the public create body (snake_case, as the API receives
 * it), so the check runs before anything is stored or sent, and names the same fields the catalog
 * lists under `capabilities.subaccounts.requires`.
 */
import type { SubaccountRequirement, SubaccountType } from './provider-subaccounts';

export interface MissingRequirement {
  /** The dotted path of the public body (`birthdate`, `address.zip`): the error's `param`. */
  field: string;
  /** pt-BR, names the field and says what to send. */
  message: string;
}

/** What to send, per field of the public body, as it follows "informe <field>"; others get none. */
const HOW_TO_SEND: Record<string, string> = {
  email: ' (um e-mail válido)',
  phone: ' com DDD, só dígitos',
  birthdate: ' no formato AAAA-MM-DD',
  mother_name: ' (nome completo da mãe)',
  monthly_income: ' em centavos por mês (inteiro)',
  address: ' com zip, street, number, neighborhood, city e state',
  'address.zip': ' com os 8 dígitos do CEP',
  'address.state': ' com a UF (2 letras)',
  bank_account: ' com bank (3 dígitos), branch, account, account_digit, type (checking ou savings) e holder_name, no mesmo CPF/CNPJ da subconta',
  pix_key: ' com key_type (cpf, cnpj, email, phone ou random) e key',
  'company.company_type': ' com um tipo aceito pelo provedor (por exemplo MEI, LIMITED, INDIVIDUAL, ASSOCIATION)',
  'company.founding_date': ' no formato AAAA-MM-DD',
  'company.annual_revenue': ' em centavos (inteiro)',
  partner: ' com os dados do sócio administrador (name, document e os demais dados de pessoa)',
};

const TYPE_LABEL: Record<SubaccountType, string> = { individual: 'pessoa física', company: 'pessoa jurídica' };

/**
 * The first requirement (in table order) the body does not satisfy, or null. A field counts as
 * absent when missing, null, or a blank string; requirements `onlyFor` another type are skipped.
 *
 * @example
 * missingRequirement([{ field: 'birthdate', onlyFor: 'individual' }], { name: 'Ana' }, 'individual', 'Asaas')
 * // → { field: 'birthdate', message: 'O provedor desta conta (Asaas) exige birthdate para subcontas de pessoa física: informe birthdate no formato AAAA-MM-DD.' }
 */
export function missingRequirement(
  requirements: readonly SubaccountRequirement[],
  body: Record<string, unknown>,
  type: SubaccountType,
  providerName: string,
): MissingRequirement | null {
  for (const requirement of requirements) {
    if (requirement.onlyFor && requirement.onlyFor !== type) continue;
    if (isPresent(valueAt(body, requirement.field))) continue;
    const field = requirement.field;
    const forWhom = requirement.onlyFor ? `subcontas de ${TYPE_LABEL[requirement.onlyFor]}` : 'subcontas';
    const message = `O provedor desta conta (${providerName}) exige ${field} para ${forWhom}: informe ${field}${HOW_TO_SEND[field] ?? ''}.`;
    return { field, message };
  }
  return null;
}

function valueAt(body: Record<string, unknown>, path: string): unknown {
  let value: unknown = body;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  return true;
}
