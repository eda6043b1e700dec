/**
 * `POST /v1/payment_methods` with raw card fields (`type=card`, `card[number]`, `card[exp_month]`,
 * `card[exp_year]`, `card[cvc]`, `billing_details[name]`) and `GET /v1/payment_methods/:id`: a card
 * PaymentMethod of the calling account, usable as `payment_method=pm_…` on its PaymentIntents and
 * on no other account's ("No such PaymentMethod"). Stripe takes raw numbers only on accounts with
 * raw card data access; the emulator takes them on every account.
 *
 * Test numbers (docs.stripe.com/testing): in test mode only these are accepted, as at Stripe (any
 * other number is "a non test card" decline); the decline happens when a PaymentIntent confirms.
 * Checks on create, answered as Stripe does (402 `card_error`): Luhn (`incorrect_number`), month
 * 1..12 (`invalid_expiry_month`), not past (`invalid_expiry_year`), CVC of 3–4 digits
 * (`invalid_cvc`). The number is never stored: only its brand and last four digits.
 */
import { Router } from 'express';
import { luhnValid } from '../../kit';
import { accountOf } from './auth';
import type { EmulatorState } from './emulator-state';
import { integerParam, objectParam, rejectUnknown, requiredString, stringParam } from './form-params';
import { paymentMethodJson, type StoredPaymentMethod } from './payment-intent-model';
import { StripeApiError, stripeErrors } from './stripe-errors';
import { newId } from './stripe-ids';
import type { TestCard } from './test-payment-methods';

export interface StoredCardPaymentMethod extends StoredPaymentMethod {
  accountId: string;
  type: 'card';
  /** What confirming a PaymentIntent with it does (the test number's behaviour). */
  decline?: TestCard['decline'];
}

const DECLINED = 'Your card was declined.';

/** Stripe's test card numbers the emulator knows (documented in the README). */
export const TEST_CARD_NUMBERS: Readonly<Record<string, { brand: string; country: string; decline?: TestCard['decline'] }>> = {
  '4242424242424242': { brand: 'visa', country: 'US' },
  '4000000760000002': { brand: 'visa', country: 'BR' },
  '5555555555554444': { brand: 'mastercard', country: 'US' },
  '4000000000000002': { brand: 'visa', country: 'US', decline: { code: 'card_declined', declineCode: 'generic_decline', message: DECLINED } },
  '4000000000009995': { brand: 'visa', country: 'US', decline: { code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' } },
  '4000000000000069': { brand: 'visa', country: 'US', decline: { code: 'expired_card', declineCode: 'expired_card', message: 'Your card has expired.' } },
  '4000000000000127': { brand: 'visa', country: 'US', decline: { code: 'incorrect_cvc', declineCode: 'incorrect_cvc', message: "Your card's security code is incorrect." } },
  '4000000000000119': {
    brand: 'visa',
    country: 'US',
    decline: { code: 'processing_error', declineCode: 'processing_error', message: 'An error occurred while processing your card. Try again in a little bit.' },
  },
};

const NON_TEST_CARD = {
  code: 'card_declined',
  declineCode: 'test_mode_live_card',
  message: 'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
};

function cardError(code: string, param: string, message: string): StripeApiError {
  return new StripeApiError(402, { type: 'card_error', code, param, message, doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}` });
}

function brandOf(digits: string): string {
  if (digits.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  return 'unknown';
}

/** The card PaymentMethod for the fields, or a 402 `card_error` naming the bad field. */
export function createCardPaymentMethod(state: EmulatorState, accountId: string, livemode: boolean, body: Record<string, unknown>): StoredCardPaymentMethod {
  rejectUnknown(body, ['type', 'card', 'billing_details', 'metadata', 'expand']);
  const type = requiredString(body['type'], 'type');
  if (type !== 'card') throw stripeErrors.invalidValue('type', `The emulator creates PaymentMethods of type card only, not ${type}.`);
  const card = objectParam(body['card'], 'card');
  rejectUnknown(card, ['number', 'exp_month', 'exp_year', 'cvc'], 'card');
  const number = requiredString(card['number'], 'card[number]').replace(/\s/g, '');
  const month = integerParam(card['exp_month'], 'card[exp_month]');
  const year = integerParam(card['exp_year'], 'card[exp_year]');
  if (month === undefined) throw stripeErrors.parameterMissing('card[exp_month]');
  if (year === undefined) throw stripeErrors.parameterMissing('card[exp_year]');
  const cvc = stringParam(card['cvc'], 'card[cvc]');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) throw cardError('incorrect_number', 'card[number]', 'Your card number is incorrect.');
  if (month < 1 || month > 12) throw cardError('invalid_expiry_month', 'card[exp_month]', "Your card's expiration month is invalid.");
  const fullYear = year < 100 ? 2000 + year : year;
  const now = new Date(state.now());
  if (fullYear * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) throw cardError('invalid_expiry_year', 'card[exp_year]', "Your card's expiration year is invalid.");
  if (cvc !== undefined && !/^\d{3,4}$/.test(cvc)) throw cardError('invalid_cvc', 'card[cvc]', "Your card's security code is invalid.");
  const billing = objectParam(body['billing_details'], 'billing_details');
  rejectUnknown(billing, ['name', 'email', 'phone', 'address'], 'billing_details');
  const known = TEST_CARD_NUMBERS[number];
  // Live mode: every well-formed number is approved; test mode: test numbers only.
  const decline = livemode ? undefined : known ? known.decline : NON_TEST_CARD;
  const pm: StoredCardPaymentMethod = {
    id: newId('pm'),
    accountId,
    type: 'card',
    created: state.nowSeconds(),
    billingDetails: { name: stringParam(billing['name'], 'billing_details[name]') ?? null, email: stringParam(billing['email'], 'billing_details[email]') ?? null },
    card: { brand: known?.brand ?? brandOf(number), last4: number.slice(-4), country: known?.country ?? 'BR', funding: 'credit', exp_month: month, exp_year: fullYear },
    ...(decline ? { decline } : {}),
  };
  state.addPaymentMethod(pm);
  return pm;
}

export function paymentMethodRoutes(state: EmulatorState): Router {
  const router = Router();

  router.post('/payment_methods', (req, res) => {
    const account = accountOf(res);
    const pm = createCardPaymentMethod(state, account.id, account.livemode, objectParam(req.body, ''));
    res.status(200).json(paymentMethodJson(pm, account.livemode));
  });

  router.get('/payment_methods/:id', (req, res) => {
    const account = accountOf(res);
    const id = req.params['id'] ?? '';
    const pm = state.findPaymentMethod(account.id, id);
    if (!pm) throw stripeErrors.resourceMissing('payment_method', id, 'payment_method');
    res.status(200).json(paymentMethodJson(pm, account.livemode));
  });

  return router;
}
