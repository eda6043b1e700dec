/**
 * An emulator of TikTok's Events API 2.0 (ad-integrations.md §3): `POST /open_api/v1.3/event/track/`
 * with the `Access-Token` header. Like TikTok's Business API it answers HTTP 200 for its own
 * errors, the `code` saying what happened: 0 OK; 40104 no token; 40105 unknown token; 40001 a
 * pixel the token may not send to; 40002 a bad parameter (the message names it). Injected faults
 * answer a 5xx with `{code: 50000}`. A control port registers tokens (optionally bound to pixel
 * codes), shows what arrived, injects faults and moves the clock.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import express, { Router, type Request, type Response } from 'express';
import { controlPort, createEmulatorLogger, emulatorApiApp, finishApi, hostEmulator, type EmulatorLifecycle, type EmulatorOptions, type FaultAnswer } from '../../kit';
import { AdToolState, adControlRoutes, adFaultMiddleware, NO_WEBHOOKS, tokenId } from '../../kit/ad-tool-emulator';
import { checkTrackBody } from './event-validation';

export interface TiktokEmulatorOptions extends EmulatorOptions {
  /** Access tokens valid from the start; `pixels` binds one to those pixel codes (absent: any). */
  tokens?: Array<string | { token: string; pixels?: string[] }>;
}

export interface TiktokEmulator extends EmulatorLifecycle {
  readonly state: AdToolState;
}

/** TikTok's request ids: a timestamp and random hex. */
const requestId = () => `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}${randomBytes(10).toString('hex').toUpperCase()}`;

const tiktok = (status: number, code: number, message: string): FaultAnswer => ({ status, body: { code, message, request_id: requestId(), data: {} } });

class TiktokAnswer extends Error {
  constructor(readonly answer: FaultAnswer) {
    super('tiktok answer');
  }
}

const answers = {
  unavailable: () => tiktok(503, 50002, 'Service unavailable, please retry later.'),
  rateLimited: () => tiktok(200, 40100, 'Too many requests. Please retry in some time.'),
  internal: () => tiktok(500, 50000, 'System error.'),
  known: (err: unknown) => (err instanceof TiktokAnswer ? err.answer : undefined),
  badBody: () => tiktok(200, 40002, 'Invalid request body: not valid JSON.'),
  notFound: (req: Request) => new TiktokAnswer(tiktok(404, 40400, `Path ${req.path} not found.`)),
};

export function createTiktokEmulator(options: TiktokEmulatorOptions = {}): TiktokEmulator {
  const logger = options.logger ?? createEmulatorLogger('tiktok-emulator', 'silent');
  const state = new AdToolState(options.now ?? (() => new Date()));

  const api = emulatorApiApp(logger);
  api.use(adFaultMiddleware(state, (status) => (status === 503 ? answers.unavailable() : tiktok(status, 50000, 'System error.')), logger));
  api.use(express.json({ limit: '2mb' }));
  const routes = Router();
  routes.post(['/open_api/v1.3/event/track/', '/open_api/v1.3/event/track'], (req: Request, res: Response) => {
    const token = req.header('access-token');
    const body: unknown = req.body;
    const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const pixel = typeof record['event_source_id'] === 'string' ? record['event_source_id'] : '';
    const events = Array.isArray(record['data']) ? record['data'] : [];
    const eventIds = events.map((e) => (typeof (e as { event_id?: unknown })?.event_id === 'string' ? (e as { event_id: string }).event_id : '')).filter(Boolean);
    const test = typeof record['test_event_code'] === 'string' && record['test_event_code'].length > 0;
    const auth = state.checkToken(token, pixel);
    const reply = (answer: FaultAnswer) => {
      const code = (answer.body as { code: number }).code;
      state.received.add({
        at: state.clock.now().toISOString(),
        method: req.method,
        path: req.path,
        auth: auth === 'missing' ? 'missing' : auth === 'unknown' ? 'unknown' : 'ok',
        token_id: token ? tokenId(token) : null,
        outcome: code === 0 ? 'accepted' : 'rejected',
        fault: null,
        status: answer.status,
        test,
        keys: { pixel, event_ids: eventIds },
        body,
        answer: answer.body,
      });
      res.status(answer.status).json(answer.body);
    };
    if (auth === 'missing') return reply(tiktok(200, 40104, 'Access token is null, please fill in the Access-Token header.'));
    if (auth === 'unknown') return reply(tiktok(200, 40105, 'Access token is incorrect or has been revoked.'));
    if (auth === 'pixel') return reply(tiktok(200, 40001, `No permission to operate pixel code ${pixel}.`));
    const problem = checkTrackBody(body, Math.floor(state.clock.now().getTime() / 1000));
    if (problem) return reply(tiktok(200, 40002, `Invalid parameters: ${problem}`));
    logger.info({ pixel, events: events.length, test }, 'events received');
    return reply(tiktok(200, 0, 'OK'));
  });
  api.use(routes);
  finishApi(api, answers, logger);

  const controlApp = controlPort(adControlRoutes(state, logger), {
    logger,
    stats: () => state.stats(),
    deliveries: () => [],
    reset: () => state.reset(),
    clock: { clock: state.clock },
  });
  const { lifecycle } = hostEmulator('tiktok', options, {
    api: createServer(api),
    control: createServer(controlApp),
    faults: state.kitFaults,
    stores: { state },
    webhooks: NO_WEBHOOKS,
    logger,
  });
  for (const entry of options.tokens ?? []) {
    if (typeof entry === 'string') state.registerToken(entry);
    else state.registerToken(entry.token, entry.pixels ?? []);
  }
  return { state, ...lifecycle };
}
