/**
 * `/v1/payment_intents`: create (optionally confirming a Pix or a test card), retrieve, list and
 * cancel, with Stripe's parameter checks (unknown parameters, integer amounts in centavos, the
 * BRL minimum, Pix `expires_after_seconds` 10..1 209 600). Mounted behind the API-key check.
 */
import { Router, type Response } from 'express';
import { accountOf } from './auth';
import type { EmulatorState } from './emulator-state';
import type { EventCause } from './events';
import {
  booleanParam,
  expandList,
  integerParam,
  metadataParam,
  objectParam,
  rejectUnknown,
  requiredString,
  stringArrayParam,
  stringParam,
  type Params,
} from './form-params';
import type { CreateIntentInput, PaymentIntentLifecycle } from './payment-intent-lifecycle';
import { checkExpand, paymentIntentJson } from './payment-intent-model';
import { stripeErrors } from './stripe-errors';
import { boletoBilling, boletoExpiryDays, cardInstallments } from './boleto-params';
import { parseDestination, type ConnectedAccountOf } from './destination-charges';
import { listIntentPage } from './charge-listing';

const CREATE_PARAMS = [
  'amount', 'currency', 'confirm', 'description', 'expand', 'metadata', 'payment_method', 'payment_method_data',
  'payment_method_options', 'payment_method_types', 'receipt_email', 'statement_descriptor', 'statement_descriptor_suffix',
  'transfer_data', 'application_fee_amount',
] as const;
const SUPPORTED_TYPES = ['pix', 'card', 'boleto'];
const PIX_EXPIRY = { min: 10, max: 1_209_600, default: 86_400 };
/** Stripe's minimum charge in BRL is R$ 0.50; amounts have at most eight digits. */
const BRL_MINIMUM = 50;
const MAX_AMOUNT = 99_999_999;

export function causeOf(res: Response): EventCause {
  const key = res.locals['idempotencyKey'];
  return { requestId: String(res.locals['requestId']), ...(typeof key === 'string' ? { idempotencyKey: key } : {}) };
}

function paymentMethodTypes(body: Params): string[] {
  const types = stringArrayParam(body['payment_method_types'], 'payment_method_types') ?? ['card'];
  for (const type of types) {
    if (!SUPPORTED_TYPES.includes(type)) {
      throw stripeErrors.invalidValue(
        'payment_method_types',
        `The payment method type provided: ${type} is invalid. Please ensure the provided type is activated in your dashboard (https://dashboard.stripe.com/account/payments/settings) and your account is enabled for any preview features that you are trying to use.`,
      );
    }
  }
  return types;
}

function pixExpiry(body: Params): number {
  const options = objectParam(body['payment_method_options'], 'payment_method_options');
  rejectUnknown(options, ['pix', 'card', 'boleto'], 'payment_method_options');
  const pix = objectParam(options['pix'], 'payment_method_options[pix]');
  rejectUnknown(pix, ['expires_after_seconds', 'setup_future_usage'], 'payment_method_options[pix]');
  const path = 'payment_method_options[pix][expires_after_seconds]';
  const seconds = integerParam(pix['expires_after_seconds'], path) ?? PIX_EXPIRY.default;
  if (seconds < PIX_EXPIRY.min || seconds > PIX_EXPIRY.max) {
    throw stripeErrors.invalidValue(path, `Invalid ${path}: must be between ${PIX_EXPIRY.min} and ${PIX_EXPIRY.max} seconds.`);
  }
  return seconds;
}

function paymentMethodData(body: Params, types: string[]): CreateIntentInput['paymentMethodData'] {
  if (body['payment_method_data'] === undefined) return undefined;
  const data = objectParam(body['payment_method_data'], 'payment_method_data');
  rejectUnknown(data, ['type', 'billing_details', 'pix', 'boleto', 'metadata'], 'payment_method_data');
  const type = requiredString(data['type'], 'payment_method_data[type]');
  if (type !== 'pix' && type !== 'boleto') throw stripeErrors.invalidValue('payment_method_data[type]', `The emulator accepts payment_method_data only for pix and boleto, not ${type}; pass payment_method=pm_card_… for cards.`);
  if (!types.includes(type)) {
    throw stripeErrors.invalidValue('payment_method_data[type]', `The payment method type provided (${type}) is not in this PaymentIntent's payment_method_types (${types.join(', ')}).`);
  }
  if (type === 'boleto') {
    const boleto = boletoBilling(data);
    return { type, name: boleto.name, email: boleto.email, boleto };
  }
  const billing = objectParam(data['billing_details'], 'payment_method_data[billing_details]');
  rejectUnknown(billing, ['name', 'email', 'phone', 'address', 'tax_id'], 'payment_method_data[billing_details]');
  return {
    type,
    name: stringParam(billing['name'], 'payment_method_data[billing_details][name]') ?? null,
    email: stringParam(billing['email'], 'payment_method_data[billing_details][email]') ?? null,
  };
}

export function parseCreate(body: Params): CreateIntentInput {
  rejectUnknown(body, CREATE_PARAMS);
  const amount = integerParam(body['amount'], 'amount');
  if (amount === undefined) throw stripeErrors.parameterMissing('amount');
  const currency = requiredString(body['currency'], 'currency').toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) throw stripeErrors.invalidValue('currency', `Invalid currency: ${currency}.`);
  if (currency === 'brl' && amount < BRL_MINIMUM) throw stripeErrors.amountTooSmall();
  if (amount < 1) throw stripeErrors.invalidValue('amount', 'This value must be greater than or equal to 1.');
  if (amount > MAX_AMOUNT) throw stripeErrors.amountTooLarge();
  const types = paymentMethodTypes(body);
  if (types.includes('pix') && currency !== 'brl') {
    throw stripeErrors.invalidValue('currency', `The currency provided (${currency}) is invalid. Payments with pix support the following currencies: brl.`);
  }
  const pmData = paymentMethodData(body, types);
  const paymentMethodId = stringParam(body['payment_method'], 'payment_method');
  if (pmData && paymentMethodId) throw stripeErrors.invalidValue('payment_method_data', 'You cannot provide both payment_method and payment_method_data.');
  const confirm = booleanParam(body['confirm'], 'confirm') ?? false;
  if (confirm && !pmData && !paymentMethodId) {
    throw stripeErrors.invalidValue(
      'payment_method',
      "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method or ConfirmationToken.",
    );
  }
  const description = stringParam(body['description'], 'description');
  return {
    amount,
    currency,
    paymentMethodTypes: types,
    description: description ? description.slice(0, 1000) : null,
    metadata: metadataParam(body['metadata']),
    confirm,
    pixExpiresAfterSeconds: pixExpiry(body),
    boletoExpiresAfterDays: boletoExpiryDays(objectParam(body['payment_method_options'], 'payment_method_options')),
    installments: cardInstallments(objectParam(body['payment_method_options'], 'payment_method_options')),
    ...(pmData ? { paymentMethodData: pmData } : {}),
    ...(paymentMethodId ? { paymentMethodId } : {}),
  };
}

/** `connectedAccount` finds the platform's connected accounts for destination charges (none: every destination is unknown). */
export function paymentIntentRoutes(state: EmulatorState, lifecycle: PaymentIntentLifecycle, connectedAccount: ConnectedAccountOf = () => undefined): Router {
  const router = Router();

  router.post('/payment_intents', (req, res) => {
    const body = objectParam(req.body, '');
    const expand = expandList(req);
    checkExpand(expand);
    const input = parseCreate(body);
    const destination = parseDestination(body, input.amount, accountOf(res).id, connectedAccount);
    const pi = lifecycle.create(accountOf(res), { ...input, ...destination }, causeOf(res));
    res.status(200).json(paymentIntentJson(pi, expand));
  });

  // By `created` (exact or gt/gte/lt/lte), cursor pages with starting_after/ending_before (charge-listing.ts).
  router.get('/payment_intents', (req, res) => {
    const page = listIntentPage(state, accountOf(res).id, req, (pi) => lifecycle.refresh(pi));
    res.status(200).json({ object: 'list', data: page.data.map((pi) => paymentIntentJson(pi, page.expand)), has_more: page.hasMore, url: '/v1/payment_intents' });
  });

  router.get('/payment_intents/:id', (req, res) => {
    const expand = expandList(req);
    checkExpand(expand);
    const pi = lifecycle.refresh(state.getIntent(accountOf(res).id, req.params['id'] ?? ''));
    res.status(200).json(paymentIntentJson(pi, expand));
  });

  router.post('/payment_intents/:id/cancel', (req, res) => {
    const body = objectParam(req.body, '');
    rejectUnknown(body, ['cancellation_reason', 'expand']);
    const reason = stringParam(body['cancellation_reason'], 'cancellation_reason') ?? null;
    if (reason !== null && !['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'].includes(reason)) {
      throw stripeErrors.invalidValue('cancellation_reason', `Invalid cancellation_reason: must be one of duplicate, fraudulent, requested_by_customer, or abandoned`);
    }
    const expand = expandList(req);
    checkExpand(expand);
    const pi = state.getIntent(accountOf(res).id, req.params['id'] ?? '');
    lifecycle.cancel(pi, reason, causeOf(res));
    res.status(200).json(paymentIntentJson(pi, expand));
  });

  return router;
}
