/**
 * The control port every emulator serves next to its provider's API (plain HTTP, tests and the
 * local stack only): `GET /__control/health`, `POST`/`DELETE /__control/faults`,
 * `GET /__control/stats`, `GET /__control/webhooks/deliveries`, `POST /__control/reset`, a JSON
 * 404 and error answer `{error, message}`; with a clock, `GET`/`POST /__control/clock`. The emulator adds its sandbox routes (accounts, paying a
 * charge, dashboard refunds, hosted pages) as a router.
 *
 * @example
 * const routes = Router();
 * routes.post('/__control/charges/:id/pay', (req, res) => { … });
 * return controlPort(routes, {
 *   logger, stats: () => state.stats(), deliveries: () => state.listDeliveries(), reset: () => state.reset(),
 *   faults: { registry: state.faults, param: 'account', scopeOf: accountIdFor },
 * });
 */
import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { EmulatorClock } from './clock';
import type { FaultRegistry } from './fault-registry';
import type { Logger } from './logger';

export function sendControlError(res: Response, status: number, error: string, message: string): void {
  res.status(status).json({ error, message });
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** What `POST /__control/faults` sets besides whose faults they are (fault-registry.ts FaultConfig). */
export const faultSettingsShape = {
  latency_ms: z.number().int().min(0).max(600_000).optional(),
  error_rate: z.number().min(0).max(1).optional(),
  rate_limit_rate: z.number().min(0).max(1).optional(),
  outage: z.boolean().optional(),
  outage_mode: z.enum(['reset', '503']).optional(),
  hang: z.boolean().optional(),
};

export interface FaultRoutes {
  registry: FaultRegistry;
  /** The body field and query parameter naming whose faults they are (`account`, `client_id`); without it, global. */
  param: string;
  /** The registry scope a given value names (an account id from a key); default: the value itself. */
  scopeOf?: (value: string) => string;
  /** How the answer and the log name the scope (default: the scope itself, or `global`). */
  shown?: (scope: string | undefined) => string;
}

export interface ControlBasics {
  logger: Logger;
  stats: () => unknown;
  deliveries: () => readonly unknown[];
  /** Forgets what tests leave behind (charges, stats, faults, deliveries); account set-up stays. */
  reset: () => void;
  /** The fault routes; absent when the emulator serves its own (Asaas also scopes faults by operation). */
  faults?: FaultRoutes;
  /** Public pages mounted before the JSON body parser (Asaas's invoice pages read forms). */
  pages?: Router;
  /** The emulator's clock, moved forward by tests; `onChange` runs what became due (recurring cycles). Reset sets it back. */
  clock?: { clock: EmulatorClock; onChange?: () => void };
}

const clockSchema = z
  .object({
    advance_ms: z.number().int().min(0).optional(),
    advance_days: z.number().int().min(0).max(3660).optional(),
    set: z.string().datetime({ offset: true }).optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length === 1, 'send exactly one of advance_ms, advance_days, set');

/** `GET /__control/clock` → `{now, offset_ms}`; `POST` moves it forward (never back: 409). */
function clockRoutes(app: Express, { clock, onChange }: NonNullable<ControlBasics['clock']>, logger: Logger): void {
  const shown = () => ({ now: clock.now().toISOString(), offset_ms: clock.offset() });
  app.get('/__control/clock', (_req, res) => {
    res.status(200).json(shown());
  });
  app.post('/__control/clock', (req, res) => {
    const parsed = clockSchema.safeParse(req.body);
    if (!parsed.success) return sendControlError(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { advance_ms, advance_days, set } = parsed.data;
    try {
      if (set !== undefined) clock.setTo(new Date(set));
      else clock.advance(advance_ms ?? (advance_days ?? 0) * 86_400_000);
    } catch {
      return sendControlError(res, 409, 'clock_backwards', 'the clock only moves forward');
    }
    onChange?.();
    logger.info(shown(), 'clock moved');
    res.status(200).json(shown());
  });
}

function faultRoutes(app: Express, { registry, param, scopeOf = (value) => value, shown = (scope) => scope ?? 'global' }: FaultRoutes, logger: Logger): void {
  const schema = z.object({ [param]: z.string().min(1).optional(), ...faultSettingsShape }).strict();
  app.post('/__control/faults', (req, res) => {
    const parsed = schema.safeParse(req.body);
    if (!parsed.success) return sendControlError(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { [param]: named, ...faults } = parsed.data as Record<string, unknown>;
    const scope = typeof named === 'string' ? scopeOf(named) : undefined;
    registry.set(scope, faults);
    logger.info({ scope: shown(scope), faults }, 'faults set');
    res.status(200).json({ scope: shown(scope), faults });
  });
  app.delete('/__control/faults', (req, res) => {
    const named = req.query[param];
    registry.clear(typeof named === 'string' ? scopeOf(named) : undefined);
    res.status(204).end();
  });
}

/** The control app: the common routes around the emulator's own `routes`. */
export function controlPort(routes: Router, basics: ControlBasics): Express {
  const { logger } = basics;
  const app = express();
  app.disable('x-powered-by');
  if (basics.pages) app.use(basics.pages);
  app.use(express.json({ limit: '256kb' }));

  app.get('/__control/health', (_req, res) => {
    res.status(200).json({ status: 'ok' });
  });
  app.use(routes);
  if (basics.faults) faultRoutes(app, basics.faults, logger);
  if (basics.clock) clockRoutes(app, basics.clock, logger);

  app.get('/__control/stats', (_req, res) => {
    res.status(200).json(basics.stats());
  });
  app.get('/__control/webhooks/deliveries', (_req, res) => {
    res.status(200).json({ deliveries: basics.deliveries() });
  });
  app.post('/__control/reset', (_req, res) => {
    basics.reset();
    basics.clock?.clock.reset();
    res.status(204).end();
  });

  app.use((_req, res) => sendControlError(res, 404, 'not_found', 'unknown control route'));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) return sendControlError(res, 400, 'invalid_json', 'body is not valid JSON');
    logger.error({ err }, 'control route failed');
    sendControlError(res, 500, 'internal', 'unexpected error');
  });
  return app;
}
