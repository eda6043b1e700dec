import { AppError, saoPauloDate } from '@orquestra/platform';
import cardValidator from 'card-validator';

/** The brands the vault takes (spec §2 Saved card), named as card-validator names them. */
export const CARD_BRANDS = ['visa', 'mastercard', 'elo', 'hipercard', 'american-express', 'diners-club', 'discover', 'jcb'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** Cards are accepted up to this many years ahead (card-validator's own bound). */
const MAX_YEARS_AHEAD = 19;

export interface CheckedCard {
  number: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/** The current year and month on São Paulo's clock: a card is valid through the last day of its month there. */
export function saoPauloMonth(now: Date = new Date()): { year: number; month: number } {
  const [year, month] = saoPauloDate(now).split('-').map(Number) as [number, number];
  return { year, month };
}

/** True when the card's expiry month is over (São Paulo time). */
export function isExpired(expMonth: number, expYear: number, now: Date = new Date()): boolean {
  const current = saoPauloMonth(now);
  return expYear < current.year || (expYear === current.year && expMonth < current.month);
}

/** The brand of a number from its BIN, or undefined when it is none the vault takes. */
export function brandOf(number: string): CardBrand | undefined {
  const type = cardValidator.number(number).card?.type;
  return (CARD_BRANDS as readonly string[]).includes(type ?? '') ? (type as CardBrand) : undefined;
}

/**
 * Checks a card in full, as the card fields' tokenize call sends it: digits only, Luhn, a brand the
 * vault takes (from the BIN), a length that brand issues, an expiry not past, a security code of the
 * brand's length. Each refusal names the field; no message ever repeats the number or the code.
 */
export function checkCard(input: { number: string; expMonth: number; expYear: number; cvc: string }, now: Date = new Date()): CheckedCard {
  const number = input.number;
  if (!number) throw new AppError('parameter_missing', { param: 'number', message: 'Informe o número do cartão.' });
  if (!/^\d{12,19}$/.test(number)) throw new AppError('parameter_invalid', { param: 'number', message: 'O número do cartão deve ter de 12 a 19 dígitos, sem letras nem símbolos.' });
  const verdict = cardValidator.number(number);
  const type = verdict.card?.type;
  if (type && !(CARD_BRANDS as readonly string[]).includes(type)) {
    throw new AppError('parameter_invalid', {
      param: 'number',
      message: `A bandeira deste cartão (${verdict.card?.niceType ?? type}) não é aceita. Bandeiras aceitas: ${CARD_BRANDS.join(', ')}.`,
    });
  }
  if (!verdict.isValid || !verdict.card) {
    throw new AppError('parameter_invalid', { param: 'number', message: 'O número do cartão é inválido: confira os dígitos (a verificação de Luhn e a bandeira não conferem).' });
  }
  const brand = verdict.card.type as CardBrand;
  if (!Number.isInteger(input.expMonth) || input.expMonth < 1 || input.expMonth > 12) {
    throw new AppError('parameter_invalid', { param: 'exp_month', message: 'O mês de validade deve ser um número de 1 a 12.' });
  }
  const current = saoPauloMonth(now);
  if (!Number.isInteger(input.expYear) || input.expYear < 1000 || input.expYear > 9999) {
    throw new AppError('parameter_invalid', { param: 'exp_year', message: 'O ano de validade deve ter quatro dígitos (por exemplo 2030).' });
  }
  if (input.expYear > current.year + MAX_YEARS_AHEAD) {
    throw new AppError('parameter_invalid', { param: 'exp_year', message: `O ano de validade não pode passar de ${current.year + MAX_YEARS_AHEAD}: confira o cartão.` });
  }
  if (isExpired(input.expMonth, input.expYear, now)) {
    const month = String(input.expMonth).padStart(2, '0');
    throw new AppError('parameter_invalid', {
      param: input.expYear < current.year ? 'exp_year' : 'exp_month',
      message: `O cartão venceu em ${month}/${input.expYear}. Use um cartão dentro da validade.`,
    });
  }
  const size = verdict.card.code.size;
  if (!new RegExp(`^\\d{${size}}$`).test(input.cvc)) {
    throw new AppError(input.cvc ? 'parameter_invalid' : 'parameter_missing', {
      param: 'cvc',
      message: `O código de segurança (${verdict.card.code.name}) de um cartão ${verdict.card.niceType} tem ${size} dígitos.`,
    });
  }
  return { number, brand, last4: number.slice(-4), expMonth: input.expMonth, expYear: input.expYear, cvc: input.cvc };
}
