/**
 * Credit card orders (docs.pagar.me "Cartão de crédito"): `payments[0]` of `payment_method:
 * "credit_card"` with `credit_card{installments, statement_descriptor?, capture?, card{number,
 * holder_name, exp_month, exp_year, cvv, billing_address?} | card_id}`. The emulator authorizes and
 * captures at once: the order answers 200 either way, `paid` with a `captured` transaction, or
 * `failed` with a `not_authorized` one carrying the acquirer's return code and message.
 *
 * Field checks answer 422 with `errors` keyed by the field path, as every other order check:
 * number (digits, Luhn), month 1..12, expiry not before this month, cvv 3–4 digits and present
 * (the emulator requires it for a card sent in full), holder name. A card sent in full is saved
 * to the customer (`card_…`, answered in `last_transaction.card.id`); `card_id` charges it again
 * on the same account only (another account's id → 422 "Card not found."). The number and cvv are
 * never kept: only the first six and last four digits, brand and expiry.
 *
 * Test numbers (README): Pagar.me's simulator `4000000000000010` approves and `4000000000000028`
 * is not authorized; the emulator adds `4000000000009995` (insufficient funds, return code 51) and
 * `4000000000000069` (expired card, 54); any other valid number is approved.
 */
import { z } from 'zod';
import { luhnValid } from '../../kit';

export const cardSchema = z.object({
  number: z.string().optional(),
  holder_name: z.string().max(64).optional(),
  holder_document: z.string().optional(),
  exp_month: z.number().int().optional(),
  exp_year: z.number().int().optional(),
  cvv: z.string().optional(),
  brand: z.string().optional(),
  billing_address: z.record(z.unknown()).optional(),
});

export const creditCardSchema = z.object({
  installments: z.number().int().min(1).max(24).optional(),
  statement_descriptor: z.string().max(13).optional(),
  capture: z.boolean().optional(),
  operation_type: z.enum(['auth_and_capture', 'auth_only', 'pre_auth']).optional(),
  card: cardSchema.optional(),
  card_id: z.string().optional(),
  card_token: z.string().optional(),
});

export type CreditCardRequest = z.infer<typeof creditCardSchema>;

/** A card kept by the emulator for `card_id` (never the number or cvv). */
export interface StoredCard {
  id: string;
  accountId: string;
  customerId: string;
  firstSix: string;
  lastFour: string;
  brand: string;
  holderName: string;
  expMonth: number;
  expYear: number;
}

/** What the acquirer said about a card transaction. */
export interface CardTransactionDetails {
  card: StoredCard;
  installments: number;
  statementDescriptor?: string;
  approved: boolean;
  acquirerReturnCode: string;
  acquirerMessage: string;
}

const DECLINES: Readonly<Record<string, { code: string; message: string }>> = {
  '4000000000000028': { code: '05', message: 'Transação não autorizada' },
  '4000000000009995': { code: '51', message: 'Saldo insuficiente' },
  '4000000000000069': { code: '54', message: 'Cartão vencido' },
};

function brandOf(digits: string): string {
  if (/^(4011|4312|4389|4514|4576|5041|5066|5067|509|6277|6362|6363|650|6516|6550)/.test(digits)) return 'Elo';
  if (digits.startsWith('4')) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'Mastercard';
  if (/^3[47]/.test(digits)) return 'Amex';
  if (/^(606282|3841)/.test(digits)) return 'Hipercard';
  return 'Visa';
}

/** The field problems of a card sent in full, keyed like every 422 (`order.payments[0].credit_card.card.number`). */
export function cardProblems(card: z.infer<typeof cardSchema>, now: Date): Record<string, string> {
  const at = 'order.payments[0].credit_card.card';
  const problems: Record<string, string> = {};
  const number = (card.number ?? '').replace(/\s/g, '');
  if (!number) problems[`${at}.number`] = 'The number field is required.';
  else if (!/^\d{13,19}$/.test(number) || !luhnValid(number)) problems[`${at}.number`] = 'The number field is not a valid credit card number.';
  if (!card.holder_name?.trim()) problems[`${at}.holder_name`] = 'The holder_name field is required.';
  const month = card.exp_month;
  const year = card.exp_year === undefined ? undefined : card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
  if (month === undefined) problems[`${at}.exp_month`] = 'The exp_month field is required.';
  else if (month < 1 || month > 12) problems[`${at}.exp_month`] = 'The exp_month field is invalid.';
  if (year === undefined) problems[`${at}.exp_year`] = 'The exp_year field is required.';
  else if (month !== undefined && month >= 1 && month <= 12 && year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) problems[`${at}`] = 'Card expired.';
  if (!card.cvv) problems[`${at}.cvv`] = 'The cvv field is required.';
  else if (!/^\d{3,4}$/.test(card.cvv)) problems[`${at}.cvv`] = 'The cvv field is invalid.';
  return problems;
}

/** A card sent in full and already checked: what the emulator keeps, and the acquirer's answer. */
export function authorize(card: z.infer<typeof cardSchema>, ids: { cardId: string; accountId: string; customerId: string }): { stored: StoredCard; approved: boolean; code: string; message: string } {
  const number = (card.number ?? '').replace(/\s/g, '');
  const year = card.exp_year ?? 0;
  const stored: StoredCard = {
    id: ids.cardId,
    accountId: ids.accountId,
    customerId: ids.customerId,
    firstSix: number.slice(0, 6),
    lastFour: number.slice(-4),
    brand: brandOf(number),
    holderName: (card.holder_name ?? '').trim(),
    expMonth: card.exp_month ?? 0,
    expYear: year < 100 ? 2000 + year : year,
  };
  const decline = DECLINES[number];
  return decline ? { stored, approved: false, ...decline } : { stored, approved: true, code: '00', message: 'Transação capturada com sucesso' };
}

/** The request as a 422 echoes it, with card numbers and security codes masked (Pagar.me masks them too). */
export function maskCardFields(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(maskCardFields);
  if (typeof body !== 'object' || body === null) return body;
  return Object.fromEntries(
    Object.entries(body as Record<string, unknown>).map(([key, value]) => {
      if (key === 'cvv') return [key, '***'];
      if (key === 'number' && typeof value === 'string' && /^\d{12,19}$/.test(value.replace(/\s/g, ''))) {
        const digits = value.replace(/\s/g, '');
        return [key, `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`];
      }
      return [key, maskCardFields(value)];
    }),
  );
}
