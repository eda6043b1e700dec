import { AppError } from '@orquestra/platform';
import { Router, type Request } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { requestHash } from '../idempotency/request-hash';
import {
  toCreateSubscriptionRequest,
  toSubscriptionDetailJson,
  toSubscriptionJson,
  toSubscriptionListJson,
} from '../mappers/subscription.mapper';
import {
  CreateSubscriptionSchema,
  SUBSCRIPTION_FIELD_HINTS,
  SubscriptionIdempotencyHeadersSchema,
} from '../schemas/create-subscription.schema';
import { ListSubscriptionsQuerySchema } from '../schemas/list-subscriptions.schema';
import { CHARGE_FIELD_HINTS, ChargeSubscriptionSchema } from '../schemas/charge-subscription.schema';
import { toPaymentJson } from '../mappers/payment.mapper';
import { SubscriptionIdPathSchema } from '../schemas/path-params.schema';
import { pathIdOf } from './path-id';
import { parseOrThrow } from '../validation/zod-issue.mapper';

const subscriptionIdOf = (req: Request): string => pathIdOf(req, SubscriptionIdPathSchema);

/**
 * /v1/subscriptions (§4), checks in the order of the payment routes. Restricted keys may create
 * subscriptions and read the ones they created (a subscription is a recurring Pix charge, what §5
 * lets them do for payments), not cancel or simulate them; the subscriptions service narrows what
 * they see to their own (docs/decisions.md "Subscriptions API").
 */
export function subscriptionsRoutes(context: RouteContext): Router {
  const { clients, authenticate, settings } = context;
  const router = Router();
  const fullKeyOnly = requireFullKey();

  // Creating one asks a provider for the approval QR, so it gets the payment creation deadline.
  router.post('/subscriptions', authenticate, jsonBodyMiddleware(), async (req, res) => {
    const headers = parseOrThrow(
      SubscriptionIdempotencyHeadersSchema,
      { 'Idempotency-Key': req.get('idempotency-key') },
      'header',
      SUBSCRIPTION_FIELD_HINTS,
    );
    const input = parseOrThrow(CreateSubscriptionSchema, req.body, 'body', SUBSCRIPTION_FIELD_HINTS);
    const response = await clients.subscriptions.createSubscription(
      toCreateSubscriptionRequest(input, {
        caller: callerOf(res),
        idempotencyKey: headers['Idempotency-Key'],
        requestHash: requestHash(input),
      }),
      rpcOptions(res, settings.createPaymentDeadlineMs),
    );
    if (!response.subscription) throw new AppError('internal', { message: 'CreateSubscription answered without a subscription' });
    if (response.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res
      .status(201)
      .setHeader('Location', `/v1/subscriptions/${response.subscription.id}`)
      .json(toSubscriptionJson(response.subscription));
  });

  router.get('/subscriptions', authenticate, async (req, res) => {
    const query = parseOrThrow(ListSubscriptionsQuerySchema, req.query, 'query', SUBSCRIPTION_FIELD_HINTS);
    const response = await clients.subscriptions.listSubscriptions(
      {
        caller: callerOf(res),
        limit: query.limit,
        ...(query.status !== undefined ? { status: query.status } : {}),
        ...(query.starting_after !== undefined ? { starting_after: query.starting_after } : {}),
      },
      rpcOptions(res),
    );
    res.json(toSubscriptionListJson(response));
  });

  router.get('/subscriptions/:id', authenticate, async (req, res) => {
    const response = await clients.subscriptions.getSubscription(
      { caller: callerOf(res), subscription_id: subscriptionIdOf(req) },
      rpcOptions(res),
    );
    if (!response.subscription) throw new AppError('not_found', { param: 'id' });
    res.json(toSubscriptionDetailJson(response.subscription));
  });

  // Cancels the recurrence at the provider too, so it gets the payment creation deadline.
  router.post('/subscriptions/:id/cancel', authenticate, fullKeyOnly, async (req, res) => {
    const response = await clients.subscriptions.cancelSubscription(
      { caller: callerOf(res), subscription_id: subscriptionIdOf(req) },
      rpcOptions(res, settings.createPaymentDeadlineMs),
    );
    if (!response.subscription) throw new AppError('not_found', { param: 'id' });
    res.json(toSubscriptionJson(response.subscription));
  });

  // One cycle's charge (a cycle payment). Full keys only, like a refund: it moves money on an
  // authorisation the payer gave once. Sends the charge to the provider: the payment deadline.
  router.post('/subscriptions/:id/charge', authenticate, fullKeyOnly, jsonBodyMiddleware(), async (req, res) => {
    const id = subscriptionIdOf(req);
    const headers = parseOrThrow(
      SubscriptionIdempotencyHeadersSchema,
      { 'Idempotency-Key': req.get('idempotency-key') },
      'header',
      SUBSCRIPTION_FIELD_HINTS,
    );
    const input = parseOrThrow(ChargeSubscriptionSchema, req.body ?? {}, 'body', CHARGE_FIELD_HINTS);
    const response = await clients.subscriptions.chargeSubscription(
      {
        caller: callerOf(res),
        subscription_id: id,
        ...(input.amount !== undefined ? { amount: input.amount } : {}),
        ...(input.due_date !== undefined ? { due_date: input.due_date } : {}),
        idempotency_key: headers['Idempotency-Key'] ?? '',
        // The path is part of the request: one key cannot charge two subscriptions.
        request_hash: requestHash({ subscription_id: id, ...input }),
      },
      rpcOptions(res, settings.createPaymentDeadlineMs),
    );
    if (!response.payment) throw new AppError('internal', { message: 'ChargeSubscription answered without a payment' });
    if (response.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).setHeader('Location', `/v1/payments/${response.payment.id}`).json(toPaymentJson(response.payment));
  });

  // Test mode only; the subscriptions service checks the mode (live → 403 live_mode_forbidden).
  router.post('/subscriptions/:id/simulate', authenticate, fullKeyOnly, async (req, res) => {
    const response = await clients.subscriptions.simulateSubscription(
      { caller: callerOf(res), subscription_id: subscriptionIdOf(req) },
      rpcOptions(res, settings.createPaymentDeadlineMs),
    );
    if (!response.subscription) throw new AppError('not_found', { param: 'id' });
    res.json(toSubscriptionJson(response.subscription));
  });

  return router;
}
