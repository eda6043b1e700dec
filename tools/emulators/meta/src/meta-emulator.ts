/**
 * An emulator of Meta's Conversions API (ad-integrations.md §2): `POST /{version}/{pixel}/events`
 * with `access_token` in the query (or the body), `data[]` checked event by event (one bad event
 * fails the request), answers and errors in the Graph API's shapes. A control port registers
 * tokens (optionally bound to pixels), shows what arrived, injects faults and moves the clock.
 *
 * - 200 `{events_received, messages: [], fbtrace_id}`
 * - 400 `{error: {message, type: "OAuthException", code, error_subcode?, is_transient: false, error_user_title?, error_user_msg?, fbtrace_id}}`:
 *   code 104 no token, 190 unknown token, 100 + subcode 33 a pixel the token may not send to,
 *   100 + 2804003 event too old, 2804004 in the future, 2804019 a bad parameter, 2804050 nothing to match on
 * - injected 5xx: `{error: {message, type: "OAuthException", code: 2, is_transient: true, fbtrace_id}}`
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import express, { Router, type Request, type Response } from 'express';
import { controlPort, createEmulatorLogger, emulatorApiApp, finishApi, hostEmulator, type EmulatorLifecycle, type EmulatorOptions, type FaultAnswer } from '../../kit';
import { AdToolState, adControlRoutes, adFaultMiddleware, NO_WEBHOOKS, tokenId, type ReceivedOutcome } from '../../kit/ad-tool-emulator';
import { checkEvent } from './event-validation';

export interface MetaEmulatorOptions extends EmulatorOptions {
  /** Access tokens valid from the start; `pixels` binds one to those pixel ids (absent: any). */
  tokens?: Array<string | { token: string; pixels?: string[] }>;
}

export interface MetaEmulator extends EmulatorLifecycle {
  readonly state: AdToolState;
}

const fbtraceId = () => randomBytes(8).toString('base64url');

type GraphError = { message: string; code: number; error_subcode?: number; error_user_title?: string; error_user_msg?: string; is_transient?: boolean };

const graphError = (status: number, error: GraphError): FaultAnswer => ({
  status,
  body: { error: { type: 'OAuthException', ...error, is_transient: error.is_transient ?? false, fbtrace_id: fbtraceId() } },
});

class GraphAnswer extends Error {
  constructor(readonly answer: FaultAnswer) {
    super('graph error');
  }
}

const transient = (status: number) => graphError(status, { message: 'An unexpected error has occurred. Please retry your request later.', code: 2, is_transient: true });

const answers = {
  unavailable: () => transient(503),
  rateLimited: () => graphError(429, { message: 'Application request limit reached', code: 4, is_transient: true }),
  internal: () => transient(500),
  known: (err: unknown) => (err instanceof GraphAnswer ? err.answer : undefined),
  badBody: () => graphError(400, { message: 'Invalid parameter', code: 100, error_user_msg: 'The body is not valid JSON.' }),
  notFound: (req: Request) => new GraphAnswer(graphError(400, { message: `Unknown path components: ${req.path}`, code: 2500 })),
};

/** `data` as an array, or as the JSON text of one (the form-encoded way Meta's examples send it). */
function eventsOf(body: Record<string, unknown>): unknown[] | null {
  const data = body['data'];
  if (Array.isArray(data)) return data;
  if (typeof data === 'string') {
    try {
      const parsed: unknown = JSON.parse(data);
      return Array.isArray(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }
  return null;
}

export function createMetaEmulator(options: MetaEmulatorOptions = {}): MetaEmulator {
  const logger = options.logger ?? createEmulatorLogger('meta-emulator', 'silent');
  const state = new AdToolState(options.now ?? (() => new Date()));

  const api = emulatorApiApp(logger);
  api.use(adFaultMiddleware(state, (status) => transient(status), logger));
  api.use(express.json({ limit: '2mb' }));
  api.use(express.urlencoded({ extended: false, limit: '2mb' }));
  const routes = Router();
  routes.post('/:version/:pixel/events', (req: Request, res: Response, next) => {
    const { version = '', pixel = '' } = req.params as Record<string, string>;
    // Graph paths: a `vNN.N` version and a numeric object id; anything else is an unknown path.
    if (!/^v\d+\.\d+$/.test(version) || !/^\d+$/.test(pixel)) return next();
    const raw = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
    const queryToken = typeof req.query['access_token'] === 'string' ? req.query['access_token'] : undefined;
    const token = queryToken ?? (typeof raw['access_token'] === 'string' ? raw['access_token'] : undefined);
    // What arrived is kept without the token.
    const { access_token: _dropped, ...body } = raw;
    const events = eventsOf(body);
    const eventIds = (events ?? []).map((e) => (typeof (e as { event_id?: unknown })?.event_id === 'string' ? (e as { event_id: string }).event_id : '')).filter(Boolean);
    const test = typeof body['test_event_code'] === 'string' && body['test_event_code'].length > 0;
    const auth = state.checkToken(token, pixel);
    const reply = (answer: FaultAnswer, outcome: ReceivedOutcome = answer.status < 300 ? 'accepted' : 'rejected') => {
      state.received.add({
        at: state.clock.now().toISOString(),
        method: req.method,
        path: req.path,
        auth: auth === 'missing' ? 'missing' : auth === 'unknown' ? 'unknown' : 'ok',
        token_id: token ? tokenId(token) : null,
        outcome,
        fault: null,
        status: answer.status,
        test,
        keys: { pixel, event_ids: eventIds },
        body,
        answer: answer.body,
      });
      res.status(answer.status).json(answer.body);
    };
    if (auth === 'missing') return reply(graphError(400, { message: 'An access token is required to request this resource.', code: 104 }));
    if (auth === 'unknown') return reply(graphError(400, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 }));
    if (auth === 'pixel')
      return reply(
        graphError(400, {
          message: `Unsupported post request. Object with ID '${pixel}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
          code: 100,
          error_subcode: 33,
        }),
      );
    if (!events || events.length === 0)
      return reply(graphError(400, { message: 'Invalid parameter', code: 100, error_subcode: 2804019, error_user_title: 'Server-side API parameter error', error_user_msg: "The parameter $['data'] is required and must be a non-empty array." }));
    if (events.length > 1000) return reply(graphError(400, { message: 'Invalid parameter', code: 100, error_user_msg: 'A request may carry at most 1000 events.' }));
    if (body['test_event_code'] !== undefined && (typeof body['test_event_code'] !== 'string' || body['test_event_code'].trim() === ''))
      return reply(graphError(400, { message: 'Invalid parameter', code: 100, error_user_msg: 'test_event_code must be a non-empty string.' }));
    const nowS = Math.floor(state.clock.now().getTime() / 1000);
    for (const [index, event] of events.entries()) {
      const problem = checkEvent(event, index, nowS);
      if (problem) return reply(graphError(400, { message: 'Invalid parameter', code: 100, error_subcode: problem.subcode, error_user_title: problem.title, error_user_msg: problem.message }));
    }
    logger.info({ pixel, events: events.length, test }, 'events received');
    return reply({ status: 200, body: { events_received: events.length, messages: [], fbtrace_id: fbtraceId() } });
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
  const { lifecycle } = hostEmulator('meta', options, {
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
