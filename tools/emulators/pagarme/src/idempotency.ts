/**
 * The `idempotency-key` header: Pagar.me stores the answer to the first request carrying a key and
 * answers repeats within 24 h with it, whatever the repeat's body (docs.pagar.me "Idempotência").
 * Only answers that did something (2xx) are stored: a refused request can be corrected and sent
 * again with the same key. Keys are per account and per route.
 */
import type { RequestHandler } from 'express';
import type { EmulatorState } from './emulator-state';

export function idempotentReplay(state: EmulatorState): RequestHandler {
  return (req, res, next) => {
    const header = req.headers['idempotency-key'];
    const key = typeof header === 'string' && header.length > 0 ? `${req.method} ${req.baseUrl}${req.path}\u0000${header}` : undefined;
    const accountId = res.locals['accountId'] as string;
    if (!key) return next();
    // A route that holds its answer back (a test's lost answer) stores it at once under this key.
    res.locals['idempotencyKey'] = key;
    const replay = state.replay(accountId, key);
    if (replay) {
      res.locals['idempotentReplay'] = true;
      res.status(replay.status).json(replay.body);
      return;
    }
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode >= 200 && res.statusCode <= 299) state.remember(accountId, key, res.statusCode, body);
      return json(body);
    };
    next();
  };
}
