/**
 * The API port's application: fault injection first (it must act before any real work), then
 * body parsing, `POST /oauth/token`, and the `/v2` routes behind the Bearer check.
 */
import express, { type Express, type Router } from 'express';
import { cobRoutes, type CobRoutesOptions } from './cob.routes';
import { devolucaoRoutes } from './devolucao.routes';
import { envioRoutes, type EnvioBook } from './envio.routes';
import type { EmulatorState } from './emulator-state';
import { InfracaoBook, infracaoRoutes } from './infracoes';
import { emulatorApiApp, finishApi, injectFaults, type Logger } from '../../kit';
import type { RecurrenceBook } from './recorrencias';
import { recurrenceRoutes, type RecRoutesOptions } from './recorrencias.routes';
import type { RefundSettler } from './refund-settler';
import { identifyCaller, oauthRoutes, requireBearer } from './oauth.routes';
import { efiAnswers } from './pix-errors';
import { webhookConfigRoutes } from './webhook-config.routes';
import type { WebhookSender } from './webhook-sender';

/** Pix Automático's resources and how they are served (recorrencias.routes.ts). */
export interface RecurrenceApi {
  book: RecurrenceBook;
  options: RecRoutesOptions;
}

export function pixApiApp(
  state: EmulatorState,
  sender: WebhookSender,
  settler: RefundSettler,
  cob: CobRoutesOptions,
  logger: Logger,
  infracoes = new InfracaoBook(),
  recurrences?: RecurrenceApi,
  envios?: EnvioBook,
  /** The API Cobranças (boleto) routes under `/v1` (cobrancas.ts). */
  cobrancas?: Router,
): Express {
  const app = emulatorApiApp(logger, (res) => ({ client: res.locals['clientId'] }));
  app.use(injectFaults(state.faults, (req) => identifyCaller(state, req), efiAnswers));
  app.use(express.json({ limit: '1mb' }));
  app.use(express.urlencoded({ extended: false }));
  app.use(oauthRoutes(state));
  if (cobrancas) app.use(cobrancas);
  app.use('/v2', requireBearer(state), cobRoutes(state, cob), devolucaoRoutes(state, settler), infracaoRoutes(state, infracoes), webhookConfigRoutes(state, sender));
  if (recurrences) app.use('/v2', requireBearer(state), recurrenceRoutes(state, recurrences.book, sender, recurrences.options));
  if (envios) {
    const { v2, v3 } = envioRoutes(state, envios);
    app.use('/v2', requireBearer(state), v2);
    app.use('/v3', requireBearer(state), v3);
  }
  return finishApi(app, efiAnswers, logger);
}
