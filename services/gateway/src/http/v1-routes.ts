import { Router } from 'express';
import { analyticsRoutes } from '../routes/analytics.routes';
import { cardsRoutes } from '../routes/cards.routes';
import { customersRoutes } from '../routes/customers.routes';
import { disputesRoutes } from '../routes/disputes.routes';
import { eventsRoutes } from '../routes/events.routes';
import { integrationsRoutes } from '../routes/integrations.routes';
import { paymentsRoutes } from '../routes/payments.routes';
import { payoutsRoutes } from '../routes/payouts.routes';
import { providerAccountsRoutes } from '../routes/provider-accounts.routes';
import { providersRoutes } from '../routes/providers.routes';
import { reconciliationRoutes } from '../routes/reconciliation.routes';
import { requestLogsRoutes } from '../routes/request-logs.routes';
import { routingRulesRoutes } from '../routes/routing-rules.routes';
import { routingRoutes } from '../routes/routing.routes';
import { subaccountsRoutes } from '../routes/subaccounts.routes';
import { subscriptionsRoutes } from '../routes/subscriptions.routes';
import { webhookEndpointsRoutes } from '../routes/webhook-endpoints.routes';
import { withdrawalsRoutes } from '../routes/withdrawals.routes';
import type { RouteContext } from './app.deps';

/**
 * The authenticated public API (§4) relative to /v1, for one way of authenticating: an API key at
 * /v1 (`context.authenticate` = the key middleware), the owner's session at /dashboard/api/v1.
 * The same routers, validation and answers either way.
 */
export function v1Routes(context: RouteContext): Router {
  const router = Router();
  router.use(paymentsRoutes(context));
  router.use(subscriptionsRoutes(context));
  router.use(payoutsRoutes(context));
  router.use(subaccountsRoutes(context));
  router.use(withdrawalsRoutes(context));
  router.use(eventsRoutes(context));
  router.use(webhookEndpointsRoutes(context));
  router.use(disputesRoutes(context));
  router.use(customersRoutes(context));
  router.use(cardsRoutes(context));
  router.use(providersRoutes(context));
  router.use(providerAccountsRoutes(context));
  router.use(routingRulesRoutes(context));
  router.use(routingRoutes(context));
  router.use(integrationsRoutes(context));
  router.use(reconciliationRoutes(context));
  router.use(analyticsRoutes(context));
  router.use(requestLogsRoutes(context));
  return router;
}
