/**
 * A card sent in the create call (docs.asaas.com "Cobrança com cartão de crédito"):
 * `billingType: CREDIT_CARD` with `creditCard{holderName, number, expiryMonth, expiryYear, ccv}`,
 * `creditCardHolderInfo{name, email, cpfCnpj, postalCode, addressNumber, phone}` and `remoteIp`,
 * or a `creditCardToken` an earlier such charge answered (tied to the account and its customer).
 * Asaas authorizes at once: approved → the charge is created CONFIRMED with
 * `creditCard{creditCardNumber (last 4), creditCardBrand, creditCardToken}`; refused → HTTP 400
 * `invalid_creditCard` with the reason and no charge is created (unconfirmed reading of Asaas's
 * docs, see README). Field checks answer 400 with `invalid_creditCard` (card fields, Luhn, expiry,
 * ccv), `invalid_creditCardHolderInfo` (holder fields) or `invalid_remoteIp`. The number and ccv
 * are never stored or echoed: only the brand and last four digits are kept.
 */
import { asaasErrors } from './asaas-errors';
import { newUuid } from './asaas-ids';
import { documentDigits, luhnValid } from '../../kit';
import type { EmulatorState, PaidCard } from './emulator-state';
import { brandOf, declineOf } from './test-cards';
import type { Body } from './request-fields';

/** What the create call's card fields decide: an approved card to charge, or a thrown 400. */
export function authorizeCard(state: EmulatorState, accountId: string, customerId: string, body: Body): PaidCard {
  const token = body['creditCardToken'];
  if (token !== undefined && token !== null) {
    const known = typeof token === 'string' ? state.cardTokens.get(token) : undefined;
    // Another account's token (or another customer's) is as unknown as a made-up one.
    if (!known || known.accountId !== accountId || known.customerId !== customerId) {
      throw asaasErrors.invalid('creditCardToken', 'Token de cartão de crédito inválido ou não pertence a este cliente.');
    }
    return { last4: known.last4, brand: known.brand, token: String(token) };
  }
  const card = objectField(body, 'creditCard', 'creditCard', 'Informe os dados do cartão de crédito (creditCard) ou o creditCardToken.');
  const holder = objectField(body, 'creditCardHolderInfo', 'creditCardHolderInfo', 'Informe os dados do titular do cartão (creditCardHolderInfo).');
  const remoteIp = text(body['remoteIp']);
  if (!remoteIp) throw asaasErrors.invalid('remoteIp', 'O IP remoto (remoteIp) do comprador deve ser informado.');
  const holderName = text(card['holderName']);
  const number = text(card['number']).replace(/\s/g, '');
  const month = text(card['expiryMonth']);
  const year = text(card['expiryYear']);
  const ccv = text(card['ccv']);
  if (!holderName) throw asaasErrors.invalid('creditCard', 'O nome impresso no cartão deve ser informado.');
  if (!number) throw asaasErrors.invalid('creditCard', 'O número do cartão de crédito deve ser informado.');
  if (!/^\d{13,19}$/.test(number) || !luhnValid(number)) throw asaasErrors.invalid('creditCard', 'O número do cartão de crédito é inválido.');
  if (!month || !year) throw asaasErrors.invalid('creditCard', 'A validade do cartão de crédito deve ser informada.');
  if (!expiryValid(month, year, state.now())) throw asaasErrors.invalid('creditCard', 'A validade do cartão de crédito é inválida: cartão vencido ou data incorreta.');
  if (!ccv) throw asaasErrors.invalid('creditCard', 'O código de segurança (ccv) do cartão de crédito deve ser informado.');
  if (!/^\d{3,4}$/.test(ccv)) throw asaasErrors.invalid('creditCard', 'O código de segurança (ccv) do cartão de crédito é inválido.');
  checkHolder(holder);
  const decline = declineOf(number);
  if (decline) throw asaasErrors.invalid('creditCard', decline.message);
  const approved: PaidCard = { last4: number.slice(-4), brand: brandOf(number), token: newUuid() };
  state.cardTokens.set(approved.token ?? '', { accountId, customerId, last4: approved.last4, brand: approved.brand });
  return approved;
}

function objectField(body: Body, field: string, code: string, missing: string): Body {
  const value = body[field];
  if (value === undefined || value === null) throw asaasErrors.invalid(code, missing);
  if (typeof value !== 'object' || Array.isArray(value)) throw asaasErrors.invalid(code, `O campo ${field} é inválido.`);
  return value as Body;
}

/** Numbers arrive as their source text (json-body.ts), so `"05"` and `5` read alike. */
function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** Month 1..12, year of 2 or 4 digits, the card valid through the end of that month. */
function expiryValid(monthText: string, yearText: string, now: Date): boolean {
  if (!/^\d{1,2}$/.test(monthText) || !/^(\d{2}|\d{4})$/.test(yearText)) return false;
  const month = Number(monthText);
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (month < 1 || month > 12) return false;
  return year * 12 + month >= now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

function checkHolder(holder: Body): void {
  const required: [string, string][] = [
    ['name', 'o nome'],
    ['email', 'o e-mail'],
    ['cpfCnpj', 'o CPF/CNPJ'],
    ['postalCode', 'o CEP'],
    ['addressNumber', 'o número do endereço'],
    ['phone', 'o telefone'],
  ];
  for (const [field, label] of required) {
    if (!text(holder[field])) throw asaasErrors.invalid('creditCardHolderInfo', `Informe ${label} do titular do cartão (creditCardHolderInfo.${field}).`);
  }
  if (!documentDigits(text(holder['cpfCnpj']))) throw asaasErrors.invalid('creditCardHolderInfo', 'O CPF/CNPJ do titular do cartão é inválido.');
  if (!/^\d{8}$/.test(text(holder['postalCode']).replace(/\D/g, ''))) throw asaasErrors.invalid('creditCardHolderInfo', 'O CEP do titular do cartão é inválido.');
  if (!/^\d{10,11}$/.test(text(holder['phone']).replace(/\D/g, ''))) throw asaasErrors.invalid('creditCardHolderInfo', 'O telefone do titular do cartão é inválido.');
}
