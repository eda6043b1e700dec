/**
 * `POST /v1/card_tokens`: a card becomes a single-use token of the account that created it (the
 * real API answers the same for its public key or access token). The outcome of a payment with the
 * token is fixed here, as Mercado Pago's sandbox does it: by the cardholder name of its test
 * cards (`APRO` approved, `OTHE` refused, `FUND` insufficient funds, `SECU` security code, `EXPI`
 * expiry date, `CALL` call for authorization, `FORM` form error, `CONT` pending). A card whose
 * expiry has passed is refused as `cc_rejected_bad_filled_date` whatever the name; any other name
 * is approved (the emulator's choice). As an emulator-only convenience the decline numbers every
 * other emulator shares decide too (EMULATOR_DECLINE_NUMBERS), so one test card behaves alike at
 * every provider. Only the first six and last four digits are kept: the
 * number and security code are never stored, logged or echoed.
 */
import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import { luhnValid } from '../../kit';
import { accountOf } from './auth';
import type { EmulatorState } from './emulator-state';
import { mpErrors } from './mp-errors';
import { mpDate } from './mp-format';

export type CardOutcome =
  | { status: 'approved'; statusDetail: 'accredited' }
  | { status: 'in_process'; statusDetail: 'pending_contingency' }
  | { status: 'rejected'; statusDetail: `cc_rejected_${string}` };

/** Mercado Pago's test cardholder names (developers docs, "Test cards"). */
export const TEST_CARDHOLDER_OUTCOMES: Readonly<Record<string, CardOutcome>> = {
  APRO: { status: 'approved', statusDetail: 'accredited' },
  CONT: { status: 'in_process', statusDetail: 'pending_contingency' },
  OTHE: { status: 'rejected', statusDetail: 'cc_rejected_other_reason' },
  CALL: { status: 'rejected', statusDetail: 'cc_rejected_call_for_authorize' },
  FUND: { status: 'rejected', statusDetail: 'cc_rejected_insufficient_amount' },
  SECU: { status: 'rejected', statusDetail: 'cc_rejected_bad_filled_security_code' },
  EXPI: { status: 'rejected', statusDetail: 'cc_rejected_bad_filled_date' },
  FORM: { status: 'rejected', statusDetail: 'cc_rejected_bad_filled_other' },
};

/** Mercado Pago's test card numbers for Brazil (any Luhn-valid number is taken as well). */
export const TEST_CARD_NUMBERS = {
  mastercard: '5031433215406351',
  visa: '4235647728025682',
  amex: '375365153556885',
  elo: '5067766783888311',
} as const;

/** Emulator-only: the numbers the other emulators decline with, declined the same way here. */
export const EMULATOR_DECLINE_NUMBERS: Readonly<Record<string, CardOutcome>> = {
  '4000000000000002': { status: 'rejected', statusDetail: 'cc_rejected_other_reason' },
  '4000000000009995': { status: 'rejected', statusDetail: 'cc_rejected_insufficient_amount' },
  '4000000000000069': { status: 'rejected', statusDetail: 'cc_rejected_bad_filled_date' },
};

/** A card token lives 7 days and pays once. */
export const CARD_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface StoredCardToken {
  id: string;
  userId: number;
  firstSix: string;
  lastFour: string;
  expMonth: number;
  expYear: number;
  holderName: string;
  outcome: CardOutcome;
  createdAt: Date;
  used: boolean;
}

const bodySchema = z
  .object({
    card_number: z.unknown(),
    expiration_month: z.unknown(),
    expiration_year: z.unknown(),
    security_code: z.unknown().optional(),
    cardholder: z.object({ name: z.string().optional(), identification: z.unknown().optional() }).passthrough().optional(),
  })
  .passthrough();

/** The outcome a payment with this card gets (see the module comment). */
export function outcomeFor(holderName: string, expMonth: number, expYear: number, now: Date, number = ''): CardOutcome {
  const byNumber = EMULATOR_DECLINE_NUMBERS[number];
  if (byNumber) return byNumber;
  const local = new Date(now.getTime() - 3 * 3_600_000);
  const expired = expYear < local.getUTCFullYear() || (expYear === local.getUTCFullYear() && expMonth < local.getUTCMonth() + 1);
  if (expired) return { status: 'rejected', statusDetail: 'cc_rejected_bad_filled_date' };
  return TEST_CARDHOLDER_OUTCOMES[holderName.trim().toUpperCase()] ?? { status: 'approved', statusDetail: 'accredited' };
}

/** Checks the body as Mercado Pago does and returns the token to store (never the number). */
export function tokenizeCard(body: unknown, userId: number, now: Date): StoredCardToken {
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) throw mpErrors.invalidCardholderName();
  const request = parsed.data;
  const number = typeof request.card_number === 'string' ? request.card_number : '';
  if (!/^\d{13,19}$/.test(number) || !luhnValid(number)) throw mpErrors.invalidCardNumber();
  const month = Number(request.expiration_month);
  if (!Number.isInteger(month) || month < 1 || month > 12) throw mpErrors.invalidExpirationMonth();
  const year = Number(request.expiration_year);
  if (!Number.isInteger(year) || year < 2000 || year > 2099) throw mpErrors.invalidExpirationYear();
  // A token made from a card number needs its security code.
  const cvc = typeof request.security_code === 'string' ? request.security_code : '';
  if (!/^\d{3,4}$/.test(cvc)) throw mpErrors.invalidSecurityCode();
  const holderName = request.cardholder?.name?.trim() ?? '';
  if (!holderName) throw mpErrors.invalidCardholderName();
  return {
    id: randomBytes(16).toString('hex'),
    userId,
    firstSix: number.slice(0, 6),
    lastFour: number.slice(-4),
    expMonth: month,
    expYear: year,
    holderName,
    outcome: outcomeFor(holderName, month, year, now, number),
    createdAt: now,
    used: false,
  };
}

export function cardTokenJson(token: StoredCardToken) {
  return {
    id: token.id,
    public_key: null,
    first_six_digits: token.firstSix,
    last_four_digits: token.lastFour,
    expiration_month: token.expMonth,
    expiration_year: token.expYear,
    cardholder: { name: token.holderName },
    status: token.used ? 'used' : 'active',
    date_created: mpDate(token.createdAt),
    date_due: mpDate(new Date(token.createdAt.getTime() + CARD_TOKEN_TTL_MS)),
    live_mode: false,
    luhn_validation: true,
    require_esc: false,
    security_code_length: 3,
  };
}

export function cardTokenRoutes(state: EmulatorState): Router {
  const router = Router();
  router.post('/v1/card_tokens', (req, res) => {
    const token = tokenizeCard(req.body, accountOf(res).userId, state.now());
    state.storeCardToken(token);
    res.status(201).json(cardTokenJson(token));
  });
  return router;
}
