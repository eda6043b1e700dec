/**
 * Stripe's test PaymentMethods (docs.stripe.com/testing): `payment_method=pm_card_visa` succeeds,
 * `pm_card_chargeDeclined` and friends decline with the documented `code`/`decline_code`. They
 * exist in test mode only; a live key gets "No such PaymentMethod".
 */

export interface TestCard {
  brand: string;
  last4: string;
  country: string;
  funding: 'credit' | 'debit';
  decline?: { code: string; declineCode?: string; message: string };
}

const DECLINED = 'Your card was declined.';

const visa = (decline?: TestCard['decline'], last4 = '4242'): TestCard => ({ brand: 'visa', last4, country: 'US', funding: 'credit', ...(decline ? { decline } : {}) });

const generic = { code: 'card_declined', declineCode: 'generic_decline', message: DECLINED };
const insufficient = { code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' };
const lost = { code: 'card_declined', declineCode: 'lost_card', message: DECLINED };
const stolen = { code: 'card_declined', declineCode: 'stolen_card', message: DECLINED };

export const TEST_PAYMENT_METHODS: Readonly<Record<string, TestCard>> = {
  pm_card_visa: visa(),
  pm_card_visa_debit: { brand: 'visa', last4: '5556', country: 'US', funding: 'debit' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', country: 'US', funding: 'credit' },
  pm_card_amex: { brand: 'amex', last4: '8431', country: 'US', funding: 'credit' },
  pm_card_br: { brand: 'visa', last4: '0002', country: 'BR', funding: 'credit' },
  pm_card_visa_chargeDeclined: visa(generic, '0002'),
  pm_card_chargeDeclined: visa(generic, '0002'),
  pm_card_visa_chargeDeclinedInsufficientFunds: visa(insufficient, '9995'),
  pm_card_chargeDeclinedInsufficientFunds: visa(insufficient, '9995'),
  pm_card_visa_chargeDeclinedLostCard: visa(lost, '9987'),
  pm_card_chargeDeclinedLostCard: visa(lost, '9987'),
  pm_card_visa_chargeDeclinedStolenCard: visa(stolen, '9979'),
  pm_card_chargeDeclinedStolenCard: visa(stolen, '9979'),
  pm_card_chargeDeclinedExpiredCard: visa({ code: 'expired_card', declineCode: 'expired_card', message: 'Your card has expired.' }, '0069'),
  pm_card_chargeDeclinedIncorrectCvc: visa({ code: 'incorrect_cvc', declineCode: 'incorrect_cvc', message: "Your card's security code is incorrect." }, '0127'),
  pm_card_chargeDeclinedProcessingError: visa(
    { code: 'processing_error', declineCode: 'processing_error', message: 'An error occurred while processing your card. Try again in a little bit.' },
    '0119',
  ),
};

export function testCard(paymentMethodId: string): TestCard | undefined {
  return Object.prototype.hasOwnProperty.call(TEST_PAYMENT_METHODS, paymentMethodId) ? TEST_PAYMENT_METHODS[paymentMethodId] : undefined;
}
