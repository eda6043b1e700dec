/**
 * Stripe's own record of charges over a period (provider-charge-listing.ts, issue 18):
 * `GET /v1/payment_intents?created[gte]&created[lt]&limit&starting_after&expand[]=data.latest_charge.balance_transaction`
 * (docs.stripe.com/api/payment_intents/list), answered `{object:"list", data, has_more}`, at most
 * 100 a page, newest first.
 *
 * What the list tells: the PaymentIntent id (our providerPaymentId), status, amount, method,
 * `created` (Unix seconds), our `metadata.orquestra_payment_id` (set at creation) as reference, and
 * through the expanded latest Charge its `amount_refunded` and its balance transaction's **fee**
 * (only once the charge succeeded: `null` before). Expanding is one request per page, no more.
 *
 * The cursor is the last intent's id as `starting_after`, JSON-encoded: Stripe's own cursor, so
 * intents created meanwhile (newer, at the top) never shift the pages.
 */
import { assertCents } from '@orquestra/platform';
import type { HttpAnswer } from '../http/provider-http';
import { ProviderError, type ChargeMethod } from '../provider-adapter';
import type { ChargePage, ChargePeriod, ListedCharge } from '../provider-charge-listing';
import type { FormValue } from './stripe.form-encoding';
import { providerErrorFor } from './stripe.errors';
import { mapIntentStatus, type StripeCharge, type StripePaymentIntent } from './stripe.transformers';

/** Stripe's largest page. */
export const STRIPE_MAX_LIST_LIMIT = 100;

/** The metadata key createCharge puts our payment id under (stripe.transformers.ts metadataFor). */
const PAYMENT_ID_KEY = 'orquestra_payment_id';

export type ListedIntent = StripePaymentIntent & { payment_method_types?: string[] };

export interface StripeIntentList {
  object?: 'list';
  data?: ListedIntent[];
  has_more?: boolean;
}

export type StripeGet = (path: string, params: Record<string, FormValue>) => Promise<HttpAnswer>;

function methodOf(types: string[] | undefined): ChargeMethod | null {
  const type = types?.[0];
  return type === 'pix' || type === 'boleto' || type === 'card' ? type : null;
}

/** One PaymentIntent of the list (its latest charge expanded with the balance transaction). */
export function listedChargeOfIntent(pi: ListedIntent): ListedCharge {
  assertCents(pi.amount, 'amount');
  const charge: StripeCharge & { amount_refunded?: number } | undefined = typeof pi.latest_charge === 'object' && pi.latest_charge !== null ? pi.latest_charge : undefined;
  const refunded = charge?.amount_refunded ?? 0;
  assertCents(refunded, 'amount_refunded');
  const txn = typeof charge?.balance_transaction === 'object' && charge.balance_transaction !== null ? charge.balance_transaction : undefined;
  const fee = charge?.status === 'succeeded' && txn && Number.isSafeInteger(txn.fee) ? txn.fee : null;
  return {
    providerPaymentId: pi.id,
    status: mapIntentStatus(pi).status,
    amount: pi.amount,
    amountRefunded: refunded,
    fee,
    method: methodOf(pi.payment_method_types),
    createdAt: new Date(pi.created * 1000),
    reference: pi.metadata?.[PAYMENT_ID_KEY] ?? null,
  };
}

function startingAfterOf(cursor: string | null): string | undefined {
  if (cursor === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(cursor);
  } catch {
    parsed = undefined;
  }
  const after = (parsed as { starting_after?: unknown } | undefined)?.starting_after;
  if (typeof after !== 'string' || !/^pi_[A-Za-z0-9]+$/.test(after)) {
    throw new ProviderError('rejected', 'provider_rejected', 'stripe list charges: cursor is not one this adapter gave');
  }
  return after;
}

export async function listStripeCharges(get: StripeGet, period: ChargePeriod, cursor: string | null, pageSize = STRIPE_MAX_LIST_LIMIT): Promise<ChargePage> {
  const after = startingAfterOf(cursor);
  const limit = Math.min(Math.max(1, Math.floor(pageSize)), STRIPE_MAX_LIST_LIMIT);
  // `created` is in whole seconds: the seconds touching [from, to) are asked for and the exact
  // bounds applied here (a period on whole seconds needs no trimming).
  const params: Record<string, FormValue> = {
    created: { gte: Math.floor(period.from.getTime() / 1000), lt: Math.ceil(period.to.getTime() / 1000) },
    limit,
    expand: ['data.latest_charge.balance_transaction'],
    ...(after ? { starting_after: after } : {}),
  };
  const answer = await get('/v1/payment_intents', params);
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list payment intents');
  const body = answer.body as StripeIntentList;
  const data = body.data ?? [];
  const charges = data.map(listedChargeOfIntent).filter((c) => c.createdAt.getTime() >= period.from.getTime() && c.createdAt.getTime() < period.to.getTime());
  const last = data[data.length - 1];
  return { charges, next: body.has_more && last ? JSON.stringify({ starting_after: last.id }) : null };
}
