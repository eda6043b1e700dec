/**
 * How a PaymentIntent moves, and the events each move emits:
 * - Pix, confirmed: `requires_action` with `next_action.pix_display_qr_code` (a valid BR Code) →
 *   paid (sandbox control) `succeeded` (+ Charge, balance transaction with the fee), or past
 *   `expires_at` back to `requires_payment_method` with `last_payment_error.code =
 *   payment_intent_payment_attempt_expired` (unconfirmed reading of Stripe's behaviour, see README).
 * - Boleto, confirmed: `requires_action` with `next_action.boleto_display_details` (a 47-digit
 *   linha digitável with valid check digits) → paid (sandbox control) `succeeded`, or past the end
 *   of its due day back to `requires_payment_method` like an expired Pix.
 * - Card, confirmed with a test PaymentMethod (or one created from a test card number): `succeeded`, or a decline: the intent returns to
 *   `requires_payment_method` with `last_payment_error` and the request answers 402 `card_error`.
 * - Not confirmed: `requires_payment_method`/`requires_confirmation`; any open status → `canceled`.
 */
import { dynamicBrCode, type Merchant, type PayoutBook } from '../../kit';
import type { Account, EmulatorState } from './emulator-state';
import { buildEvent, type EventCause, type EventType } from './events';
import { chargeJson, paymentIntentJson, paymentMethodJson, type StoredCharge, type StoredPaymentIntent, type StoredPaymentMethod } from './payment-intent-model';
import { stripeErrors } from './stripe-errors';
import { newClientSecret, newEndToEndId, newId, newPixToken } from './stripe-ids';
import { testCard } from './test-payment-methods';
import type { StoredCardPaymentMethod } from './payment-methods';
import type { BoletoBilling } from './boleto-params';
import { newBoleto } from '../../kit';
import { transferAmount, type TransferData } from './destination-charges';

export interface Fees {
  /** Pix fee in basis points of the amount (emulator default 119 = 1.19 %). */
  pixBps: number;
  /** Card fee: basis points plus a fixed amount in centavos (emulator default 3.99 % + R$ 0.39). */
  cardBps: number;
  cardFixed: number;
}

export interface LifecycleOptions {
  merchant: Merchant;
  /** Host of the payload URL inside BR Codes, e.g. `pix.stripe-emulator.local`. */
  payloadHost: string;
  /** Base URL of the QR images and the hosted instructions page (the control port). */
  publicBase: () => string;
  fees: Fees;
}

export interface CreateIntentInput {
  amount: number;
  currency: string;
  paymentMethodTypes: string[];
  description: string | null;
  metadata: Record<string, string>;
  confirm: boolean;
  pixExpiresAfterSeconds: number;
  boletoExpiresAfterDays: number;
  installments: number | null;
  /** `payment_method_data[type]` with its billing details, or `payment_method=pm_…`. */
  paymentMethodData?: { type: 'pix'; name: string | null; email: string | null } | { type: 'boleto'; name: string; email: string; boleto: BoletoBilling };
  paymentMethodId?: string;
  /** A destination charge (destination-charges.ts), checked by the route. */
  transferData?: TransferData | null;
  applicationFeeAmount?: number | null;
}

const CANCELABLE = new Set(['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action', 'processing']);

const feeOf = (amount: number, bps: number, fixed = 0) => Math.floor((amount * bps + 5_000) / 10_000) + fixed;

export class PaymentIntentLifecycle {
  constructor(
    private readonly state: EmulatorState,
    private readonly options: LifecycleOptions,
    private readonly emit: (accountId: string, event: ReturnType<typeof buildEvent>) => void,
    /** The accounts' balances (payouts.ts), which a payment succeeded fills. */
    private readonly balance?: Pick<PayoutBook<unknown>, 'credit'>,
  ) {}

  private event(pi: StoredPaymentIntent, type: EventType, cause: EventCause, object?: unknown): void {
    this.emit(pi.accountId, buildEvent(type, object ?? paymentIntentJson(pi), pi.livemode, this.state.nowSeconds(), cause));
  }

  create(account: Account, input: CreateIntentInput, cause: EventCause): StoredPaymentIntent {
    const id = newId('pi');
    const paymentMethod = this.paymentMethodFor(account, input);
    const pi: StoredPaymentIntent = {
      id,
      accountId: account.id,
      livemode: account.livemode,
      clientSecret: newClientSecret(id),
      amount: input.amount,
      currency: input.currency,
      created: this.state.nowSeconds(),
      description: input.description,
      metadata: input.metadata,
      paymentMethodTypes: input.paymentMethodTypes,
      pixExpiresAfterSeconds: input.pixExpiresAfterSeconds,
      boletoExpiresAfterDays: input.boletoExpiresAfterDays,
      boletoDetails: null,
      installments: input.installments,
      status: paymentMethod ? 'requires_confirmation' : 'requires_payment_method',
      paymentMethod,
      pixQrCode: null,
      lastPaymentError: null,
      latestCharge: null,
      amountReceived: 0,
      canceledAt: null,
      cancellationReason: null,
      transferData: input.transferData ?? null,
      applicationFeeAmount: input.applicationFeeAmount ?? null,
    };
    this.state.addIntent(pi);
    this.event(pi, 'payment_intent.created', cause);
    if (input.confirm && paymentMethod) this.confirm(pi, cause);
    return pi;
  }

  private paymentMethodFor(account: Account, input: CreateIntentInput): StoredPaymentMethod | null {
    const created = this.state.nowSeconds();
    if (input.paymentMethodData?.type === 'boleto') {
      const { name, email, boleto } = input.paymentMethodData;
      return { id: newId('pm'), type: 'boleto', created, billingDetails: { name, email, address: boleto.address }, taxId: boleto.taxId };
    }
    if (input.paymentMethodData) {
      const { type, name, email } = input.paymentMethodData;
      return { id: newId('pm'), type, created, billingDetails: { name, email } };
    }
    if (!input.paymentMethodId) return null;
    // A PaymentMethod this account created from card fields (payment-methods.ts); another account's is unknown here.
    const own = this.state.findPaymentMethod(account.id, input.paymentMethodId);
    const card = own || account.livemode ? undefined : testCard(input.paymentMethodId);
    if (!own && !card) throw stripeErrors.paymentMethodNotFound(input.paymentMethodId);
    if (!input.paymentMethodTypes.includes('card')) {
      throw stripeErrors.invalidValue('payment_method', `The PaymentMethod provided (card) is not allowed for this PaymentIntent. Please attach a PaymentMethod of one of the following types: ${input.paymentMethodTypes.join(', ')}.`);
    }
    if (own) return own;
    if (!card) throw stripeErrors.paymentMethodNotFound(input.paymentMethodId);
    return { id: input.paymentMethodId, type: 'card', created, billingDetails: { name: null, email: null }, card: { brand: card.brand, last4: card.last4, country: card.country, funding: card.funding, exp_month: 12, exp_year: 2034 } };
  }

  private confirm(pi: StoredPaymentIntent, cause: EventCause): void {
    const pm = pi.paymentMethod;
    if (!pm) throw new Error(`confirming ${pi.id} without a payment method`);
    if (pm.type === 'pix') {
      const token = newPixToken();
      const base = this.options.publicBase();
      pi.status = 'requires_action';
      pi.pixToken = token;
      pi.pixQrCode = {
        data: dynamicBrCode(`${this.options.payloadHost}/qr/v2/${token}`, this.options.merchant),
        expires_at: this.state.nowSeconds() + pi.pixExpiresAfterSeconds,
        hosted_instructions_url: `${base}/pix/instructions/${token}`,
        image_url_png: `${base}/qr/pix/${token}.png`,
        image_url_svg: `${base}/qr/pix/${token}.svg`,
      };
      this.event(pi, 'payment_intent.requires_action', cause);
      return;
    }
    if (pm.type === 'boleto') {
      this.showBoleto(pi);
      this.event(pi, 'payment_intent.requires_action', cause);
      return;
    }
    const decline = testCard(pm.id)?.decline ?? (pm as Partial<StoredCardPaymentMethod>).decline;
    if (!decline) {
      this.succeed(pi, pm, cause);
      return;
    }
    const charge: StoredCharge = { id: newId('ch'), amount: pi.amount, created: this.state.nowSeconds(), status: 'failed', failure: decline, paymentMethod: pm };
    pi.latestCharge = charge;
    pi.status = 'requires_payment_method';
    pi.lastPaymentError = { type: 'card_error', code: decline.code, ...(decline.declineCode ? { decline_code: decline.declineCode } : {}), message: decline.message, charge: charge.id };
    this.event(pi, 'charge.failed', cause, chargeJson(pi, charge, false));
    this.event(pi, 'payment_intent.payment_failed', cause);
    throw stripeErrors.cardDeclined({
      code: decline.code,
      ...(decline.declineCode ? { declineCode: decline.declineCode } : {}),
      message: decline.message,
      charge: charge.id,
      paymentIntent: paymentIntentJson(pi),
      paymentMethod: paymentMethodJson(pm, pi.livemode),
    });
  }

  private succeed(pi: StoredPaymentIntent, pm: StoredPaymentMethod, cause: EventCause): void {
    const now = this.state.nowSeconds();
    const fees = this.options.fees;
    const fee = pm.type === 'pix' ? feeOf(pi.amount, fees.pixBps) : feeOf(pi.amount, fees.cardBps, fees.cardFixed);
    const charge: StoredCharge = {
      id: newId('ch'),
      amount: pi.amount,
      created: now,
      status: 'succeeded',
      paymentMethod: pm,
      ...(pm.type === 'pix' ? { bankTransactionId: newEndToEndId(this.state.now()) } : {}),
      balanceTransaction: { id: newId('txn'), amount: pi.amount, fee, created: now, availableOn: now + 2 * 86_400 },
    };
    pi.latestCharge = charge;
    pi.status = 'succeeded';
    pi.pixQrCode = null;
    pi.boletoDetails = null;
    pi.amountReceived = pi.amount;
    // Net of the fee into the balance (available at once here; Stripe holds it as pending for days).
    // A destination charge sends its part to the connected account; the platform pays the fee.
    const part = pi.transferData ? transferAmount(pi.amount, pi.transferData, pi.applicationFeeAmount ?? null) : 0;
    if (pi.transferData && part > 0) {
      charge.transfer = { id: newId('tr'), destination: pi.transferData.destination, amount: part, reversed: 0 };
      this.balance?.credit(pi.transferData.destination, part);
    }
    this.balance?.credit(pi.accountId, pi.amount - fee - part);
    this.event(pi, 'charge.succeeded', cause, chargeJson(pi, charge, false));
    this.event(pi, 'payment_intent.succeeded', cause);
  }

  /**
   * A voucher due `expires_after_days` after today (São Paulo, UTC−03:00 all year), expiring at
   * the end of that day there, with a linha digitável whose check digits are right.
   */
  private showBoleto(pi: StoredPaymentIntent): void {
    const local = new Date(this.state.now().getTime() - 3 * 3_600_000);
    local.setUTCDate(local.getUTCDate() + pi.boletoExpiresAfterDays);
    const dueDate = local.toISOString().slice(0, 10);
    const token = newPixToken();
    const base = this.options.publicBase();
    pi.status = 'requires_action';
    pi.boletoToken = token;
    pi.boletoDetails = {
      number: newBoleto(pi.amount, dueDate).digitableLine,
      hosted_voucher_url: `${base}/boleto/voucher/${token}`,
      pdf: `${base}/boleto/voucher/${token}/pdf`,
      expires_at: Math.floor(Date.parse(`${dueDate}T23:59:59-03:00`) / 1000),
    };
  }

  /** The sandbox payer pays the Pix code or boleto on show. The caller checked `requires_action`. */
  payPix(pi: StoredPaymentIntent): void {
    if (!pi.paymentMethod) throw new Error(`paying ${pi.id} without a payment method`);
    this.succeed(pi, pi.paymentMethod, {});
  }

  /** A Pix code past `expires_at` can no longer be paid (lazily applied on every read). */
  refresh(pi: StoredPaymentIntent): StoredPaymentIntent {
    if (pi.status === 'requires_action' && pi.pixQrCode && this.state.nowSeconds() >= pi.pixQrCode.expires_at) this.expire(pi);
    if (pi.status === 'requires_action' && pi.boletoDetails && this.state.nowSeconds() >= pi.boletoDetails.expires_at) this.expire(pi);
    return pi;
  }

  expire(pi: StoredPaymentIntent): void {
    pi.status = 'requires_payment_method';
    pi.pixQrCode = null;
    pi.boletoDetails = null;
    pi.lastPaymentError = {
      type: 'invalid_request_error',
      code: 'payment_intent_payment_attempt_expired',
      message: 'The latest payment attempt of this PaymentIntent has expired. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
    };
    this.event(pi, 'payment_intent.payment_failed', {});
  }

  /** Expires every due Pix (a timer calls it so expiry webhooks go out without a read). */
  expireDue(): void {
    for (const pi of this.state.allIntents()) this.refresh(pi);
  }

  cancel(pi: StoredPaymentIntent, reason: string | null, cause: EventCause): void {
    this.refresh(pi);
    if (!CANCELABLE.has(pi.status)) {
      throw stripeErrors.unexpectedState(
        `You cannot cancel this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
        paymentIntentJson(pi),
      );
    }
    pi.status = 'canceled';
    pi.pixQrCode = null;
    pi.boletoDetails = null;
    pi.canceledAt = this.state.nowSeconds();
    pi.cancellationReason = reason;
    this.event(pi, 'payment_intent.canceled', cause);
  }
}
