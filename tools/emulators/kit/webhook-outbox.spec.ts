import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { activityStats, DeliveryLog, withoutQuery, type DeliveryRecord } from './delivery-log';
import { FaultRegistry } from './fault-registry';
import { createEmulatorLogger } from './logger';
import { transportErrorCode, WebhookOutbox, type OutboundWebhook } from './webhook-outbox';
import { eventuallyExpect } from '@orquestra/platform/testing';

jest.setTimeout(30_000);

interface Delivery extends DeliveryRecord {
  event: string;
}

/** The smallest provider: one event to one URL, the scheme's parts given by the test. */
class Outbox extends WebhookOutbox<Delivery> {
  readonly received: boolean[] = [];

  notify(url: string, scheme: Partial<OutboundWebhook<Delivery>> = {}): Delivery {
    const delivery = this.log.start({ event: 'charge.paid', urlWithoutQuery: withoutQuery(url) });
    this.enqueue({
      delivery,
      url,
      body: '{"event":"charge.paid"}',
      headers: (attempt) => ({ 'content-type': 'application/json', 'x-attempt': String(attempt) }),
      afterAttempt: (received) => this.received.push(received),
      ...scheme,
    });
    return delivery;
  }
}

const logger = createEmulatorLogger('outbox-spec', 'silent');
const at = new Date('2026-01-02T03:04:05.000Z');

let server: Server;
let url: string;
let answers: number[];
let seen: { headers: IncomingHttpHeaders; body: string; url: string }[];

beforeEach(async () => {
  answers = [];
  seen = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ headers: req.headers, body, url: req.url ?? '' });
      res.statusCode = answers.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks?secret=s3cret`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('WebhookOutbox', () => {
  it('retries until received, with fresh headers per attempt, and records every attempt without the query', async () => {
    const log = new DeliveryLog<Delivery>();
    const outbox = new Outbox({ now: () => at }, log, { retries: 3, baseDelayMs: 1 }, logger);
    answers = [500, 404];
    const delivery = outbox.notify(url);
    await outbox.idle();

    expect(seen.map((s) => s.headers['x-attempt'])).toEqual(['0', '1', '2']);
    expect(seen.every((s) => s.body === '{"event":"charge.paid"}' && s.url === '/hooks?secret=s3cret')).toBe(true);
    expect(delivery).toMatchObject({ id: 1, urlWithoutQuery: url.replace('?secret=s3cret', ''), outcome: 'delivered' });
    expect(delivery.attempts).toEqual([
      { at: at.toISOString(), status: 500 },
      { at: at.toISOString(), status: 404 },
      { at: at.toISOString(), status: 200 },
    ]);
    expect(outbox.received).toEqual([false, false, true]);
    expect(log.counters).toEqual({ webhooks_sent: 1, webhooks_failed: 0, webhook_attempts: 3 });
    await outbox.close();
  });

  it("fails after the retries, and counts as received only what the provider's scheme accepts", async () => {
    const log = new DeliveryLog<Delivery>();
    const outbox = new Outbox({ now: () => at }, log, { retries: 1, baseDelayMs: 1 }, logger);
    answers = [201, 201];
    const delivery = outbox.notify(url, { accepted: (status) => status === 200 });
    await outbox.idle();

    expect(seen).toHaveLength(2);
    expect(delivery.outcome).toBe('failed');
    expect(log.pending()).toBe(0);
    expect(log.counters).toEqual({ webhooks_sent: 0, webhooks_failed: 1, webhook_attempts: 2 });
    await outbox.close();
  });

  it('records the transport error code when the receiver is gone', async () => {
    const log = new DeliveryLog<Delivery>();
    const outbox = new Outbox({ now: () => at }, log, { retries: 0 }, logger);
    server.close();
    const delivery = outbox.notify(url);
    await outbox.idle();

    expect(delivery.outcome).toBe('failed');
    expect(delivery.attempts).toEqual([{ at: at.toISOString(), error: 'ECONNREFUSED' }]);
    await outbox.close();
  });

  it('stops waiting for retries on close, leaving no attempt after it', async () => {
    const log = new DeliveryLog<Delivery>();
    const outbox = new Outbox({ now: () => at }, log, { retries: 5, baseDelayMs: 60_000 }, logger);
    answers = [503];
    const delivery = outbox.notify(url);
    // The first attempt (a 503) over HTTP, then a retry a minute away that close must not wait for.
    await eventuallyExpect(() => expect(delivery.attempts).toHaveLength(1));
    const started = Date.now();
    await outbox.close();

    expect(Date.now() - started).toBeLessThan(5_000);
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.outcome).toBe('failed');
  });
});

describe('transportErrorCode', () => {
  it('finds the code on the error, its cause, or the first of an aggregate', () => {
    expect(transportErrorCode({ code: 'ECONNRESET' })).toBe('ECONNRESET');
    expect(transportErrorCode({ cause: { code: 'UND_ERR_HEADERS_TIMEOUT' } })).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(transportErrorCode({ errors: [{ code: 'ECONNREFUSED' }, { code: 'EHOSTUNREACH' }] })).toBe('ECONNREFUSED');
    expect(transportErrorCode(new Error('no code'))).toBe('UNKNOWN');
  });
});

describe('DeliveryLog', () => {
  it('numbers deliveries unless the provider names them, counts only what it is told to, and clears', () => {
    const log = new DeliveryLog<Delivery>((d) => d.event !== 'test');
    const first = log.start({ event: 'charge.paid', urlWithoutQuery: 'http://x/a' });
    const named = log.start({ id: 'hook_1', event: 'charge.paid', urlWithoutQuery: 'http://x/a' });
    const test = log.start({ event: 'test', urlWithoutQuery: 'http://x/a' });
    expect([first.id, named.id, test.id]).toEqual([1, 'hook_1', 2]);
    log.finish(first, 'delivered');
    log.finish(test, 'failed');
    expect(log.counters).toEqual({ webhooks_sent: 1, webhooks_failed: 0, webhook_attempts: 0 });
    expect(log.pending()).toBe(1);
    log.clear();
    expect(log.list()).toEqual([]);
    expect(log.start({ event: 'charge.paid', urlWithoutQuery: 'http://x/a' }).id).toBe(3);
  });
});

describe('activityStats', () => {
  it('sums the faults of every registry and counts the pending deliveries', () => {
    const log = new DeliveryLog<Delivery>();
    const finished = log.start({ event: 'charge.paid', urlWithoutQuery: 'http://x/a' });
    log.start({ event: 'charge.paid', urlWithoutQuery: 'http://x/a' });
    log.recordAttempt(finished, { at: at.toISOString(), status: 200 });
    log.finish(finished, 'delivered');
    const api = new FaultRegistry();
    const creates = new FaultRegistry();
    api.count();
    creates.count();
    creates.count();
    expect(activityStats(log, api, creates)).toEqual({ webhooks_sent: 1, webhooks_failed: 0, webhook_attempts: 1, faults_injected: 3, deliveries_pending: 1 });
  });
});
