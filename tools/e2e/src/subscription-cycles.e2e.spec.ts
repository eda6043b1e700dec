import { randomBytes, randomUUID } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { accounts, common } from '@orquestra/contracts';
import { createRpcClient } from '@orquestra/platform';
import { api, eventually } from './support/api';
import { stackInfo } from './support/stack-info';

/**
 * Pix Automático cycles through REST against the real stack: the subscriptions service's schedule
 * and sender, cycle payments in the payments service, the providers service's cycle charges and
 * webhooks, and the Efí emulator as the payer's bank. Time moves with two clocks kept together:
 * the Efí emulator's (`POST /__control/clock`) and the subscriptions service's test clock file.
 * Both only move forward, so the tests run in order, each from where the last left the day.
 */
type Json = Record<string, any>;

const CPF = '529.982.247-25';
const DAY_MS = 86_400_000;

async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${stackInfo().efiControlUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

/** Moves both clocks to noon (São Paulo) of `date`, or leaves them when they are past it. */
async function moveClocksTo(date: string): Promise<void> {
  const now = await control('GET', '/__control/clock');
  const target = new Date(`${date}T15:00:00Z`);
  if (new Date(now.body.now as string) < target) {
    const moved = await control('POST', '/__control/clock', { set: target.toISOString() });
    expect(moved.status).toBe(200);
  }
  const { body } = await control('GET', '/__control/clock');
  // Written whole, then renamed: the service never reads half a file.
  const file = stackInfo().subscriptionsClockFile;
  writeFileSync(`${file}.tmp`, JSON.stringify({ offset_ms: body.offset_ms }));
  renameSync(`${file}.tmp`, file);
}

async function today(): Promise<string> {
  const { body } = await control('GET', '/__control/clock');
  return new Date(new Date(body.now as string).getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

async function createActive(overrides: Json = {}): Promise<Json> {
  const created = await api('POST', '/v1/subscriptions', {
    idempotencyKey: randomUUID(),
    body: { customer: { name: 'Maria Silva', document: CPF }, frequency: 'weekly', amount: 1500, description: 'Plano semanal', metadata: { plano: 'semanal' }, tracking: { utm_source: 'bot' }, ...overrides },
  });
  expect(created.status).toBe(201);
  const approved = await api('POST', `/v1/subscriptions/${created.body.id}/simulate`);
  expect(approved.status).toBe(200);
  expect(approved.body.status).toBe('active');
  return approved.body;
}

const subscription = async (id: string): Promise<Json> => (await api('GET', `/v1/subscriptions/${id}`)).body;

async function cycleWhen(id: string, what: string, ok: (payments: Json[]) => Json | undefined, timeoutMs = 15_000): Promise<Json> {
  return eventually(async () => ok((await subscription(id)).payments as Json[]), what, timeoutMs);
}

async function eventTypesOf(paymentId: string): Promise<string[]> {
  const list = await api('GET', `/v1/events?payment_id=${paymentId}&limit=100`);
  return (list.body.data as Json[]).map((event) => event.type as string);
}

describe('subscription cycles at a provider that makes them itself (Asaas)', () => {
  // Runs before the Efí tests move the service's clock: Asaas's emulator keeps the real day.
  let key: string;
  let asaasAccount: string;

  beforeAll(async () => {
    const client = createRpcClient(accounts.AccountsServiceService, `127.0.0.1:${stackInfo().ports.accounts}`, { deadlineMs: 10_000 });
    try {
      const { merchant } = await client.createMerchant({ name: 'Loja Assinaturas Asaas', email: `e2e-asaas-subs-${Date.now()}@orquestra.dev` });
      if (!merchant) throw new Error('no merchant');
      key = (await client.createApiKey({ merchant_id: merchant.id, mode: common.Mode.MODE_TEST, kind: accounts.KeyKind.KEY_KIND_FULL, name: 'asaas subscriptions e2e' })).secret;
    } finally {
      client.close();
    }
    const credentials = { api_key: `$aact_hmlg_${randomBytes(16).toString('hex')}` };
    const registered = await fetch(`${stackInfo().controlUrls.asaas}/__control/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    expect(registered.status).toBeLessThan(300);
    const account = await api('POST', '/v1/provider-accounts', { key, body: { provider: 'asaas', name: 'Asaas assinaturas', credentials, priority: 10 } });
    expect(account.status).toBe(201);
    asaasAccount = account.body.id as string;
  });

  it('adopts each cycle Asaas creates as a cycle payment, and refuses POST charge in Portuguese', async () => {
    const created = await api('POST', '/v1/subscriptions', {
      key,
      idempotencyKey: randomUUID(),
      body: { customer: { name: 'João Souza', document: CPF }, frequency: 'weekly', amount: 2200, description: 'Clube semanal' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ provider: 'asaas', provider_account_id: asaasAccount, status: 'pending' });
    const approved = await api('POST', `/v1/subscriptions/${created.body.id}/simulate`, { key });
    expect(approved.body.status).toBe('active');

    // Approval paid the first cycle; Asaas then creates the next one (due in 7 days) and says so.
    const read = async () => (await api('GET', `/v1/subscriptions/${created.body.id}`, { key })).body;
    const payments = await eventually(async () => {
      const detail = await read();
      const list = detail.payments as Json[];
      return list.some((p) => p.status === 'succeeded') && list.some((p) => p.status === 'pending' && p.provider_payment_id) ? list : undefined;
    }, 'cycle 1 paid and the cycle Asaas created adopted', 20_000);
    const adopted = payments.find((p) => p.status === 'pending')!;
    expect(adopted).toMatchObject({ amount: 2200, subscription_id: created.body.id, provider: 'asaas', method: 'pix' });
    expect(adopted.provider_payment_id).toMatch(/^pay_/);

    const manual = await api('POST', `/v1/subscriptions/${created.body.id}/charge`, { key, body: {} });
    expect(manual.status).toBe(400);
    expect(manual.body.error).toMatchObject({ code: 'invalid_request', param: 'id' });
    expect(manual.body.error.message).toContain('cria sozinho');
    // Adopted once, however often Asaas reports it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(((await read()).payments as Json[]).filter((p) => p.provider_payment_id === adopted.provider_payment_id)).toHaveLength(1);
  });
});

describe('subscription cycles (Pix Automático at Efí)', () => {
  beforeAll(async () => {
    // Start on a plain business day with no holiday near, so the windows below are the usual ones.
    let day = await today();
    while ([0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay())) day = addDays(day, 1);
    await moveClocksTo(day);
  });

  it('variable amount: POST charge takes one charge per cycle, 2–10 business days ahead, and answers the cycle payment', async () => {
    const sub = await createActive({ amount: null, first_amount: 1000, description: 'Plano variável' });
    const start = sub.start_date as string;

    const noAmount = await api('POST', `/v1/subscriptions/${sub.id}/charge`, { body: { due_date: addDays(start, 9) } });
    expect(noAmount.status).toBe(400);
    expect(noAmount.body.error).toMatchObject({ code: 'parameter_missing', param: 'amount' });
    const tooSoon = await api('POST', `/v1/subscriptions/${sub.id}/charge`, { body: { amount: 2590, due_date: addDays(start, 1) } });
    expect(tooSoon.status).toBe(400);
    expect(tooSoon.body.error).toMatchObject({ code: 'parameter_invalid', param: 'due_date' });
    expect(tooSoon.body.error.message).toContain('dias úteis');
    const restricted = await api('POST', `/v1/subscriptions/${sub.id}/charge`, { key: stackInfo().restrictedTestKey, body: { amount: 2590 } });
    expect(restricted.status).toBe(403);

    // Cycle 2 runs from start+7: its first business day at least 2 business days ahead.
    let due = addDays(start, 7);
    while ([0, 6].includes(new Date(`${due}T12:00:00Z`).getUTCDay())) due = addDays(due, 1);
    const key = randomUUID();
    const charged = await api('POST', `/v1/subscriptions/${sub.id}/charge`, { idempotencyKey: key, body: { amount: 2590, due_date: due } });
    expect(charged.status).toBe(201);
    expect(charged.body).toMatchObject({ object: 'payment', method: 'pix', status: 'pending', amount: 2590, subscription_id: sub.id, metadata: { plano: 'semanal' }, tracking: { utm_source: 'bot' } });
    expect(charged.headers.get('location')).toBe(`/v1/payments/${charged.body.id}`);
    const replay = await api('POST', `/v1/subscriptions/${sub.id}/charge`, { idempotencyKey: key, body: { amount: 2590, due_date: due } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(charged.body.id);

    const again = await api('POST', `/v1/subscriptions/${sub.id}/charge`, { body: { amount: 2590, due_date: due } });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: 'invalid_request', param: 'due_date' });
    expect(again.body.error.message).toContain('uma cobrança por ciclo');

    const read = await api('GET', `/v1/payments/${charged.body.id}`);
    expect(read.body).toMatchObject({ subscription_id: sub.id, provider: 'efi', status: 'pending' });
    const detail = await subscription(sub.id);
    expect((detail.payments as Json[]).map((p) => p.id)).toContain(charged.body.id);
  });

  it('fixed amount: approval pays cycle 1, cycle 2 goes out in its window by itself, a failed debit is retried and paid, the next cycle follows the clock, cancel stops the rest', async () => {
    const sub = await createActive();
    const start = sub.start_date as string;

    const first = await cycleWhen(sub.id, 'cycle 1 (the approval) paid', (payments) => payments.find((p) => p.amount === 1500 && p.status === 'succeeded'));
    expect(first).toMatchObject({ subscription_id: sub.id, method: 'pix' });
    // Weekly: cycle 2 (start+7) is inside its 2–10 business-day window today, so the service sends it now.
    const second = await cycleWhen(sub.id, 'cycle 2 scheduled', (payments) => payments.find((p) => p.id !== first.id && p.status === 'pending' && p.provider_payment_id));
    expect(second).toMatchObject({ amount: 1500, subscription_id: sub.id, next_action: { type: 'none' } });
    const afterSecond = await subscription(sub.id);
    expect(afterSecond.next_charge_date > start).toBe(true);
    await eventually(async () => ((await eventTypesOf(second.id)).includes('subscription.cycle_scheduled') ? true : undefined), 'subscription.cycle_scheduled');

    // The due date: the payer's bank fails the debit. retry is true (default): the service asks Efí
    // for another attempt (PERMITE_3R_7D), and the payment stays pending meanwhile.
    const beforeDue = (await api('GET', `/v1/payments/${second.id}`)).body;
    const txid = second.provider_payment_id as string;
    let due = addDays(start, 7);
    while ([0, 6].includes(new Date(`${due}T12:00:00Z`).getUTCDay())) due = addDays(due, 1);
    await moveClocksTo(due);
    const failed = await control('POST', `/__control/cobr/${txid}/fail`, {});
    expect(failed.status).toBe(200);
    // The service learns it by webhook and asks for the next attempt (Efí retentativa).
    const retry = await eventually(async () => {
      const cobr = (await control('GET', `/__control/cobr/${txid}`)).body;
      return (cobr.tentativas as Json[]).find((t) => t.status === 'AGENDADA');
    }, 'a retry attempt scheduled at Efí', 15_000);
    expect(retry.dataLiquidacao > due).toBe(true);
    expect((await api('GET', `/v1/payments/${second.id}`)).body.status).toBe('pending');
    // The retry's day: the payer has money now.
    await moveClocksTo(retry.dataLiquidacao as string);
    const paid = (await control('POST', `/__control/cobr/${txid}/pay`, {})).status === 200;
    expect(paid).toBe(true);
    const settled = await eventually(async () => {
      const payment = (await api('GET', `/v1/payments/${second.id}`)).body;
      return payment.status === 'succeeded' ? payment : undefined;
    }, 'cycle 2 paid after the retry', 15_000);
    expect(settled).toMatchObject({ amount: 1500, subscription_id: sub.id, end_to_end_id: expect.any(String) });
    expect(beforeDue.status).toBe('pending');

    // A paid cycle is refunded like any Pix: a devolução at Efí of the Pix its retry received, settled
    // by Efí's Pix webhook naming the cobr's txid.
    const refund = await api('POST', `/v1/payments/${second.id}/refund`, { idempotencyKey: randomUUID(), body: { amount: 500, reason: 'Cliente pediu' } });
    expect(refund.status).toBe(201);
    expect(refund.body.refund).toMatchObject({ object: 'refund', payment_id: second.id, amount: 500, source: 'service' });
    const partly = await eventually(async () => {
      const payment = (await api('GET', `/v1/payments/${second.id}`)).body;
      return payment.status === 'partially_refunded' && payment.refunds?.[0]?.status === 'succeeded' ? payment : undefined;
    }, 'cycle 2 partially refunded', 15_000);
    expect(partly).toMatchObject({ amount_refunded: 500, subscription_id: sub.id });
    const rest = await api('POST', `/v1/payments/${second.id}/refund`, { idempotencyKey: randomUUID(), body: {} });
    expect(rest.status).toBe(201);
    const refunded = await eventually(async () => {
      const payment = (await api('GET', `/v1/payments/${second.id}`)).body;
      return payment.status === 'refunded' ? payment : undefined;
    }, 'cycle 2 refunded', 15_000);
    expect(refunded.amount_refunded).toBe(1500);
    expect((refunded.refunds as Json[]).map((r) => r.status)).toEqual(['succeeded', 'succeeded']);

    // The clock is past cycle 2: cycle 3's window is open, and the schedule sent it by itself.
    const third = await cycleWhen(sub.id, 'cycle 3 scheduled', (payments) => payments.find((p) => ![first.id, second.id].includes(p.id) && p.status === 'pending'));
    expect(third.amount).toBe(1500);

    const canceled = await api('POST', `/v1/subscriptions/${sub.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('canceled');
    await cycleWhen(sub.id, 'cycle 3 canceled with the recurrence', (payments) => payments.find((p) => p.id === third.id && p.status === 'canceled'));
    const atCancel = (await subscription(sub.id)).payments as Json[];
    expect(atCancel.filter((p) => p.status === 'pending')).toEqual([]);
    // Weeks later: nothing more was charged.
    await moveClocksTo(addDays(due, 21));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(((await subscription(sub.id)).payments as Json[]).length).toBe(atCancel.length);
  });

  it('retry false: one failed debit fails the cycle (payment.failed, subscription.cycle_failed); the subscription stays active', async () => {
    const sub = await createActive({ retry: false, description: 'Sem retentativa' });
    const start = sub.start_date as string;
    const first = await cycleWhen(sub.id, 'cycle 1 (the approval) paid', (payments) => payments.find((p) => p.status === 'succeeded'));
    const cycle = await cycleWhen(sub.id, 'cycle 2 scheduled', (payments) => payments.find((p) => p.id !== first.id && p.status === 'pending' && p.provider_payment_id));
    let due = addDays(start, 7);
    while ([0, 6].includes(new Date(`${due}T12:00:00Z`).getUTCDay())) due = addDays(due, 1);
    await moveClocksTo(due);
    const failed = await control('POST', `/__control/cobr/${cycle.provider_payment_id}/fail`, {});
    expect(failed.status).toBe(200);
    const payment = await eventually(async () => {
      const read = (await api('GET', `/v1/payments/${cycle.id}`)).body;
      return read.status === 'failed' ? read : undefined;
    }, 'cycle payment failed', 15_000);
    expect(payment.failure_reason).toMatch(/[a-zà-ú]/);
    await eventually(async () => {
      const types = await eventTypesOf(cycle.id);
      return types.includes('payment.failed') && types.includes('subscription.cycle_failed') ? types : undefined;
    }, 'payment.failed and subscription.cycle_failed');
    expect((await subscription(sub.id)).status).toBe('active');
  });
});
