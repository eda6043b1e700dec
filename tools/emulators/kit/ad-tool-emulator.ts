/**
 * What the three ad-tool emulators (utmify, meta, tiktok) share, besides the rest of the kit:
 * - `AdToolState`: the tokens the tool knows (each optionally bound to pixels), what arrived
 *   (`ReceivedLog`: every API request with its outcome, body and answer, never the token), the
 *   API's faults with a budget (`AdFaults`: the next N requests, or until cleared), the clock.
 * - `adFaultMiddleware`: the API port's faults as the tool answers them (its 5xx body, a hang, a
 *   dropped connection, a slow answer), each recorded as received.
 * - `adControlRoutes`: `POST /__control/tokens`, `GET|DELETE /__control/received`,
 *   `GET|POST|DELETE /__control/faults`; `controlPort` adds health, stats, clock and reset.
 * Unlike the payment emulators these send no webhooks: the tools only receive.
 */
import { createHash } from 'node:crypto';
import { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { EmulatorClock } from './clock';
import { sendControlError as fail } from './control-port';
import type { FaultAnswer } from './fault-injection';
import { FaultRegistry } from './fault-registry';
import type { Logger } from './logger';
import type { PersistentStore } from './state-file';

/** A token's non-secret name in answers and logs: the first 12 hex characters of its SHA-256. */
export const tokenId = (token: string): string => createHash('sha256').update(token).digest('hex').slice(0, 12);

export type ReceivedOutcome = 'accepted' | 'rejected' | 'fault';

export interface ReceivedRequest {
  seq: number;
  /** The emulator clock's time of arrival (ISO). */
  at: string;
  method: string;
  path: string;
  /** Whether the request carried a token the tool knows (`missing`: none at all). */
  auth: 'ok' | 'unknown' | 'missing';
  /** The token's id (tokenId), never the token. */
  token_id: string | null;
  outcome: ReceivedOutcome;
  /** The fault that answered, when one did. */
  fault: AdFaultMode | null;
  status: number;
  /** A test send (Utmify `isTest`, Meta/TikTok `test_event_code`): validated, not counted. */
  test: boolean;
  /** What the tool files it under: `order_id` (Utmify), `event_ids` and `pixel` (Meta, TikTok). */
  keys: Record<string, string | string[]>;
  body: unknown;
  answer: unknown;
}

/** Query filters of `GET /__control/received`: outcome, test, and any of the keys (`order_id`, `event_id`, `pixel`). */
export function receivedMatches(record: ReceivedRequest, query: Record<string, unknown>): boolean {
  for (const [name, value] of Object.entries(query)) {
    if (typeof value !== 'string') continue;
    if (name === 'outcome' && record.outcome !== value) return false;
    if (name === 'test' && String(record.test) !== value) return false;
    if (name === 'auth' && record.auth !== value) return false;
    if (name === 'event_id' && !(record.keys['event_ids'] ?? []).includes(value)) return false;
    if ((name === 'order_id' || name === 'pixel') && record.keys[name] !== value) return false;
  }
  return true;
}

export class ReceivedLog {
  private records: ReceivedRequest[] = [];
  private seq = 0;

  constructor(private readonly limit = 5_000) {}

  add(record: Omit<ReceivedRequest, 'seq'>): ReceivedRequest {
    const full = { seq: ++this.seq, ...record };
    this.records.push(full);
    // Old entries go first: a long-running local stack must not grow without bound.
    if (this.records.length > this.limit) this.records.splice(0, this.records.length - this.limit);
    return full;
  }

  list(query: Record<string, unknown> = {}): ReceivedRequest[] {
    return this.records.filter((record) => receivedMatches(record, query));
  }

  clear(): void {
    this.records = [];
  }

  get size(): number {
    return this.records.length;
  }
}

/** error: a 5xx with the tool's body; slow: answered normally after `latency_ms`; hang: never answered; reset: connection dropped. */
export const AD_FAULT_MODES = ['error', 'slow', 'hang', 'reset'] as const;
export type AdFaultMode = (typeof AD_FAULT_MODES)[number];

export interface AdFault {
  mode: AdFaultMode;
  /** The status of `error` (500–599, default 500). */
  status: number;
  /** The wait of `slow` (default 2 000 ms). */
  latency_ms: number;
  /** How many more requests it acts on; null: until cleared. */
  remaining: number | null;
}

export const adFaultSchema = z
  .object({
    mode: z.enum(AD_FAULT_MODES),
    status: z.number().int().min(500).max(599).optional(),
    latency_ms: z.number().int().min(0).max(600_000).optional(),
    times: z.number().int().min(1).max(1_000_000).optional(),
  })
  .strict();

/** The API's faults: one at a time, for the next `times` requests or until cleared. */
export class AdFaults {
  private current: AdFault | undefined;
  injected = 0;

  set(input: z.infer<typeof adFaultSchema>): AdFault {
    this.current = { mode: input.mode, status: input.status ?? 500, latency_ms: input.latency_ms ?? 2_000, remaining: input.times ?? null };
    return { ...this.current };
  }

  clear(): void {
    this.current = undefined;
  }

  show(): AdFault | null {
    return this.current ? { ...this.current } : null;
  }

  /** The fault acting on this request, counted against its budget. */
  take(): AdFault | undefined {
    const fault = this.current;
    if (!fault) return undefined;
    this.injected += 1;
    if (fault.remaining !== null) {
      fault.remaining -= 1;
      if (fault.remaining <= 0) this.current = undefined;
    }
    return { ...fault };
  }
}

interface TokenEntry {
  token: string;
  /** Pixels (Meta pixel ids, TikTok pixel codes) the token may send to; empty: any. */
  pixels: string[];
}

interface AdToolSnapshot {
  tokens: TokenEntry[];
  clockOffsetMs: number;
}

/** Tokens, received requests, faults and clock of one ad-tool emulator. */
export class AdToolState implements PersistentStore<AdToolSnapshot> {
  readonly received = new ReceivedLog();
  readonly faults = new AdFaults();
  /** The kit's registry, which hostEmulator requires; ad emulators use `faults` instead (budgets). */
  readonly kitFaults = new FaultRegistry();
  readonly clock: EmulatorClock;
  private readonly tokens = new Map<string, TokenEntry>();

  constructor(now: () => Date) {
    this.clock = new EmulatorClock(now);
  }

  /** Registers a token (or adds pixels to a known one); `created` false when it was known. */
  registerToken(token: string, pixels: string[] = []): { token_id: string; created: boolean; pixels: string[] } {
    const known = this.tokens.get(token);
    const entry = known ?? { token, pixels: [] };
    for (const pixel of pixels) if (!entry.pixels.includes(pixel)) entry.pixels.push(pixel);
    this.tokens.set(token, entry);
    return { token_id: tokenId(token), created: !known, pixels: [...entry.pixels] };
  }

  /** `ok` when the token is known and may send to `pixel` (when the tool names one). */
  checkToken(token: string | undefined, pixel?: string): 'ok' | 'unknown' | 'missing' | 'pixel' {
    if (!token) return 'missing';
    const entry = this.tokens.get(token);
    if (!entry) return 'unknown';
    if (pixel !== undefined && entry.pixels.length > 0 && !entry.pixels.includes(pixel)) return 'pixel';
    return 'ok';
  }

  stats(): Record<string, unknown> {
    const all = this.received.list();
    const count = (outcome: ReceivedOutcome) => all.filter((r) => r.outcome === outcome).length;
    return { tokens: this.tokens.size, received: all.length, accepted: count('accepted'), rejected: count('rejected'), faults: count('fault'), faults_injected: this.faults.injected };
  }

  /** Forgets what tests leave behind (received requests, faults); tokens stay. */
  reset(): void {
    this.received.clear();
    this.faults.clear();
  }

  snapshot(): AdToolSnapshot {
    return { tokens: [...this.tokens.values()], clockOffsetMs: this.clock.offset() };
  }

  restore(snapshot: AdToolSnapshot): void {
    for (const entry of snapshot.tokens ?? []) this.tokens.set(entry.token, { token: entry.token, pixels: [...entry.pixels] });
    this.clock.restoreOffset(snapshot.clockOffsetMs);
  }
}

/** What the tool answers an injected `error` (its own 5xx body). */
export type AdErrorBody = (status: number) => FaultAnswer;

/**
 * The API port's faults, first thing on every request. The request is recorded as received (its
 * body is not parsed yet: the fault acts before the tool reads anything).
 */
export function adFaultMiddleware(state: AdToolState, errorBody: AdErrorBody, logger: Logger): RequestHandler {
  return (req, res, next) => {
    const fault = state.faults.take();
    if (!fault) return next();
    const record = (status: number, answer: unknown) =>
      state.received.add({
        at: state.clock.now().toISOString(),
        method: req.method,
        path: req.path,
        auth: 'missing',
        token_id: null,
        outcome: 'fault',
        fault: fault.mode,
        status,
        test: false,
        keys: {},
        body: null,
        answer,
      });
    logger.debug({ fault: fault.mode, path: req.path }, 'fault injected');
    switch (fault.mode) {
      case 'error': {
        const answer = errorBody(fault.status);
        record(answer.status, answer.body);
        res.status(answer.status).json(answer.body);
        return;
      }
      case 'hang':
        // Left open: the client's timeout ends it; the emulator's stop() closes such connections.
        record(0, null);
        return;
      case 'reset':
        record(0, null);
        req.socket.destroy();
        return;
      case 'slow': {
        // Answered normally once the wait is over (so a client with a shorter timeout sees a timeout).
        const timer = setTimeout(next, fault.latency_ms);
        req.socket.once('close', () => clearTimeout(timer));
        return;
      }
    }
  };
}

const tokenSchema = z
  .object({
    token: z.string().min(1).max(4096),
    /** Meta pixel ids or TikTok pixel codes the token may send to (absent: any). */
    pixels: z.array(z.string().min(1).max(64)).max(100).optional(),
  })
  .strict();

/**
 * The ad emulators' own control routes:
 * - `POST /__control/tokens` `{token, pixels?}` → 201 (new) or 200 `{token_id, pixels}`;
 * - `GET /__control/received[?outcome=&test=&auth=&order_id=&event_id=&pixel=]` → `{received: ReceivedRequest[]}`;
 *   `DELETE /__control/received` → 204;
 * - `POST /__control/faults` `{mode: error|slow|hang|reset, status?, latency_ms?, times?}` → 200 `{fault}`;
 *   `GET /__control/faults` → `{fault|null}`; `DELETE /__control/faults` → 204.
 */
export function adControlRoutes(state: AdToolState, logger: Logger): Router {
  const routes = Router();
  routes.post('/__control/tokens', (req, res) => {
    const parsed = tokenSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { token_id, created, pixels } = state.registerToken(parsed.data.token, parsed.data.pixels);
    logger.info({ token_id, created }, 'token registered');
    res.status(created ? 201 : 200).json({ token_id, pixels });
  });
  routes.get('/__control/received', (req: Request, res) => {
    res.status(200).json({ received: state.received.list(req.query as Record<string, unknown>) });
  });
  routes.delete('/__control/received', (_req, res) => {
    state.received.clear();
    res.status(204).end();
  });
  routes.get('/__control/faults', (_req, res) => {
    res.status(200).json({ fault: state.faults.show() });
  });
  routes.post('/__control/faults', (req, res) => {
    const parsed = adFaultSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const fault = state.faults.set(parsed.data);
    logger.info({ fault }, 'fault set');
    res.status(200).json({ fault });
  });
  routes.delete('/__control/faults', (_req, res) => {
    state.faults.clear();
    res.status(204).end();
  });
  return routes;
}

/** The `webhooks` part hostEmulator stops: the ad tools send none. */
export const NO_WEBHOOKS = { idle: async () => undefined, close: async () => undefined };
