import { AppError } from '@orquestra/platform';
import { Router, type Request } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { clientIp } from '../http/client-ip';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { requestHash } from '../idempotency/request-hash';
import { toCreatePaymentRequest } from '../mappers/create-payment-request.mapper';
import { toPaymentDetailJson, toPaymentJson, toPaymentListJson, toRefundJson } from '../mappers/payment.mapper';
import { CreatePaymentSchema, IdempotencyHeadersSchema } from '../schemas/create-payment.schema';
import { ListPaymentsQuerySchema } from '../schemas/list-payments.schema';
import { PaymentIdSchema } from '../schemas/path-params.schema';
import { RefundIdempotencyHeadersSchema, RefundPaymentSchema } from '../schemas/refund-payment.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { assertCreatePaymentAllowed } from './create-payment.guard';
import type { DownstreamClients } from '../grpc/downstream.clients';

/**
 * A saved card named by a payment (card.id), read from the vault before the payment is made: one
 * the vault no longer has is invalid_card, an expired one card_expired (spec §7), and routing is
 * told whether its security code is gone (only providers charging without one are candidates).
 */
async function savedCardForPayment(
  vaultClient: Pick<DownstreamClients['vault'], 'getCard'>,
  caller: ReturnType<typeof callerOf>,
  cardId: string,
  options: ReturnType<typeof rpcOptions>,
): Promise<{ withoutCvc: boolean; brand: string }> {
  let card;
  try {
    ({ card } = await vaultClient.getCard({ caller, card_id: cardId }, options));
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') throw new AppError('invalid_card', { param: 'card.id', message: `O cartão salvo ${cardId} não existe mais no cofre (foi apagado ou é de outro modo). Cadastre o cartão de novo.` });
    throw error;
  }
  if (!card) throw new AppError('invalid_card', { param: 'card.id' });
  const now = saoPauloYearMonth(new Date());
  if (card.exp_year < now.year || (card.exp_year === now.year && card.exp_month < now.month)) {
    throw new AppError('card_expired', { param: 'card.id', message: `O cartão salvo ${cardId} venceu em ${String(card.exp_month).padStart(2, '0')}/${card.exp_year}. Peça ao cliente outro cartão.` });
  }
  return { withoutCvc: !card.cvc_available_until, brand: card.brand };
}

/** The year and month in São Paulo (a card is valid through the last day of its month there). */
function saoPauloYearMonth(at: Date): { year: number; month: number } {
  const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit' }).format(at).split('-').map(Number);
  return { year: year!, month: month! };
}

/** An id that cannot exist is a 404 straight away, as the backend would answer. */
function paymentIdOf(req: Request): string {
  const parsed = PaymentIdSchema.safeParse(req.params['id']);
  if (!parsed.success) throw new AppError('not_found', { param: 'id' });
  return parsed.data;
}

/**
 * /v1/payments (§4). Order of checks on every route: route match (404) → API key (401) →
 * key kind (403) → body parsing (400 invalid_json) → validation (400) → downstream.
 * Restricted keys may use POST/GET /payments and GET /payments/{id} only (not cancel, refund, simulate, sync); the payments service
 * narrows what they see to the payments their key created.
 */
export function paymentsRoutes(context: RouteContext): Router {
  const { clients, authenticate, settings } = context;
  const router = Router();
  const fullKeyOnly = requireFullKey();

  router.post('/payments', authenticate, jsonBodyMiddleware(), async (req, res) => {
    const caller = callerOf(res);
    const headers = parseOrThrow(IdempotencyHeadersSchema, { 'Idempotency-Key': req.get('idempotency-key') }, 'header');
    const input = parseOrThrow(CreatePaymentSchema, req.body, 'body');
    assertCreatePaymentAllowed(input, caller);
    const savedCard = input.card?.id ? await savedCardForPayment(clients.vault, caller, input.card.id, rpcOptions(res)) : undefined;
    const request = toCreatePaymentRequest(input, {
      caller,
      callerIp: clientIp(req),
      idempotencyKey: headers['Idempotency-Key'],
      // Hash of the validated body as sent, before the IP default: a retry from another
      // address is still the same request.
      requestHash: requestHash(input),
    });
    if (request.card && savedCard) request.card = { ...request.card, without_cvc: savedCard.withoutCvc, brand: request.card.brand || savedCard.brand };
    const response = await clients.payments.createPayment(request, rpcOptions(res, settings.createPaymentDeadlineMs));
    if (!response.payment) throw new AppError('internal', { message: 'CreatePayment answered without a payment' });
    if (response.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).setHeader('Location', `/v1/payments/${response.payment.id}`).json(toPaymentJson(response.payment));
  });

  router.get('/payments', authenticate, async (req, res) => {
    const query = parseOrThrow(ListPaymentsQuerySchema, req.query, 'query');
    const response = await clients.payments.listPayments(
      {
        caller: callerOf(res),
        status: query.status ?? '',
        method: query.method ?? '',
        provider: query.provider ?? '',
        // Cycle payments are listed through GET /v1/subscriptions/{id} (its `payments`).
        subscription_id: '',
        limit: query.limit,
        starting_after: query.starting_after ?? '',
        q: query.q ?? '',
      },
      rpcOptions(res),
    );
    res.json(toPaymentListJson(response));
  });

  router.get('/payments/:id', authenticate, async (req, res) => {
    const response = await clients.payments.getPayment({ caller: callerOf(res), payment_id: paymentIdOf(req) }, rpcOptions(res));
    if (!response.payment) throw new AppError('not_found', { param: 'id' });
    res.json(toPaymentDetailJson(response.payment));
  });

  router.post('/payments/:id/cancel', authenticate, fullKeyOnly, async (req, res) => {
    const response = await clients.payments.cancelPayment(
      { caller: callerOf(res), payment_id: paymentIdOf(req) },
      rpcOptions(res),
    );
    if (!response.payment) throw new AppError('not_found', { param: 'id' });
    res.json(toPaymentJson(response.payment));
  });

  // Full keys only (§5.4: a restricted key cannot refund). amount omitted = all that is left.
  router.post('/payments/:id/refund', authenticate, fullKeyOnly, jsonBodyMiddleware(), async (req, res) => {
    const paymentId = paymentIdOf(req);
    const headers = parseOrThrow(RefundIdempotencyHeadersSchema, { 'Idempotency-Key': req.get('idempotency-key') }, 'header');
    const input = parseOrThrow(RefundPaymentSchema, req.body ?? {}, 'body');
    const response = await clients.payments.refundPayment(
      {
        caller: callerOf(res),
        payment_id: paymentId,
        idempotency_key: headers['Idempotency-Key'] ?? '',
        // The path is part of the request: one key cannot refund two payments.
        request_hash: requestHash({ payment_id: paymentId, ...input }),
        ...(input.amount !== undefined ? { amount: input.amount } : {}),
        reason: input.reason ?? '',
      },
      rpcOptions(res, settings.createPaymentDeadlineMs),
    );
    if (!response.refund || !response.payment) throw new AppError('internal', { message: 'RefundPayment answered without a refund' });
    if (response.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).json({ refund: toRefundJson(response.refund), payment: toPaymentJson(response.payment) });
  });

  // Test mode only; the payments service checks the mode (live → 403 live_mode_forbidden).
  router.post('/payments/:id/simulate', authenticate, fullKeyOnly, async (req, res) => {
    const response = await clients.payments.simulatePayment(
      { caller: callerOf(res), payment_id: paymentIdOf(req) },
      rpcOptions(res),
    );
    if (!response.payment) throw new AppError('not_found', { param: 'id' });
    res.json(toPaymentJson(response.payment));
  });

  // Re-reads the charge at the provider and applies any change (a missed webhook, for example).
  router.post('/payments/:id/sync', authenticate, fullKeyOnly, async (req, res) => {
    const response = await clients.payments.syncPayment({ caller: callerOf(res), payment_id: paymentIdOf(req) }, rpcOptions(res));
    if (!response.payment) throw new AppError('not_found', { param: 'id' });
    res.json(toPaymentJson(response.payment));
  });

  return router;
}
