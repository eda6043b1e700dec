/**
 * Pix Automático (PIX_RECURRING subscriptions) in the Woovi emulator over HTTP: approval in the
 * payer's bank or by paying the approval charge, refusal, cycle charges Woovi creates on a clock
 * the test moves, a failed debit retried per THREE_RETRIES_7_DAYS, cancellation, signed webhooks,
 * and a restart. The clock starts on Monday 2026-03-02, 09:00 in São Paulo, and only moves forward.
 */
import { createVerify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWooviEmulator, type WooviEmulator } from './woovi-emulator';

const APP = 'pix-recurring-spec-app';
const BASE = new Date('2026-03-02T12:00:00.000Z');
const EVENTS = [
  'PIX_AUTOMATIC_APPROVED',
  'PIX_AUTOMATIC_REJECTED',
  'PIX_AUTOMATIC_CANCELED',
  'PIX_AUTOMATIC_COBR_COMPLETED',
  'PIX_AUTOMATIC_COBR_TRY_REJECTED',
  'PIX_AUTOMATIC_COBR_REJECTED',
  'OPENPIX:CHARGE_CREATED',
  'OPENPIX:CHARGE_COMPLETED',
  'OPENPIX:CHARGE_EXPIRED',
];

type Answer = { status: number; json: Record<string, any> };

let dir: string;
let emulator: WooviEmulator;
let api: string;
let control: string;
let receiver: Server;
const received: { event: string; signed: boolean; charge?: { correlationID: string }; subscription?: { correlationID: string; status: string } }[] = [];

async function start(): Promise<void> {
  emulator = createWooviEmulator({ accounts: [APP], webhooks: { retries: 0 }, now: () => BASE, sweepMs: 0, stateFile: join(dir, 'woovi.json') });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
}

async function http(method: string, url: string, body?: unknown, appId?: string): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(appId ? { authorization: appId } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, any>) : {} };
}
const call = (method: string, path: string, body?: unknown) => http(method, `${api}${path}`, body, APP);
const ctl = (method: string, path: string, body?: unknown) => http(method, `${control}${path}`, body);
const advanceTo = (at: string) => ctl('POST', '/__control/clock', { set: at });

const subscription = (correlationID: string, overrides: Record<string, unknown> = {}) => ({
  type: 'PIX_RECURRING',
  correlationID,
  value: 4990,
  customer: { name: 'Fulana de Tal', taxID: '529.982.247-25', address: { zipcode: '01310100', street: 'Av. Paulista', number: '1000', city: 'São Paulo', state: 'SP' } },
  comment: 'Plano mensal',
  frequency: 'MONTHLY',
  dayGenerateCharge: 10,
  dayDue: 7,
  pixRecurringOptions: { journey: 'ONLY_RECURRENCY', retryPolicy: 'THREE_RETRIES_7_DAYS' },
  ...overrides,
});

/** The events about a subscription and its charges, sorted: concurrent deliveries arrive in any order. */
async function events(correlationID: string): Promise<string[]> {
  await emulator.webhooksIdle();
  expect(received.every((r) => r.signed)).toBe(true);
  return received
    .filter((r) => r.subscription?.correlationID === correlationID || r.charge?.correlationID.startsWith(correlationID))
    .map((r) => `${r.event.replace('OPENPIX:', '')}:${r.charge ? r.charge.correlationID.slice(correlationID.length + 1) : r.subscription?.status}`)
    .sort();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'woovi-pix-recurring-'));
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const signed = createVerify('sha256').update(body).verify(emulator.publicKeyPem, String(req.headers['x-webhook-signature']), 'base64');
      const parsed = JSON.parse(body) as Record<string, any>;
      if (parsed['event']) received.push({ ...(parsed as (typeof received)[number]), signed });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await start();
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/woovi`;
  for (const event of EVENTS) expect((await call('POST', '/api/v1/webhook', { webhook: { name: event, event, url, isActive: true } })).status).toBe(200);
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('PIX_RECURRING subscriptions', () => {
  it('ONLY_RECURRENCY: approved in the bank app; Woovi creates the cycle 4 days ahead; paid on its payment date', async () => {
    const created = await call('POST', '/api/v1/subscriptions', subscription('sub-a'));
    expect(created.status).toBe(200);
    expect(created.json['subscription']).toMatchObject({ type: 'PIX_RECURRING', status: 'PENDING', value: 4990, startDate: '2026-03-10', pixRecurring: { journey: 'ONLY_RECURRENCY', retryPolicy: 'THREE_RETRIES_7_DAYS' } });
    expect(created.json['subscription'].pixRecurring.recurrencyId).toMatch(/^RR\d{8}20260302[a-zA-Z0-9]{11}$/);
    expect(created.json['subscription'].pixRecurring.emv).toContain('br.gov.bcb.pix');

    expect((await ctl('POST', '/__control/subscriptions/sub-a/approve')).json['subscription']).toMatchObject({ status: 'ACTIVE', cycles: [] });
    await advanceTo('2026-03-06T12:00:00Z');
    expect((await call('GET', '/api/v1/subscriptions/sub-a')).json['subscription'].cycles).toEqual([{ dueDate: '2026-03-10', expiresDate: '2026-03-17', chargeCorrelationID: 'sub-a-0', failedAttempts: [], nextAttempt: '2026-03-10' }]);
    expect((await call('GET', '/api/v1/charge/sub-a-0')).json['charge']).toMatchObject({ status: 'ACTIVE', value: 4990 });
    expect((await ctl('POST', '/__control/charges/sub-a-0/pay')).json).toMatchObject({ error: 'not_due' });
    await advanceTo('2026-03-10T12:00:00Z');
    expect((await ctl('POST', '/__control/charges/sub-a-0/pay')).json).toMatchObject({ status: 'COMPLETED' });
    expect(await events('sub-a')).toEqual(['CHARGE_COMPLETED:0', 'CHARGE_CREATED:0', 'PIX_AUTOMATIC_APPROVED:ACTIVE', 'PIX_AUTOMATIC_COBR_COMPLETED:0']);
  });

  it('retries a failed debit the day after, midway and on the expiry date, then rejects the charge when it expires', async () => {
    await advanceTo('2026-04-06T12:00:00Z');
    await advanceTo('2026-04-10T12:00:00Z');
    expect((await ctl('POST', '/__control/charges/sub-a-1/fail')).json).toEqual({ correlationID: 'sub-a-1', status: 'ACTIVE', nextAttempt: '2026-04-11' });
    expect((await ctl('POST', '/__control/charges/sub-a-1/fail')).json).toMatchObject({ error: 'not_due' });
    for (const [date, next] of [['2026-04-11', '2026-04-13'], ['2026-04-13', '2026-04-17']] as const) {
      await advanceTo(`${date}T12:00:00Z`);
      expect((await ctl('POST', '/__control/charges/sub-a-1/fail')).json).toEqual({ correlationID: 'sub-a-1', status: 'ACTIVE', nextAttempt: next });
    }
    await advanceTo('2026-04-17T12:00:00Z');
    expect((await ctl('POST', '/__control/charges/sub-a-1/fail')).json).toEqual({ correlationID: 'sub-a-1', status: 'ACTIVE' });
    expect((await call('GET', '/api/v1/subscriptions/sub-a')).json['subscription'].cycles[1]).toMatchObject({ failedAttempts: ['2026-04-10', '2026-04-11', '2026-04-13', '2026-04-17'] });
    expect(await events('sub-a')).not.toContain('PIX_AUTOMATIC_COBR_REJECTED:1');
    await advanceTo('2026-04-18T12:00:00Z');
    expect((await call('GET', '/api/v1/charge/sub-a-1')).json['charge']).toMatchObject({ status: 'EXPIRED' });
    const seen = await events('sub-a');
    expect(seen.filter((e) => e === 'PIX_AUTOMATIC_COBR_TRY_REJECTED:1')).toHaveLength(4);
    expect(seen).toEqual(expect.arrayContaining(['CHARGE_EXPIRED:1', 'PIX_AUTOMATIC_COBR_REJECTED:1']));
  });

  it('a retried debit can be paid', async () => {
    await advanceTo('2026-05-06T12:00:00Z');
    await advanceTo('2026-05-10T12:00:00Z');
    await ctl('POST', '/__control/charges/sub-a-2/fail');
    await advanceTo('2026-05-11T12:00:00Z');
    expect((await ctl('POST', '/__control/charges/sub-a-2/pay')).json).toMatchObject({ status: 'COMPLETED' });
  });

  it('PAYMENT_ON_APPROVAL: paying the approval charge (today) activates it as the first cycle; refusal; bad bodies', async () => {
    const onApproval = { journey: 'PAYMENT_ON_APPROVAL' };
    expect((await call('POST', '/api/v1/subscriptions', subscription('sub-b', { dayGenerateCharge: 12, pixRecurringOptions: onApproval }))).status).toBe(400);
    const created = await call('POST', '/api/v1/subscriptions', subscription('sub-b', { dayGenerateCharge: '2026-05-11T12:00:00.000Z', frequency: 'WEEKLY', pixRecurringOptions: onApproval }));
    const approval = created.json['subscription'].pixRecurring.approvalChargeCorrelationID;
    expect(approval).toBe('sub-b-approval');
    expect((await ctl('POST', '/__control/subscriptions/sub-b/approve')).status).toBe(409);
    await ctl('POST', `/__control/charges/${approval}/pay`);
    expect((await call('GET', '/api/v1/subscriptions/sub-b')).json['subscription']).toMatchObject({ status: 'ACTIVE', cycles: [], pixRecurring: { retryPolicy: 'NON_PERMITED' } });
    await advanceTo('2026-05-14T12:00:00Z');
    expect((await call('GET', '/api/v1/subscriptions/sub-b')).json['subscription'].cycles.map((c: { dueDate: string }) => c.dueDate)).toEqual(['2026-05-18']);

    await call('POST', '/api/v1/subscriptions', subscription('sub-c', { dayGenerateCharge: 1 }));
    expect((await ctl('POST', '/__control/subscriptions/sub-c/refuse')).json['subscription']).toMatchObject({ status: 'REJECTED', startDate: '2026-06-01' });
    expect((await call('POST', '/api/v1/subscriptions', subscription('sub-d', { type: 'RECURRENT' }))).status).toBe(400);
    expect((await call('POST', '/api/v1/subscriptions', subscription('sub-d', { customer: { name: 'X', taxID: '52998224725' } }))).json).toEqual({ error: 'customer.address é obrigatório' });
    expect((await call('POST', '/api/v1/subscriptions', subscription('sub-d', { comment: 'x'.repeat(30) }))).status).toBe(400);
    expect((await call('POST', '/api/v1/subscriptions', subscription('sub-b'))).status).toBe(400);
  });

  it('without retries, a failed debit leaves the charge to expire; cancelling removes open cycles and stops further ones', async () => {
    await advanceTo('2026-05-18T12:00:00Z');
    expect((await ctl('POST', '/__control/charges/sub-b-1/fail')).json).toEqual({ correlationID: 'sub-b-1', status: 'ACTIVE' });
    expect((await ctl('POST', '/__control/charges/sub-b-1/pay')).json).toMatchObject({ error: 'not_due' });
    await advanceTo('2026-05-21T12:00:00Z');
    expect((await call('GET', '/api/v1/charge/sub-b-2')).json['charge']).toMatchObject({ status: 'ACTIVE' });
    expect((await call('DELETE', '/api/v1/subscriptions/sub-b')).json['subscription']).toMatchObject({ status: 'CANCELED' });
    expect((await call('GET', '/api/v1/charge/sub-b-2')).status).toBe(400);
    await advanceTo('2026-06-30T12:00:00Z');
    expect((await call('GET', '/api/v1/subscriptions/sub-b')).json['subscription'].cycles).toHaveLength(2);
    const seen = await events('sub-b');
    expect(seen.filter((e) => e.startsWith('PIX_AUTOMATIC'))).toEqual(['PIX_AUTOMATIC_APPROVED:ACTIVE', 'PIX_AUTOMATIC_CANCELED:CANCELED', 'PIX_AUTOMATIC_COBR_TRY_REJECTED:1']);
    expect((await call('DELETE', '/api/v1/subscriptions/sub-b')).status).toBe(400);
  });
});

describe('restart', () => {
  it('keeps subscriptions, their cycles and the clock in the state file', async () => {
    const clock = (await ctl('GET', '/__control/clock')).json;
    const before = (await call('GET', '/api/v1/subscriptions')).json;
    await emulator.stop();
    await start();
    expect((await ctl('GET', '/__control/clock')).json).toEqual(clock);
    expect((await call('GET', '/api/v1/subscriptions')).json).toEqual(before);
    expect(before['subscriptions'].map((s: { status: string }) => s.status)).toEqual(['ACTIVE', 'CANCELED', 'REJECTED']);
  });
});
