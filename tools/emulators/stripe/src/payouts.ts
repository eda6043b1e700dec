/**
 * The account's balance and payouts to its bank account (docs.stripe.com/api/balance,
 * docs.stripe.com/api/payouts; psp-apis.md §6), on the kit's PayoutBook:
 * - `GET /v1/balance` → `{object: "balance", available: [{amount, currency: "brl", source_types}],
 *   pending: [...], livemode}`: payments succeeded add their amount net of the emulator's fee,
 *   refunds take theirs, payouts theirs (given back when one fails);
 * - `POST /v1/payouts` `amount, currency=brl, description?, metadata?, statement_descriptor?,
 *   method?=standard` → a payout `pending` to the account's bank account (`destination: "ba_…"`),
 *   `in_transit`-less here, then `paid` or `failed` (`failure_code`, `failure_message`) with
 *   `payout.paid` / `payout.failed` (and `payout.created` at once). More than the available
 *   balance → 400 `balance_insufficient`. Idempotent through the `Idempotency-Key` layer.
 * - `GET /v1/payouts/:id`, `GET /v1/payouts?limit&starting_after&status` (newest first).
 * - With `Stripe-Account: acct_…` (connect.ts) all of these act on that connected account: its
 *   balance (destination charges' parts), its payouts to its own bank account (refused with
 *   `payouts_not_allowed` until Stripe enabled its payouts); its payout events go to the platform's
 *   Connect endpoints with `account`.
 */
import { Router, type Response } from 'express';
import { InsufficientBalanceError, PayoutBook, type BookTransfer } from '../../kit';
import { accountOf } from './auth';
import type { EmulatorState } from './emulator-state';
import { buildEvent, type EventCause, type EventType, type StripeEvent } from './events';
import { integerParam, metadataParam, objectParam, queryString, rejectUnknown, stringParam } from './form-params';
import { causeOf } from './payment-intents.routes';
import { StripeApiError, stripeErrors } from './stripe-errors';
import { newId } from './stripe-ids';

export interface StripePayoutData {
  livemode: boolean;
  created: number;
  arrivalDate: number;
  description: string | null;
  statementDescriptor: string | null;
  metadata: Record<string, string>;
  destination: string;
  cause: EventCause;
}

export type StripePayoutBook = PayoutBook<StripePayoutData>;

const STATUS = { processing: 'pending', paid: 'paid', failed: 'failed' } as const;

export function payoutJson(payout: BookTransfer<StripePayoutData>) {
  const { data } = payout;
  return {
    id: payout.id,
    object: 'payout',
    amount: payout.amount,
    arrival_date: data.arrivalDate,
    automatic: false,
    balance_transaction: null,
    created: data.created,
    currency: 'brl',
    description: data.description,
    destination: data.destination,
    failure_balance_transaction: null,
    failure_code: payout.status === 'failed' ? 'could_not_process' : null,
    failure_message: payout.status === 'failed' ? (payout.failureReason ?? null) : null,
    livemode: data.livemode,
    metadata: data.metadata,
    method: 'standard',
    source_type: 'card',
    statement_descriptor: data.statementDescriptor,
    status: STATUS[payout.status],
    type: 'bank_account',
  };
}

/** Each account's one bank account, where its payouts go. */
const bankAccountOf = (accountId: string) => `ba_${accountId.replace(/^acct_/, '').slice(0, 24)}`;

/** The book, with the events a payout's changes emit. */
export function createPayoutBook(state: EmulatorState, emit: (accountId: string, event: StripeEvent) => void): StripePayoutBook {
  const event = (payout: BookTransfer<StripePayoutData>, type: EventType, cause: EventCause = {}) =>
    emit(payout.owner, buildEvent(type, payoutJson(payout), payout.data.livemode, state.nowSeconds(), cause));
  return new PayoutBook<StripePayoutData>(state.now, (payout) => event(payout, payout.status === 'paid' ? 'payout.paid' : 'payout.failed'));
}

/** The account acted on: the connected one named by `Stripe-Account` (connect.ts), else the caller. */
const ownerOf = (res: Response): string => (res.locals['connectedAccount'] as string | undefined) ?? accountOf(res).id;

/** `payoutsEnabled` says whether a connected account may pay out (absent: no connected accounts). */
export function payoutRoutes(state: EmulatorState, book: StripePayoutBook, emit: (accountId: string, event: StripeEvent) => void, payoutsEnabled: (connectedId: string) => boolean = () => false): Router {
  const router = Router();
  const list = (owner: string) =>
    book
      .list(owner)
      .sort((a, b) => b.data.created - a.data.created || (a.id < b.id ? 1 : -1))
      .map(payoutJson);

  router.get('/balance', (_req, res) => {
    const account = accountOf(res);
    // `Stripe-Account: acct_…` (connect.ts): a connected account's own balance.
    const { available, pending } = book.balance(ownerOf(res));
    res.status(200).json({
      object: 'balance',
      available: [{ amount: available, currency: 'brl', source_types: { card: available } }],
      pending: [{ amount: pending, currency: 'brl', source_types: { card: pending } }],
      livemode: account.livemode,
    });
  });

  router.post('/payouts', (req, res) => {
    const account = accountOf(res);
    // `Stripe-Account: acct_…` (connect.ts): the connected account pays out its own balance.
    const owner = ownerOf(res);
    if (owner !== account.id && !payoutsEnabled(owner)) {
      throw new StripeApiError(400, { type: 'invalid_request_error', code: 'payouts_not_allowed', message: 'Payouts have been disabled on this account.' });
    }
    const body = objectParam(req.body, '');
    rejectUnknown(body, ['amount', 'currency', 'description', 'metadata', 'statement_descriptor', 'method', 'destination', 'expand']);
    const amount = integerParam(body['amount'], 'amount');
    if (amount === undefined) throw stripeErrors.parameterMissing('amount');
    if (amount < 1) throw stripeErrors.invalidValue('amount', 'Invalid positive integer');
    const currency = stringParam(body['currency'], 'currency');
    if (!currency) throw stripeErrors.parameterMissing('currency');
    if (currency !== 'brl') throw stripeErrors.invalidValue('currency', `Payouts to this account's bank account must be in brl, not ${currency}.`);
    const method = stringParam(body['method'], 'method') ?? 'standard';
    if (method !== 'standard') throw stripeErrors.invalidValue('method', 'Instant payouts are not available for this account.');
    const destination = stringParam(body['destination'], 'destination') ?? bankAccountOf(owner);
    if (destination !== bankAccountOf(owner)) throw stripeErrors.resourceMissing('external account', destination, 'destination');
    const now = state.nowSeconds();
    const data: StripePayoutData = {
      livemode: account.livemode,
      created: now,
      arrivalDate: now + 86_400,
      description: stringParam(body['description'], 'description') ?? null,
      statementDescriptor: stringParam(body['statement_descriptor'], 'statement_descriptor') ?? null,
      metadata: metadataParam(body['metadata']),
      destination,
      cause: causeOf(res),
    };
    let payout: BookTransfer<StripePayoutData>;
    try {
      const id = newId('po');
      payout = book.create(owner, id, id, amount, 0, data).transfer;
    } catch (err) {
      if (!(err instanceof InsufficientBalanceError)) throw err;
      throw new StripeApiError(
        400,
        {
          type: 'invalid_request_error',
          code: 'balance_insufficient',
          message: 'You have insufficient funds in your Stripe account for this transfer. Your card balance is too low.',
          doc_url: 'https://stripe.com/docs/error-codes/balance-insufficient',
        },
        true,
      );
    }
    emit(owner, buildEvent('payout.created', payoutJson(payout), account.livemode, now, data.cause));
    const withheld = book.takeWithheld(owner);
    if (withheld) {
      // The payout exists and an idempotent repeat gets it back, as at Stripe; this answer never arrives.
      keepIdempotentAnswer(res, 200, payoutJson(payout));
      return book.withhold(res, withheld);
    }
    res.status(200).json(payoutJson(payout));
  });

  router.get('/payouts/:id', (req, res) => {
    const id = req.params['id'] ?? '';
    const payout = book.get(ownerOf(res), id);
    if (!payout) throw stripeErrors.resourceMissing('payout', id, 'id');
    res.status(200).json(payoutJson(payout));
  });

  router.get('/payouts', (req, res) => {
    const limitText = queryString(req, 'limit');
    const limit = limitText === undefined ? 10 : (integerParam(limitText, 'limit') ?? 10);
    if (limit < 1 || limit > 100) throw stripeErrors.invalidValue('limit', 'This value must be between 1 and 100.');
    const status = queryString(req, 'status');
    const after = queryString(req, 'starting_after');
    let all = list(ownerOf(res)).filter((p) => !status || p.status === status);
    if (after) {
      const index = all.findIndex((p) => p.id === after);
      if (index < 0) throw stripeErrors.resourceMissing('payout', after, 'starting_after');
      all = all.slice(index + 1);
    }
    res.status(200).json({ object: 'list', data: all.slice(0, limit), has_more: all.length > limit, url: '/v1/payouts' });
  });

  return router;
}

/** Records the answer for the request's Idempotency-Key without sending it (idempotency.ts). */
function keepIdempotentAnswer(res: Response, status: number, body: unknown): void {
  const keep = res.locals['keepIdempotentAnswer'] as ((status: number, body: unknown) => void) | undefined;
  keep?.(status, body);
}
