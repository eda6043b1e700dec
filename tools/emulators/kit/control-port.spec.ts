import { Router } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmulatorClock } from './clock';
import { controlPort, escapeHtml, type ControlBasics } from './control-port';
import { FaultRegistry } from './fault-registry';
import { createEmulatorLogger } from './logger';

const logger = createEmulatorLogger('control-port-spec', 'silent');

let server: Server;
let base: string;
let resets: number;
let faults: FaultRegistry;

async function serve(basics: Partial<ControlBasics> = {}): Promise<void> {
  const routes = Router();
  routes.post('/__control/echo', (req, res) => {
    res.status(200).json({ got: req.body as unknown });
  });
  const pages = Router();
  pages.post('/pages/form', (req, res) => {
    res.status(200).json({ parsed: req.body !== undefined });
  });
  const app = controlPort(routes, {
    logger,
    stats: () => ({ charges: 1 }),
    deliveries: () => [{ id: 1 }],
    reset: () => (resets += 1),
    faults: { registry: faults, param: 'account', scopeOf: (value) => `acc_${value}` },
    pages,
    ...basics,
  });
  await new Promise<void>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function call(method: string, path: string, body?: string): Promise<{ status: number; json: Record<string, unknown> | undefined }> {
  const res = await fetch(`${base}${path}`, { method, ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }) });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

beforeEach(() => {
  resets = 0;
  faults = new FaultRegistry();
});
afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('controlPort', () => {
  it('serves health, stats, deliveries and reset around the emulator’s own routes', async () => {
    await serve();
    expect(await call('GET', '/__control/health')).toEqual({ status: 200, json: { status: 'ok' } });
    expect(await call('POST', '/__control/echo', '{"a":1}')).toEqual({ status: 200, json: { got: { a: 1 } } });
    expect(await call('GET', '/__control/stats')).toEqual({ status: 200, json: { charges: 1 } });
    expect(await call('GET', '/__control/webhooks/deliveries')).toEqual({ status: 200, json: { deliveries: [{ id: 1 }] } });
    expect((await call('POST', '/__control/reset')).status).toBe(204);
    expect(resets).toBe(1);
  });

  it('sets and clears faults per named scope or globally, and refuses unknown settings', async () => {
    await serve();
    expect(await call('POST', '/__control/faults', '{"account":"k1","error_rate":1}')).toEqual({ status: 200, json: { scope: 'acc_k1', faults: { error_rate: 1 } } });
    expect(await call('POST', '/__control/faults', '{"latency_ms":5}')).toEqual({ status: 200, json: { scope: 'global', faults: { latency_ms: 5 } } });
    expect(faults.for('acc_k1')).toEqual({ error_rate: 1 });
    expect((await call('POST', '/__control/faults', '{"client_id":"k1"}')).json).toMatchObject({ error: 'invalid_request' });
    expect((await call('DELETE', '/__control/faults?account=k1')).status).toBe(204);
    expect(faults.for('acc_k1')).toEqual({ latency_ms: 5 });
    expect((await call('DELETE', '/__control/faults')).status).toBe(204);
    expect(faults.for(undefined)).toBeUndefined();
  });

  it('names the scope as the emulator shows it, and leaves fault routes to an emulator that serves its own', async () => {
    await serve({ faults: { registry: faults, param: 'account', shown: (scope) => (scope ? 'account' : 'global') } });
    expect((await call('POST', '/__control/faults', '{"account":"k1","hang":true}')).json).toEqual({ scope: 'account', faults: { hang: true } });
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await serve({ faults: undefined });
    expect(await call('POST', '/__control/faults', '{}')).toEqual({ status: 404, json: { error: 'not_found', message: 'unknown control route' } });
  });

  it('moves the clock forward on request, runs what became due, refuses going back, and resets it', async () => {
    const clock = new EmulatorClock(() => new Date('2026-03-02T12:00:00.000Z'));
    let changes = 0;
    await serve({ clock: { clock, onChange: () => (changes += 1) } });
    expect(await call('POST', '/__control/clock', '{"advance_days":2}')).toEqual({ status: 200, json: { now: '2026-03-04T12:00:00.000Z', offset_ms: 172_800_000 } });
    expect((await call('POST', '/__control/clock', '{"set":"2026-03-05T00:00:00Z"}')).json).toMatchObject({ now: '2026-03-05T00:00:00.000Z' });
    expect(changes).toBe(2);
    expect(await call('POST', '/__control/clock', '{"set":"2026-03-01T00:00:00Z"}')).toEqual({ status: 409, json: { error: 'clock_backwards', message: 'the clock only moves forward' } });
    expect((await call('POST', '/__control/clock', '{"advance_ms":1,"advance_days":1}')).status).toBe(400);
    expect(changes).toBe(2);
    expect((await call('POST', '/__control/reset')).status).toBe(204);
    expect(await call('GET', '/__control/clock')).toEqual({ status: 200, json: { now: '2026-03-02T12:00:00.000Z', offset_ms: 0 } });
  });

  it('answers bad JSON and unknown routes in the control port’s error shape, and leaves pages’ bodies unparsed', async () => {
    await serve();
    expect(await call('POST', '/__control/echo', '{"a":')).toEqual({ status: 400, json: { error: 'invalid_json', message: 'body is not valid JSON' } });
    expect((await call('GET', '/nowhere')).status).toBe(404);
    expect(await call('POST', '/pages/form', '{"a":1}')).toEqual({ status: 200, json: { parsed: false } });
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
