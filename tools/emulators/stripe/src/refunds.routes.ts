/**
 * `/v1/refunds`: create (`payment_intent` or `charge`, `amount?`, `reason?`, `metadata?`,
 * `reverse_transfer?`), retrieve
 * and list (`payment_intent`, `charge`, `limit`), behind the API-key check and the idempotency
 * layer. Behaviour in refunds.ts.
 */
import { Router } from 'express';
import { accountOf } from './auth';
import type { EmulatorState } from './emulator-state';
import { booleanParam, integerParam, metadataParam, objectParam, queryString, rejectUnknown, stringParam } from './form-params';
import { causeOf } from './payment-intents.routes';
import { REFUND_REASONS, refundJson, type RefundBook, type RefundReason } from './refunds';
import { stripeErrors } from './stripe-errors';

export function refundRoutes(state: EmulatorState, book: RefundBook): Router {
  const router = Router();

  router.post('/refunds', (req, res) => {
    const body = objectParam(req.body, '');
    rejectUnknown(body, ['payment_intent', 'charge', 'amount', 'reason', 'metadata', 'expand', 'instructions_email', 'reverse_transfer']);
    const accountId = accountOf(res).id;
    const paymentIntentId = stringParam(body['payment_intent'], 'payment_intent');
    const chargeId = stringParam(body['charge'], 'charge');
    if (!paymentIntentId && !chargeId) throw stripeErrors.parameterMissing('payment_intent');
    let pi;
    if (paymentIntentId) {
      pi = state.findIntent(paymentIntentId);
      if (!pi || pi.accountId !== accountId) throw stripeErrors.resourceMissing('payment_intent', paymentIntentId, 'payment_intent');
    } else {
      pi = [...state.allIntents()].find((i) => i.accountId === accountId && i.latestCharge?.id === chargeId);
      if (!pi) throw stripeErrors.resourceMissing('charge', chargeId ?? '', 'charge');
    }
    const amount = integerParam(body['amount'], 'amount');
    const reason = stringParam(body['reason'], 'reason') ?? null;
    if (reason !== null && !REFUND_REASONS.includes(reason as RefundReason)) {
      throw stripeErrors.invalidValue('reason', 'Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer');
    }
    // A destination charge's part comes back from the connected account only when asked (destination-charges.ts).
    const reverseTransfer = booleanParam(body['reverse_transfer'], 'reverse_transfer') ?? false;
    const refund = book.create(
      pi,
      { ...(amount === undefined ? {} : { amount }), reason: reason as RefundReason | null, metadata: metadataParam(body['metadata']), reverseTransfer },
      causeOf(res),
    );
    res.status(200).json(refundJson(refund));
  });

  router.get('/refunds/:id', (req, res) => {
    res.status(200).json(refundJson(state.getRefund(accountOf(res).id, req.params['id'] ?? '')));
  });

  router.get('/refunds', (req, res) => {
    const limitText = queryString(req, 'limit');
    const limit = limitText === undefined ? 10 : integerParam(limitText, 'limit') ?? 10;
    if (limit < 1 || limit > 100) throw stripeErrors.invalidValue('limit', 'This value must be between 1 and 100.');
    const paymentIntentId = queryString(req, 'payment_intent');
    const chargeId = queryString(req, 'charge');
    const all = state.listRefunds(accountOf(res).id, { ...(paymentIntentId ? { paymentIntentId } : {}), ...(chargeId ? { chargeId } : {}) });
    res.status(200).json({ object: 'list', data: all.slice(0, limit).map(refundJson), has_more: all.length > limit, url: '/v1/refunds' });
  });

  return router;
}
