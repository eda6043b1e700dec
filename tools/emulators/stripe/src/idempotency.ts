/**
 * `Idempotency-Key` on POST requests, as Stripe's API v1 does it (docs.stripe.com/api/idempotent_requests,
 * docs.stripe.com/error-low-level): the status and body of the first request with a key are saved
 * once the endpoint began executing, and a repeat with the same key and parameters gets them back
 * with `Idempotent-Replayed: true`; other parameters or another endpoint → 400 `idempotency_error`;
 * a repeat while the first is still running → 409 `idempotency_key_in_use`. Answers produced
 * before execution (authentication, parameter validation, rate limiting, injected faults) are not
 * saved. Keys are scoped to the account and pruned after 24 hours.
 */
import type { RequestHandler } from 'express';
import { accountOf } from './auth';
import type { EmulatorState } from './emulator-state';
import { REPLAYABLE_ERROR, stripeErrors } from './stripe-errors';

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function idempotency(state: EmulatorState): RequestHandler {
  return (req, res, next) => {
    const key = req.get('idempotency-key');
    if (req.method !== 'POST' || key === undefined) return next();
    if (key.length > 255) throw stripeErrors.idempotencyKeyTooLong();
    const accountId = accountOf(res).id;
    const path = req.originalUrl.split('?')[0] ?? '';
    const fingerprint = stableStringify(req.body ?? {});
    const existing = state.getIdempotency(accountId, key);
    if (existing) {
      if (!existing.response) throw stripeErrors.idempotencyKeyInUse();
      if (existing.method !== req.method || existing.path !== path || existing.fingerprint !== fingerprint) throw stripeErrors.idempotencyMismatch(key);
      res.setHeader('Idempotent-Replayed', 'true');
      res.setHeader('Original-Request', existing.requestId);
      res.status(existing.response.status).json(existing.response.body);
      return;
    }
    const record = { method: req.method, path, fingerprint, createdAtMs: state.now().getTime(), requestId: String(res.locals['requestId']) };
    state.setIdempotency(accountId, key, record);
    res.locals['idempotencyKey'] = key;
    // Frees the key unless a later request already took it over.
    const release = () => {
      if (state.getIdempotency(accountId, key) === record) state.deleteIdempotency(accountId, key);
    };
    // An endpoint that made its object but withholds the answer (fault injection) still keeps it here.
    res.locals['keepIdempotentAnswer'] = (status: number, body: unknown) => Object.assign(record, { response: { status, body } });
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const keep = res.statusCode < 400 || res.locals[REPLAYABLE_ERROR] === true;
      if (keep) Object.assign(record, { response: { status: res.statusCode, body } });
      else release();
      return json(body);
    };
    // No answer at all (connection lost mid-request): the key is free again.
    res.on('close', () => {
      if (!('response' in record)) release();
    });
    next();
  };
}
