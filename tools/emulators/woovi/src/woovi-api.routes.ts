/**
 * The API port's application: fault injection first (it must act before any real work), then
 * body parsing, the public routes, and `/api/v1` behind the AppID check.
 */
import express, { type Express } from 'express';
import { identifyCaller, requireAppId } from './auth';
import type { ExpiryScheduler } from './charge-expiry';
import { chargeRoutes, type ChargeRoutesOptions } from './charge.routes';
import type { EmulatorState } from './emulator-state';
import { emulatorApiApp, finishApi, injectFaults, type Logger } from '../../kit';
import { recurringRoutes } from './pix-recurring.routes';
import { publicRoutes } from './public.routes';
import type { SigningKeys } from './signing-keys';
import { webhookConfigRoutes } from './webhook-config.routes';
import type { RefundSettler } from './refunds';
import { refundRoutes } from './refunds.routes';
import { transactionRoutes } from './transaction.routes';
import type { WebhookSender } from './webhook-sender';
import { wooviAnswers } from './woovi-errors';
import { paymentRoutes } from './payments.routes';
import { subaccountRoutes, type SubaccountBook } from './subaccounts';

export interface ApiDependencies {
  state: EmulatorState;
  sender: WebhookSender;
  expiry: ExpiryScheduler;
  keys: SigningKeys;
  charges: ChargeRoutesOptions;
  logger: Logger;
  refunds: RefundSettler;
  subaccounts: SubaccountBook;
}

export function wooviApiApp({ state, sender, expiry, keys, charges, logger, refunds, subaccounts }: ApiDependencies): Express {
  const app = emulatorApiApp(logger, (res) => ({ account: res.locals['accountId'] }));
  app.use(injectFaults(state.faults, identifyCaller, wooviAnswers));
  app.use(express.json({ limit: '1mb' }));
  app.use(publicRoutes(state, keys));
  app.use('/api/v1', requireAppId(state), chargeRoutes(state, sender, expiry, charges), refundRoutes(state, refunds), transactionRoutes(state), webhookConfigRoutes(state, sender), recurringRoutes({ state, sender, expiry, charges }), paymentRoutes(state), subaccountRoutes(subaccounts, state));
  return finishApi(app, wooviAnswers, logger);
}
