/**
 * The API port's application: request ids and version headers, form-body parsing (bracket
 * notation via qs), fault injection (before any real work), then `/v1` behind the API-key check and the
 * idempotency layer. Unknown URLs answer Stripe's "Unrecognized request URL".
 */
import express, { type Express } from 'express';
import { identifyCaller, requireAccount } from './auth';
import type { EmulatorState } from './emulator-state';
import { API_VERSION } from './events';
import { idempotency } from './idempotency';
import { emulatorApiApp, finishApi, injectFaults, type Logger } from '../../kit';
import type { PaymentIntentLifecycle } from './payment-intent-lifecycle';
import { paymentIntentRoutes } from './payment-intents.routes';
import type { DisputeBook } from './disputes';
import { disputeRoutes } from './disputes.routes';
import type { RefundBook } from './refunds';
import { refundRoutes } from './refunds.routes';
import { paymentMethodRoutes } from './payment-methods';
import { payoutRoutes, type StripePayoutBook } from './payouts';
import type { StripeEvent } from './events';
import { stripeAnswers } from './stripe-errors';
import { newId } from './stripe-ids';
import { webhookEndpointRoutes } from './webhook-endpoints.routes';
import { connectRoutes, stripeAccountHeader, type ConnectBook } from './connect';

export function stripeApiApp(
  state: EmulatorState,
  lifecycle: PaymentIntentLifecycle,
  refunds: RefundBook,
  disputes: DisputeBook,
  logger: Logger,
  payouts?: { book: StripePayoutBook; emit: (accountId: string, event: StripeEvent) => void },
  connect?: { book: ConnectBook; linkBase: () => string },
): Express {
  const app = emulatorApiApp(logger, (res) => ({ account: (res.locals['account'] as { id?: string } | undefined)?.id }));
  app.use((req, res, next) => {
    const requestId = newId('req', 14);
    res.locals['requestId'] = requestId;
    res.setHeader('Request-Id', requestId);
    res.setHeader('Stripe-Version', req.get('stripe-version') ?? API_VERSION);
    next();
  });
  // The body is read before any injected latency: a request whose client gave up during the
  // delay still executes, as at Stripe (a timeout on our side never undoes a PaymentIntent).
  app.use(express.urlencoded({ extended: true, limit: '1mb', parameterLimit: 2_000 }));
  app.use(injectFaults(state.faults, (req) => identifyCaller(state, req), stripeAnswers));
  // One mount: the idempotency layer must see each request once.
  const connectedAccount = (platformId: string, id: string) => {
    const account = connect?.book.get(id);
    return account?.platformId === platformId ? account : undefined;
  };
  const routes = [paymentIntentRoutes(state, lifecycle, connectedAccount), paymentMethodRoutes(state), refundRoutes(state, refunds), disputeRoutes(disputes), webhookEndpointRoutes(state)];
  if (payouts) routes.push(payoutRoutes(state, payouts.book, payouts.emit, (id) => connect?.book.get(id)?.payoutsEnabled ?? false));
  if (connect) routes.push(connectRoutes(state, connect.book, connect.linkBase));
  const asConnected = connect ? [stripeAccountHeader(connect.book)] : [];
  app.use('/v1', requireAccount(state), ...asConnected, idempotency(state), ...routes);
  return finishApi(app, stripeAnswers, logger);
}
