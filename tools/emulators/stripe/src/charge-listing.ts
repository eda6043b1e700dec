/**
 * Reconciliation support (issue 18): `GET /v1/payment_intents` by creation period with Stripe's
 * cursor pagination, and the control routes that make a charge "in the dashboard" (no metadata of
 * the integrator's) or change a PaymentIntent's status behind the integrator's back (no event, so
 * no webhook).
 *
 * Stripe's list (docs.stripe.com/api/payment_intents/list): `created` as an exact Unix time or
 * `created[gt|gte|lt|lte]`, `limit` 1..100 (default 10), `starting_after` / `ending_before` (an
 * object id of the previous page), `expand[]=data.…`; answer `{object:"list", data, has_more,
 * url}`, newest first.
 */
import type { Request } from 'express';
import { Router } from 'express';
import { z } from 'zod';
import { sendControlError as fail, type Logger } from '../../kit';
import type { EmulatorState } from './emulator-state';
import { expandList, integerParam, queryString } from './form-params';
import type { PaymentIntentLifecycle } from './payment-intent-lifecycle';
import { checkExpand, type StoredPaymentIntent } from './payment-intent-model';
import type { RefundBook } from './refunds';
import { stripeErrors } from './stripe-errors';

/** A `created` bound: `created[gte]=…` (the default query parser keeps the brackets in the key) or a nested object. */
function createdBound(req: Request, op: 'gt' | 'gte' | 'lt' | 'lte'): number | undefined {
  const query = req.query as Record<string, unknown>;
  const nested = query['created'];
  const raw = query[`created[${op}]`] ?? (typeof nested === 'object' && nested !== null ? (nested as Record<string, unknown>)[op] : undefined);
  if (raw === undefined) return undefined;
  return integerParam(Array.isArray(raw) ? raw[0] : raw, `created[${op}]`) ?? undefined;
}

export interface IntentPage {
  data: StoredPaymentIntent[];
  hasMore: boolean;
  /** The paths to expand on each item (`data.` removed). */
  expand: string[];
}

/** One page of the account's intents, newest first (ties: the later created first). */
export function listIntentPage(state: EmulatorState, accountId: string, req: Request, refresh: (pi: StoredPaymentIntent) => StoredPaymentIntent): IntentPage {
  const limitText = queryString(req, 'limit');
  const limit = limitText === undefined ? 10 : (integerParam(limitText, 'limit') ?? 10);
  if (limit < 1 || limit > 100) throw stripeErrors.invalidValue('limit', 'This value must be between 1 and 100.');
  const expand = expandList(req).map((path) => {
    if (!path.startsWith('data.')) throw stripeErrors.invalidValue('expand', `This property cannot be expanded (${path}). List items are expanded with data.…`);
    return path.slice('data.'.length);
  });
  checkExpand(expand);
  const exact = typeof (req.query as Record<string, unknown>)['created'] === 'string' ? integerParam(queryString(req, 'created'), 'created') : undefined;
  const [gt, gte, lt, lte] = (['gt', 'gte', 'lt', 'lte'] as const).map((op) => createdBound(req, op));
  let all = state
    .listIntents(accountId)
    .filter((pi) => (exact === undefined || exact === null || pi.created === exact) && (gt === undefined || pi.created > gt) && (gte === undefined || pi.created >= gte))
    .filter((pi) => (lt === undefined || pi.created < lt) && (lte === undefined || pi.created <= lte))
    // A dashboard intent may be back-dated: the list is by `created` (stable: insertion order kept on ties).
    .sort((a, b) => b.created - a.created);
  const after = queryString(req, 'starting_after');
  const before = queryString(req, 'ending_before');
  if (after) {
    const index = all.findIndex((pi) => pi.id === after);
    if (index < 0) throw stripeErrors.resourceMissing('payment_intent', after, 'starting_after');
    all = all.slice(index + 1);
  } else if (before) {
    const index = all.findIndex((pi) => pi.id === before);
    if (index < 0) throw stripeErrors.resourceMissing('payment_intent', before, 'ending_before');
    all = all.slice(Math.max(0, index - limit), index);
    return { data: all.map(refresh), hasMore: index - limit > 0, expand };
  }
  return { data: all.slice(0, limit).map(refresh), hasMore: all.length > limit, expand };
}

// --- control ------------------------------------------------------------------------------------

const STATUSES = ['requires_action', 'requires_payment_method', 'succeeded', 'canceled', 'refunded'] as const;
type QuietStatus = (typeof STATUSES)[number];

const dashboardChargeSchema = z
  .object({
    account: z.string().min(1),
    amount: z.number().int().min(50).max(99_999_999),
    method: z.enum(['pix', 'card']).default('pix'),
    status: z.enum(STATUSES).default('succeeded'),
    created_at: z.string().datetime({ offset: true }).optional(),
  })
  .strict();

const statusSchema = z.object({ status: z.enum(STATUSES) }).strict();

/** Runs `work` with every event it causes dropped: no event is stored or delivered. */
export type Quietly = <T>(work: () => T) => T;

export interface DashboardDeps {
  state: EmulatorState;
  lifecycle: PaymentIntentLifecycle;
  refunds: RefundBook;
  quietly: Quietly;
  logger: Logger;
}

/**
 * Moves the intent as Stripe would have, its events dropped: requires_action → succeeded (paid;
 * Charge and balance transaction with the fee) | requires_payment_method (the attempt expired) |
 * canceled; succeeded → refunded (what is left refunded by a refund that succeeds at once; the
 * intent stays `succeeded`, its charge `amount_refunded`). Anything else: why not.
 */
function setStatus(deps: DashboardDeps, pi: StoredPaymentIntent, status: QuietStatus): string | undefined {
  const { lifecycle, refunds } = deps;
  lifecycle.refresh(pi);
  if (status === pi.status) return undefined;
  const open = pi.status === 'requires_action';
  if (open && status === 'succeeded') return void lifecycle.payPix(pi);
  if (open && status === 'requires_payment_method') return void lifecycle.expire(pi);
  if ((open || pi.status === 'requires_payment_method') && status === 'canceled') return void lifecycle.cancel(pi, null, {});
  if (pi.status === 'succeeded' && status === 'refunded') {
    const charge = pi.latestCharge;
    if (!charge || (charge.amountRefunded ?? 0) >= charge.amount) return undefined;
    const refund = refunds.create(pi, { reason: null, metadata: {} }, {});
    refunds.settle(refund, 'succeeded');
    return undefined;
  }
  return `a ${pi.status} PaymentIntent cannot become ${status} here`;
}

export function dashboardControlRoutes(deps: DashboardDeps): Router {
  const { state, lifecycle, quietly, logger } = deps;
  const routes = Router();

  routes.post('/__control/dashboard-charges', (req, res) => {
    const parsed = dashboardChargeSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const account = state.accountForKey(parsed.data.account);
    if (!account) return fail(res, 404, 'account_not_found', 'no sandbox account with this secret key');
    const { amount, method, status } = parsed.data;
    let problem: string | undefined;
    const pi = quietly(() => {
      // What the dashboard makes: no metadata, no description of ours; a card with Stripe's test card.
      const created = lifecycle.create(
        account,
        {
          amount,
          currency: 'brl',
          paymentMethodTypes: [method],
          description: 'Pagamento criado no Dashboard',
          metadata: {},
          confirm: true,
          pixExpiresAfterSeconds: 86_400,
          boletoExpiresAfterDays: 3,
          installments: null,
          ...(method === 'pix' ? { paymentMethodData: { type: 'pix' as const, name: 'Cliente do Dashboard', email: null } } : { paymentMethodId: 'pm_card_visa' }),
        },
        {},
      );
      if (parsed.data.created_at) {
        const at = Math.floor(Date.parse(parsed.data.created_at) / 1000);
        created.created = at;
        if (created.paymentMethod) created.paymentMethod.created = at;
        if (created.latestCharge) created.latestCharge.created = at;
      }
      problem = setStatus(deps, created, status);
      return created;
    });
    if (problem) return fail(res, 409, 'status_refused', problem);
    logger.info({ account: account.id, paymentIntent: pi.id, status: pi.status }, 'dashboard charge created');
    res.status(201).json({ id: pi.id, amount: pi.amount, payment_method_types: pi.paymentMethodTypes, status: pi.status, amount_refunded: pi.latestCharge?.amountRefunded ?? 0, created: pi.created });
  });

  routes.post('/__control/charges/:id/status', (req, res) => {
    const parsed = statusSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const pi = state.findIntent(req.params['id'] ?? '');
    if (!pi) return fail(res, 404, 'charge_not_found', `no PaymentIntent ${req.params['id'] ?? ''}`);
    const problem = quietly(() => setStatus(deps, pi, parsed.data.status));
    if (problem) return fail(res, 409, 'status_refused', problem);
    logger.info({ account: pi.accountId, paymentIntent: pi.id, status: pi.status }, 'PaymentIntent status set behind the integrator');
    res.status(200).json({ id: pi.id, status: pi.status, amount_refunded: pi.latestCharge?.amountRefunded ?? 0, webhooks_scheduled: 0 });
  });

  return routes;
}
