/**
 * Pix Automático in the Asaas emulator over HTTP as an integrator calls it: an authorization
 * approved by paying its immediate QR code (journey 3) or refused in the bank app, MANUAL cycles
 * paid or failed on their dates, SUBSCRIPTION cycles Asaas creates itself, cancellation, expiry,
 * webhooks, and a restart. The clock starts on Monday 2026-03-02, 09:00 in São Paulo, and only
 * moves forward: the tests run in order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { createAsaasEmulator, type AsaasEmulator } from './asaas-emulator';

const KEY = '$aact_hmlg_000cGl4LWF1dG9tYXRpY28tZW11bGF0b3Itc3BlYw';
const BASE = new Date('2026-03-02T12:00:00.000Z');
const EVENTS = [
  'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CREATED',
  'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED',
  'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_REFUSED',
  'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED',
  'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_EXPIRED',
  'PAYMENT_CREATED',
  'PAYMENT_RECEIVED',
  'PAYMENT_CONFIRMED',
  'PAYMENT_OVERDUE',
  'PAYMENT_DELETED',
];

type Answer = { status: number; json: Record<string, any> };

let dir: string;
let emulator: AsaasEmulator;
let api: string;
let control: string;
let receiver: Server;
const received: { event: string; payment?: { id: string; status: string }; authorization?: { id: string; status: string } }[] = [];
let customer: string;

async function start(): Promise<void> {
  emulator = createAsaasEmulator({ accounts: [{ api_key: KEY }], webhooks: { retries: 0 }, now: () => BASE, sweepMs: 0, stateFile: join(dir, 'asaas.json') });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
}

async function call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Answer> {
  const response = await request(`${api}${path}`, {
    method,
    headers: { 'content-type': 'application/json', access_token: KEY, 'user-agent': 'orquestra-spec' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.body.text();
  return { status: response.statusCode, json: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

async function ctl(method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${control}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

const advanceTo = (at: string) => ctl('POST', '/__control/clock', { set: at });

const authorization = (overrides: Record<string, unknown> = {}) => ({
  customerId: customer,
  frequency: 'MONTHLY',
  contractId: 'contrato-001',
  startDate: '2026-03-10',
  value: 49.9,
  paymentCreationMode: 'MANUAL',
  description: 'Plano mensal',
  immediateQrCode: { originalValue: 49.9, expirationSeconds: 3600, description: 'Primeira mensalidade' },
  ...overrides,
});
const cycle = (authorizationId: string, dueDate: string, value = 49.9) => ({ customer, billingType: 'PIX', value, dueDate, pixAutomaticAuthorizationId: authorizationId });

/** The webhook events received about an authorization or payment id, sorted: concurrent deliveries arrive in any order. */
async function events(id: string): Promise<string[]> {
  await emulator.webhooksIdle();
  return received
    .filter((r) => r.payment?.id === id || r.authorization?.id === id)
    .map((r) => `${r.event}:${r.payment?.status ?? r.authorization?.status}`)
    .sort();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'asaas-pix-automatic-'));
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(JSON.parse(body) as (typeof received)[number]);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await start();
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/asaas`;
  expect((await call('POST', '/v3/webhooks', { name: 'spec', url, sendType: 'SEQUENTIALLY', enabled: true, interrupted: false, events: EVENTS })).status).toBe(200);
  customer = String((await call('POST', '/v3/customers', { name: 'Maria Souza', cpfCnpj: '52998224725' })).json['id']);
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('authorizations', () => {
  let manual: Answer['json'];

  it('creates one with a combined QR code, and activates it when the payer pays that code', async () => {
    const created = await call('POST', '/v3/pix/automatic/authorizations', authorization());
    expect(created.status).toBe(200);
    manual = created.json;
    expect(manual).toMatchObject({ object: 'pixAutomaticAuthorization', status: 'CREATED', frequency: 'MONTHLY', value: 49.9, paymentCreationMode: 'MANUAL', immediateQrCode: { originalValue: 49.9 } });
    const payload = String(manual['immediateQrCode'].payload);
    expect(payload.match(/br\.gov\.bcb\.pix/g)).toHaveLength(2);
    expect(String(manual['immediateQrCode'].encodedImage).length).toBeGreaterThan(100);

    const early = await call('POST', '/v3/payments', cycle(manual['id'], '2026-03-10'));
    expect(early).toMatchObject({ status: 400, json: { errors: [{ code: 'invalid_action' }] } });

    expect((await ctl('POST', `/__control/charges/${manual['immediateQrCode'].paymentId}/pay`)).status).toBe(200);
    expect((await call('GET', `/v3/pix/automatic/authorizations/${manual['id']}`)).json).toMatchObject({ status: 'ACTIVE' });
    expect(await events(manual['id'])).toEqual(['PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED:ACTIVE', 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CREATED:CREATED']);
  });

  it('refuses bad bodies', async () => {
    const subscriptionWithoutValue = await call('POST', '/v3/pix/automatic/authorizations', authorization({ paymentCreationMode: 'SUBSCRIPTION', value: undefined }));
    expect(subscriptionWithoutValue.json['errors'][0].code).toBe('invalid_value');
    expect((await call('POST', '/v3/pix/automatic/authorizations', authorization({ frequency: 'DAILY' }))).json['errors'][0].code).toBe('invalid_frequency');
    expect((await call('POST', '/v3/pix/automatic/authorizations', authorization({ immediateQrCode: undefined }))).json['errors'][0].code).toBe('invalid_immediateQrCode');
    expect((await call('POST', '/v3/pix/automatic/authorizations', authorization({ startDate: '2026-03-01' }))).status).toBe(400);
  });

  it('a payer who declines in the bank app leaves it REFUSED', async () => {
    const id = String((await call('POST', '/v3/pix/automatic/authorizations', authorization())).json['id']);
    expect((await ctl('POST', `/__control/pix-automatic/authorizations/${id}/refuse`)).json).toEqual({ id, status: 'REFUSED' });
    expect((await ctl('POST', `/__control/pix-automatic/authorizations/${id}/refuse`)).status).toBe(409);
    expect(await events(id)).toContain('PIX_AUTOMATIC_RECURRING_AUTHORIZATION_REFUSED:REFUSED');
    const listed = await call('GET', '/v3/pix/automatic/authorizations?status=REFUSED');
    expect(listed.json).toMatchObject({ object: 'list', totalCount: 1, data: [{ id }] });
  });

  it('MANUAL cycles: one per cycle, at the fixed value, debited on the due date, or failed', async () => {
    const id = String(manual['id']);
    expect((await call('POST', '/v3/payments', cycle(id, '2026-03-10', 10))).json['errors'][0].code).toBe('invalid_value');
    expect((await call('POST', '/v3/payments', cycle(id, '2026-03-03'))).json['errors'][0].code).toBe('invalid_dueDate');
    const first = await call('POST', '/v3/payments', cycle(id, '2026-03-10'));
    expect(first).toMatchObject({ status: 200, json: { status: 'PENDING', pixAutomaticAuthorizationId: id, dueDate: '2026-03-10' } });
    expect((await call('POST', '/v3/payments', cycle(id, '2026-03-12'))).json['errors'][0].code).toBe('invalid_action');
    expect((await ctl('POST', `/__control/charges/${first.json['id']}/pay`)).json).toMatchObject({ error: 'not_due' });
    await advanceTo('2026-03-10T12:00:00Z');
    expect((await ctl('POST', `/__control/charges/${first.json['id']}/pay`)).json).toMatchObject({ status: 'CONFIRMED' });
    expect(await events(first.json['id'])).toEqual(['PAYMENT_CONFIRMED:CONFIRMED', 'PAYMENT_CREATED:PENDING']);

    await advanceTo('2026-04-01T12:00:00Z');
    const second = await call('POST', '/v3/payments', cycle(id, '2026-04-10'));
    expect((await ctl('POST', `/__control/charges/${second.json['id']}/fail`)).json).toMatchObject({ error: 'not_due' });
    await advanceTo('2026-04-10T12:00:00Z');
    expect((await ctl('POST', `/__control/charges/${second.json['id']}/fail`)).json).toEqual({ id: second.json['id'], status: 'OVERDUE' });
    expect(await events(second.json['id'])).toEqual(['PAYMENT_CREATED:PENDING', 'PAYMENT_OVERDUE:OVERDUE']);
  });

  it('an immediate QR code left unpaid refuses the authorization; an active one expires after its finishDate', async () => {
    const id = String((await call('POST', '/v3/pix/automatic/authorizations', authorization({ startDate: '2026-05-10' }))).json['id']);
    const ending = await call('POST', '/v3/pix/automatic/authorizations', authorization({ startDate: '2026-04-20', finishDate: '2026-04-20', immediateQrCode: { originalValue: 10, expirationSeconds: 86_400 * 3 } }));
    await ctl('POST', `/__control/charges/${ending.json['immediateQrCode'].paymentId}/pay`);
    await ctl('POST', '/__control/clock', { advance_days: 1 });
    expect((await call('GET', `/v3/pix/automatic/authorizations/${id}`)).json).toMatchObject({ status: 'REFUSED' });
    expect(await events(id)).toEqual(['PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CREATED:CREATED', 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_REFUSED:REFUSED']);
    expect((await call('GET', `/v3/pix/automatic/authorizations/${ending.json['id']}`)).json).toMatchObject({ status: 'ACTIVE' });
    await advanceTo('2026-04-21T12:00:00Z');
    expect(await events(ending.json['id'])).toContain('PIX_AUTOMATIC_RECURRING_AUTHORIZATION_EXPIRED:EXPIRED');
  });

  it('SUBSCRIPTION: Asaas creates each cycle 10 days before its due date, and refuses manual ones', async () => {
    // Now 2026-04-21; weekly from 2026-04-26.
    const created = await call('POST', '/v3/pix/automatic/authorizations', authorization({ paymentCreationMode: 'SUBSCRIPTION', frequency: 'WEEKLY', startDate: '2026-04-26', value: 19.9 }));
    const id = String(created.json['id']);
    await ctl('POST', `/__control/charges/${created.json['immediateQrCode'].paymentId}/pay`);
    const cycles = async () =>
      ((await call('GET', `/v3/payments?customer=${customer}&limit=100`)).json['data'] as { pixAutomaticAuthorizationId?: string; dueDate: string; value: number }[])
        .filter((p) => p.pixAutomaticAuthorizationId === id)
        .map((p) => `${p.dueDate}:${p.value}`)
        .sort();
    expect(await cycles()).toEqual(['2026-04-26:19.9']);
    expect((await call('POST', '/v3/payments', cycle(id, '2026-05-03', 19.9))).json['errors'][0].code).toBe('invalid_action');
    await advanceTo('2026-04-23T12:00:00Z');
    expect(await cycles()).toEqual(['2026-04-26:19.9', '2026-05-03:19.9']);
    await advanceTo('2026-04-30T12:00:00Z');
    expect(await cycles()).toEqual(['2026-04-26:19.9', '2026-05-03:19.9', '2026-05-10:19.9']);
  });

  it('cancelling removes the pending cycle and stops further ones', async () => {
    const id = String(manual['id']);
    await advanceTo('2026-05-01T12:00:00Z');
    const pending = await call('POST', '/v3/payments', cycle(id, '2026-05-11'));
    expect((await call('DELETE', `/v3/pix/automatic/authorizations/${id}`)).json).toMatchObject({ status: 'CANCELLED' });
    expect((await call('GET', `/v3/payments/${pending.json['id']}`)).json).toMatchObject({ deleted: true });
    expect(await events(pending.json['id'])).toEqual(['PAYMENT_CREATED:PENDING', 'PAYMENT_DELETED:PENDING']);
    expect((await call('POST', '/v3/payments', cycle(id, '2026-05-11'))).json['errors'][0].code).toBe('invalid_action');
    expect((await call('DELETE', `/v3/pix/automatic/authorizations/${id}`)).status).toBe(400);
    expect(await events(id)).toContain('PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED:CANCELLED');
  });
});

describe('restart', () => {
  it('keeps authorizations, their cycles and the clock in the state file', async () => {
    const clock = (await ctl('GET', '/__control/clock')).json;
    const before = (await call('GET', '/v3/pix/automatic/authorizations?limit=100')).json['data'] as { id: string; status: string }[];
    await emulator.stop();
    await start();
    expect((await ctl('GET', '/__control/clock')).json).toEqual(clock);
    const after = (await call('GET', '/v3/pix/automatic/authorizations?limit=100')).json['data'] as { id: string; status: string }[];
    expect(after.map((a) => `${a.id}:${a.status}`)).toEqual(before.map((a) => `${a.id}:${a.status}`));
    expect(after.map((a) => a.status).sort()).toEqual(['ACTIVE', 'CANCELLED', 'EXPIRED', 'REFUSED', 'REFUSED']);
  });
});
