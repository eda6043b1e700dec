/**
 * The frame of an emulator's API app: what comes before the provider's routes (no
 * `X-Powered-By` or ETag, one debug line per request) and after them (the provider's answer for
 * an unknown path, for its own errors, for a body the parser refused, and for anything
 * unexpected). The provider's answers are one object, also used for injected faults.
 *
 * @example
 * const app = emulatorApiApp(logger, (res) => ({ account: res.locals['accountId'] }));
 * app.use(injectFaults(state.faults, identifyCaller, wooviAnswers));
 * app.use(express.json({ limit: '1mb' }));
 * app.use('/api/v1', requireAppId(state), chargeRoutes(…));
 * return finishApi(app, wooviAnswers, logger);
 */
import express, { type Express, type Request, type Response } from 'express';
import type { FaultAnswer, FaultBodies } from './fault-injection';
import type { Logger } from './logger';

/** How a provider answers: its injected-fault bodies, and what the error handler sends. */
export interface ProviderAnswers extends FaultBodies {
  /** A provider error a route threw, as the provider answers it; undefined for anything else. */
  known(err: unknown, res: Response): FaultAnswer | undefined;
  /** A body the parser refused (malformed JSON or form). */
  badBody(): FaultAnswer;
  /** The error to throw for a path no route serves. */
  notFound(req: Request): unknown;
  /** Besides answering `internal()`, what an unexpected failure marks on the response (Stripe: replayable). */
  onUnexpected?(res: Response): void;
}

/** `caller`: who made the request, for the log line (an account or client id, never a credential). */
export function emulatorApiApp(logger: Logger, caller: (res: Response) => Record<string, unknown> = () => ({})): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((req, res, next) => {
    const started = Date.now();
    // Method, path and status only: credentials, query strings and bodies are never logged.
    // originalUrl: a mounted router has cut its prefix from `path` by the time the answer is sent.
    res.on('finish', () =>
      logger.debug({ method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, ...caller(res), ms: Date.now() - started }, 'api request'),
    );
    next();
  });
  return app;
}

export function finishApi(app: Express, answers: ProviderAnswers, logger: Logger): Express {
  app.use((req) => {
    throw answers.notFound(req);
  });
  app.use((err: unknown, _req: Request, res: Response, _next: express.NextFunction) => {
    const send = (answer: FaultAnswer) => void res.status(answer.status).json(answer.body);
    const known = answers.known(err, res);
    if (known) return send(known);
    // Body-parser errors (malformed JSON, wrong content) carry a 4xx `status`.
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) return send(answers.badBody());
    logger.error({ err }, 'unexpected error');
    answers.onUnexpected?.(res);
    send(answers.internal());
  });
  return app;
}
