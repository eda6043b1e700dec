/**
 * An emulator of the attribution tool's orders API (Utmify, ad-integrations.md §1):
 * `POST /api-credentials/orders` with `x-api-token`, the documented body checked field by field,
 * the age limits judged by the emulator's clock, orders kept by orderId per token and a status
 * never allowed to go backwards, `isTest` orders validated and not kept. A control port registers
 * tokens, shows what arrived and the orders, injects faults and moves the clock.
 *
 * Answers (the real tool's bodies beyond `API_CREDENTIAL_NOT_FOUND` are not published; these are
 * the emulator's, documented in README.md):
 * - 200 `{ok: true, orderId, status}`; a test order 200 `{ok: true, test: true, orderId, status}`
 * - 404 `{message: "API_CREDENTIAL_NOT_FOUND"}`: token missing or unknown
 * - 400 `{message: "INVALID_FIELDS", errors: [{field, message}]}`
 * - 400 `{message: "ORDER_TOO_OLD", createdAt, maxAgeDays}`
 * - 400 `{message: "ORDER_STATUS_REGRESSION", currentStatus, receivedStatus}`
 *
 * @example
 * const emulator = createUtmifyEmulator({ tokens: ['utm-token'] });
 * const { apiPort, controlPort } = await emulator.start();
 */
import { createServer } from 'node:http';
import express, { Router, type Request, type Response } from 'express';
import { controlPort, createEmulatorLogger, emulatorApiApp, finishApi, hostEmulator, sendControlError, type EmulatorLifecycle, type EmulatorOptions, type FaultAnswer } from '../../kit';
import { AdToolState, adControlRoutes, adFaultMiddleware, NO_WEBHOOKS, tokenId, type ReceivedOutcome } from '../../kit/ad-tool-emulator';
import { OrderBook } from './order-book';
import { maxAgeDays, parseUtmifyDate, validateOrder, type Order } from './order-validation';

export interface UtmifyEmulatorOptions extends EmulatorOptions {
  /** API tokens valid from the start. */
  tokens?: string[];
}

export interface UtmifyEmulator extends EmulatorLifecycle {
  readonly state: AdToolState;
  readonly orders: OrderBook;
}

const DAY_MS = 86_400_000;

class UtmifyAnswer extends Error {
  constructor(readonly answer: FaultAnswer) {
    super(String((answer.body as { message?: unknown }).message));
  }
}

const answers = {
  unavailable: () => ({ status: 503, body: { message: 'SERVICE_UNAVAILABLE' } }),
  rateLimited: () => ({ status: 429, body: { message: 'TOO_MANY_REQUESTS' } }),
  internal: () => ({ status: 500, body: { message: 'INTERNAL_SERVER_ERROR' } }),
  known: (err: unknown) => (err instanceof UtmifyAnswer ? err.answer : undefined),
  badBody: () => ({ status: 400, body: { message: 'INVALID_JSON' } }),
  notFound: (req: Request) => new UtmifyAnswer({ status: 404, body: { message: `Cannot ${req.method} ${req.path}` } }),
};

export function createUtmifyEmulator(options: UtmifyEmulatorOptions = {}): UtmifyEmulator {
  const logger = options.logger ?? createEmulatorLogger('utmify-emulator', 'silent');
  const state = new AdToolState(options.now ?? (() => new Date()));
  const orders = new OrderBook();

  const api = emulatorApiApp(logger);
  api.use(adFaultMiddleware(state, (status) => ({ status, body: status === 503 ? answers.unavailable().body : answers.internal().body }), logger));
  api.use(express.json({ limit: '1mb' }));
  const routes = Router();
  routes.post('/api-credentials/orders', (req: Request, res: Response) => {
    const token = req.header('x-api-token');
    const auth = state.checkToken(token);
    const body: unknown = req.body;
    const orderId = typeof (body as { orderId?: unknown })?.orderId === 'string' ? (body as { orderId: string }).orderId : '';
    const test = (body as { isTest?: unknown })?.isTest === true;
    const reply = (status: number, answer: Record<string, unknown>, outcome: ReceivedOutcome = status < 300 ? 'accepted' : 'rejected') => {
      state.received.add({
        at: state.clock.now().toISOString(),
        method: req.method,
        path: req.path,
        auth: auth === 'ok' ? 'ok' : auth === 'missing' ? 'missing' : 'unknown',
        token_id: token ? tokenId(token) : null,
        outcome,
        fault: null,
        status,
        test,
        keys: orderId ? { order_id: orderId } : {},
        body,
        answer,
      });
      res.status(status).json(answer);
    };
    if (auth !== 'ok') return reply(404, { message: 'API_CREDENTIAL_NOT_FOUND' });
    const errors = validateOrder(body);
    if (errors.length > 0) return reply(400, { message: 'INVALID_FIELDS', errors });
    const order = body as Order;
    const now = state.clock.now();
    const createdAt = parseUtmifyDate(order.createdAt) as Date;
    const limit = maxAgeDays(order.status);
    if (now.getTime() - createdAt.getTime() > limit * DAY_MS) return reply(400, { message: 'ORDER_TOO_OLD', createdAt: order.createdAt, maxAgeDays: limit });
    // A test order is validated like any other and then forgotten.
    if (test) return reply(200, { ok: true, test: true, orderId: order.orderId, status: order.status });
    const result = orders.save(tokenId(token as string), order, now.toISOString());
    if ('regression' in result) return reply(400, { message: 'ORDER_STATUS_REGRESSION', currentStatus: result.regression.current, receivedStatus: result.regression.received });
    if ('createdAtChanged' in result)
      return reply(400, { message: 'INVALID_FIELDS', errors: [{ field: 'createdAt', message: `must stay ${result.createdAtChanged.stored} on every update of the order` }] });
    logger.info({ token_id: tokenId(token as string), status: order.status }, 'order saved');
    return reply(200, { ok: true, orderId: order.orderId, status: order.status });
  });
  api.use(routes);
  finishApi(api, answers, logger);

  const control = Router();
  control.use(adControlRoutes(state, logger));
  // GET /__control/orders[?order_id=] → {orders: [{token_id, orderId, status, history, order}]}
  control.get('/__control/orders', (req, res) => {
    const orderId = typeof req.query['order_id'] === 'string' ? req.query['order_id'] : undefined;
    res.status(200).json({ orders: orders.list(orderId) });
  });
  control.get('/__control/orders/:orderId', (req, res) => {
    const found = orders.list(req.params['orderId']);
    if (found.length === 0) return sendControlError(res, 404, 'order_not_found', `no order ${req.params['orderId']}`);
    res.status(200).json(found.length === 1 ? found[0] : { orders: found });
  });
  const controlApp = controlPort(control, {
    logger,
    stats: () => ({ ...state.stats(), orders: orders.size }),
    deliveries: () => [],
    reset: () => {
      state.reset();
      orders.clear();
    },
    clock: { clock: state.clock },
  });

  const { lifecycle } = hostEmulator('utmify', options, {
    api: createServer(api),
    control: createServer(controlApp),
    faults: state.kitFaults,
    stores: { state, orders },
    webhooks: NO_WEBHOOKS,
    logger,
  });
  // After the file: tokens given at start join the remembered ones.
  for (const token of options.tokens ?? []) state.registerToken(token);
  return { state, orders, ...lifecycle };
}
