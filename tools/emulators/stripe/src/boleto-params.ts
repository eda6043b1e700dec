/**
 * Stripe's checks on a boleto PaymentIntent (docs.stripe.com/payments/boleto/accept-a-payment):
 * `payment_method_data[boleto][tax_id]` is a CPF (11 digits) or CNPJ (14), punctuation allowed;
 * the billing details carry name, e-mail and an address with line1, city, state, postal_code and
 * country BR; `payment_method_options[boleto][expires_after_days]` is 0..60 (default 3).
 */
import { integerParam, objectParam, rejectUnknown, requiredString, stringParam, type Params } from './form-params';
import { stripeErrors } from './stripe-errors';

export interface BoletoBilling {
  name: string;
  email: string;
  taxId: string;
  address: { line1: string; line2: string | null; city: string; state: string; postal_code: string; country: string };
}

const BOLETO_EXPIRY_DAYS = { min: 0, max: 60, default: 3 };

export function boletoBilling(data: Params): BoletoBilling {
  const boleto = objectParam(data['boleto'], 'payment_method_data[boleto]');
  rejectUnknown(boleto, ['tax_id'], 'payment_method_data[boleto]');
  const taxId = requiredString(boleto['tax_id'], 'payment_method_data[boleto][tax_id]').replace(/[.\-/\s]/g, '');
  if (!/^(\d{11}|\d{14})$/.test(taxId)) {
    throw stripeErrors.invalidValue('payment_method_data[boleto][tax_id]', 'Invalid tax_id: boleto requires a CPF (11 digits) or CNPJ (14 digits).');
  }
  const path = 'payment_method_data[billing_details]';
  const billing = objectParam(data['billing_details'], path);
  const address = objectParam(billing['address'], `${path}[address]`);
  rejectUnknown(address, ['line1', 'line2', 'city', 'state', 'postal_code', 'country'], `${path}[address]`);
  const country = requiredString(address['country'], `${path}[address][country]`);
  if (country !== 'BR') throw stripeErrors.invalidValue(`${path}[address][country]`, 'Boleto billing address country must be BR.');
  const postalCode = requiredString(address['postal_code'], `${path}[address][postal_code]`);
  if (!/^\d{5}-?\d{3}$/.test(postalCode)) throw stripeErrors.invalidValue(`${path}[address][postal_code]`, 'Invalid postal_code: a CEP has 8 digits.');
  const state = requiredString(address['state'], `${path}[address][state]`);
  if (!/^[A-Z]{2}$/.test(state)) throw stripeErrors.invalidValue(`${path}[address][state]`, 'Invalid state: use the two-letter UF, e.g. SP.');
  return {
    name: requiredString(billing['name'], `${path}[name]`),
    email: requiredString(billing['email'], `${path}[email]`),
    taxId,
    address: {
      line1: requiredString(address['line1'], `${path}[address][line1]`),
      line2: stringParam(address['line2'], `${path}[address][line2]`) ?? null,
      city: requiredString(address['city'], `${path}[address][city]`),
      state,
      postal_code: postalCode,
      country,
    },
  };
}

export function boletoExpiryDays(options: Params): number {
  const boleto = objectParam(options['boleto'], 'payment_method_options[boleto]');
  rejectUnknown(boleto, ['expires_after_days', 'setup_future_usage'], 'payment_method_options[boleto]');
  const path = 'payment_method_options[boleto][expires_after_days]';
  const days = integerParam(boleto['expires_after_days'], path) ?? BOLETO_EXPIRY_DAYS.default;
  if (days < BOLETO_EXPIRY_DAYS.min || days > BOLETO_EXPIRY_DAYS.max) {
    throw stripeErrors.invalidValue(path, `Invalid ${path}: must be between ${BOLETO_EXPIRY_DAYS.min} and ${BOLETO_EXPIRY_DAYS.max}.`);
  }
  return days;
}

/** `payment_method_options[card][installments][plan]`: count 2..12, monthly, fixed_count (Brazil). */
export function cardInstallments(options: Params): number | null {
  const card = objectParam(options['card'], 'payment_method_options[card]');
  rejectUnknown(card, ['installments', 'request_three_d_secure'], 'payment_method_options[card]');
  const installments = objectParam(card['installments'], 'payment_method_options[card][installments]');
  rejectUnknown(installments, ['enabled', 'plan'], 'payment_method_options[card][installments]');
  if (installments['plan'] === undefined) return null;
  const path = 'payment_method_options[card][installments][plan]';
  const plan = objectParam(installments['plan'], path);
  rejectUnknown(plan, ['count', 'interval', 'type'], path);
  const count = integerParam(plan['count'], `${path}[count]`);
  if (count === undefined || count < 2 || count > 12) throw stripeErrors.invalidValue(`${path}[count]`, 'Installment plan count must be between 2 and 12.');
  if (plan['interval'] !== 'month' || plan['type'] !== 'fixed_count') throw stripeErrors.invalidValue(path, 'Only fixed_count monthly installment plans are supported.');
  return count;
}
