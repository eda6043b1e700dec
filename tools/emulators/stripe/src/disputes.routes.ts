/**
 * `/v1/disputes`: retrieve, list (`payment_intent`, `charge`, `limit`) and update (`evidence[…]`,
 * `metadata`, `submit`), behind the API-key check and the idempotency layer. Behaviour in disputes.ts.
 */
import { Router } from 'express';
import { accountOf } from './auth';
import { EVIDENCE_FIELDS, disputeJson, type DisputeBook } from './disputes';
import { booleanParam, integerParam, isPlainObject, metadataParam, objectParam, queryString, rejectUnknown, stringParam } from './form-params';
import { stripeErrors } from './stripe-errors';

export function disputeRoutes(book: DisputeBook): Router {
  const router = Router();

  router.get('/disputes/:id', (req, res) => {
    res.status(200).json(disputeJson(book.get(accountOf(res).id, req.params['id'] ?? '')));
  });

  router.get('/disputes', (req, res) => {
    const limitText = queryString(req, 'limit');
    const limit = limitText === undefined ? 10 : integerParam(limitText, 'limit') ?? 10;
    if (limit < 1 || limit > 100) throw stripeErrors.invalidValue('limit', 'This value must be between 1 and 100.');
    const paymentIntentId = queryString(req, 'payment_intent');
    const chargeId = queryString(req, 'charge');
    const all = book.list(accountOf(res).id, { ...(paymentIntentId ? { paymentIntentId } : {}), ...(chargeId ? { chargeId } : {}) });
    res.status(200).json({ object: 'list', data: all.slice(0, limit).map(disputeJson), has_more: all.length > limit, url: '/v1/disputes' });
  });

  router.post('/disputes/:id', (req, res) => {
    const dispute = book.get(accountOf(res).id, req.params['id'] ?? '');
    const body = objectParam(req.body, '');
    rejectUnknown(body, ['evidence', 'metadata', 'submit', 'expand']);
    const evidence: Record<string, string> = {};
    if (body['evidence'] !== undefined) {
      if (!isPlainObject(body['evidence'])) throw stripeErrors.invalidValue('evidence', 'Invalid hash');
      const given = objectParam(body['evidence'], 'evidence');
      rejectUnknown(given, EVIDENCE_FIELDS, 'evidence');
      for (const field of EVIDENCE_FIELDS) {
        const value = stringParam(given[field], `evidence[${field}]`);
        if (value === undefined) continue;
        if (field === 'uncategorized_text' && value.length > 20_000) throw stripeErrors.invalidValue('evidence[uncategorized_text]', 'Text must be at most 20000 characters.');
        evidence[field] = value;
      }
    }
    const submit = booleanParam(body['submit'], 'submit') ?? true;
    book.update(dispute, { evidence, metadata: metadataParam(body['metadata']), submit });
    res.status(200).json(disputeJson(dispute));
  });

  return router;
}
