import { status } from '@grpc/grpc-js';
import { common, type payments, type vault } from '@orquestra/contracts';
import { MESSAGES_PT_BR, RpcError } from '@orquestra/platform';
import { createDownstreamClients } from '../grpc/downstream.clients';
import { requestHash } from '../idempotency/request-hash';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY, protoPayment } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const BOT = { authorization: `Bearer ${RESTRICTED_KEY}` };
const BODY = { method: 'pix', amount: 1990, customer: { name: 'Maria da Silva', document: '529.982.247-25' }, metadata: { order_id: '42' } };

describe('gateway over HTTP, with fake backends', () => {
  let app: RunningApp;
  let clients: FakeClients;

  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(async () => {
    await app.close();
  });

  describe('POST /v1/payments', () => {
    it('creates a payment: 201, Location, and the request the payments service needs', async () => {
      const createPayment = jest.fn(async (_request: payments.CreatePaymentRequest) => ({ payment: protoPayment(), replayed: false }));
      clients.payments.createPayment = createPayment;
      const answer = await app.request('POST', '/v1/payments', { headers: { ...FULL, 'idempotency-key': 'order-42' }, body: BODY });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('location')).toBe('/v1/payments/pay_01jabc');
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
      expect(answer.json).toMatchObject({ id: 'pay_01jabc', object: 'payment', status: 'pending', next_action: { type: 'pix_qr' } });
      const [request, options] = createPayment.mock.calls[0] as unknown as [payments.CreatePaymentRequest, { requestId: string; deadlineMs: number }];
      const normalized = { ...BODY, customer: { name: 'Maria da Silva', document: '52998224725' } };
      expect(request).toMatchObject({
        caller: { merchant_id: 'acct_1', key_id: 'key_full', mode: common.Mode.MODE_TEST, restricted: false, request_id: options.requestId },
        idempotency_key: 'order-42',
        request_hash: requestHash(normalized),
        amount: 1990,
        customer: { document: '52998224725', ip: '127.0.0.1' },
      });
      expect(options).toEqual({ requestId: answer.headers.get('x-request-id'), deadlineMs: 2_000 });
    });

    it('answers a replay with 201, the same body and Idempotent-Replayed: true', async () => {
      clients.payments.createPayment = async () => ({ payment: protoPayment(), replayed: true });
      const answer = await app.request('POST', '/v1/payments', { headers: { ...FULL, 'idempotency-key': 'order-42' }, body: BODY });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('idempotent-replayed')).toBe('true');
      expect(answer.json.id).toBe('pay_01jabc');
    });

    it('hashes the same body the same way whatever its key order', async () => {
      const createPayment = jest.fn(async () => ({ payment: protoPayment(), replayed: false }));
      clients.payments.createPayment = createPayment;
      await app.request('POST', '/v1/payments', { headers: FULL, body: '{"amount":1990,"customer":{"name":"Ana"}}' });
      await app.request('POST', '/v1/payments', { headers: FULL, body: '{"customer":{"name":"Ana"},"amount":1990}' });
      const hashes = createPayment.mock.calls.map((call) => (call as unknown as [payments.CreatePaymentRequest])[0].request_hash);
      expect(hashes[0]).toBe(hashes[1]);
    });

    it('answers malformed JSON with 400 invalid_json in the spec body, never an HTML page', async () => {
      const answer = await app.request('POST', '/v1/payments', { headers: { ...FULL, 'content-type': 'application/json' }, body: '{"amount": 10,' });
      expect(answer.status).toBe(400);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.json).toEqual({
        error: { type: 'invalid_request_error', message: MESSAGES_PT_BR.invalid_json, code: 'invalid_json', param: null },
      });
    });

    it('parses JSON sent without a JSON content type, and refuses form encoding as invalid_json', async () => {
      clients.payments.createPayment = async () => ({ payment: protoPayment(), replayed: false });
      const asText = await app.request('POST', '/v1/payments', { headers: { ...FULL, 'content-type': 'text/plain' }, body: JSON.stringify(BODY) });
      expect(asText.status).toBe(201);
      const asForm = await app.request('POST', '/v1/payments', {
        headers: { ...FULL, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'amount=1990',
      });
      expect(asForm.json.error.code).toBe('invalid_json');
    });

    it('refuses a body over 1 MB with a clean 400', async () => {
      const answer = await app.request('POST', '/v1/payments', { headers: FULL, body: { ...BODY, description: 'x'.repeat(1_100_000) } });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('1 MB') });
    });

    it('answers a validation failure with 400 and the offending param', async () => {
      const answer = await app.request('POST', '/v1/payments', { headers: FULL, body: { amount: 1990, customer: {} } });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        error: {
          type: 'invalid_request_error',
          message: 'O campo customer.name é obrigatório. Informe o nome do cliente.',
          code: 'parameter_missing',
          param: 'customer.name',
        },
      });
    });

    it('passes on the downstream code, message and param (e.g. idempotency conflict, missing document)', async () => {
      clients.payments.createPayment = async () => {
        throw new RpcError('idempotency_conflict', status.ALREADY_EXISTS, { message: MESSAGES_PT_BR.idempotency_conflict });
      };
      const conflict = await app.request('POST', '/v1/payments', { headers: { ...FULL, 'idempotency-key': 'k' }, body: BODY });
      expect(conflict.status).toBe(409);
      expect(conflict.json.error).toEqual({
        type: 'idempotency_error',
        message: MESSAGES_PT_BR.idempotency_conflict,
        code: 'idempotency_conflict',
        param: null,
      });
      clients.payments.createPayment = async () => {
        throw new RpcError('missing_document', status.INVALID_ARGUMENT, { param: 'customer.document', message: MESSAGES_PT_BR.missing_document });
      };
      const missing = await app.request('POST', '/v1/payments', { headers: FULL, body: BODY });
      expect(missing.status).toBe(400);
      expect(missing.json.error).toMatchObject({ code: 'missing_document', param: 'customer.document' });
    });

    it('answers 503 service_unavailable when the payments service cannot be reached', async () => {
      const dead = createDownstreamClients({ accounts: '127.0.0.1:1', payments: '127.0.0.1:1', providers: '127.0.0.1:1', routing: '127.0.0.1:1', notifications: '127.0.0.1:1', subscriptions: '127.0.0.1:1', payouts: '127.0.0.1:1', vault: '127.0.0.1:1', tracking: '127.0.0.1:1' }, 2_000);
      clients.payments = dead.payments;
      const answer = await app.request('POST', '/v1/payments', { headers: FULL, body: BODY });
      dead.close();
      expect(answer.status).toBe(503);
      expect(answer.json).toEqual({
        error: { type: 'api_error', message: MESSAGES_PT_BR.service_unavailable, code: 'service_unavailable', param: null },
      });
    });

    it('hides the text of an unexpected failure behind a 500 internal', async () => {
      clients.payments.createPayment = async () => {
        throw new TypeError('Cannot read properties of undefined (reading "secret") at /srv/app.ts:1');
      };
      const answer = await app.request('POST', '/v1/payments', { headers: FULL, body: BODY });
      expect(answer.status).toBe(500);
      expect(answer.json).toEqual({ error: { type: 'api_error', message: MESSAGES_PT_BR.internal, code: 'internal', param: null } });
    });

    it('a saved card is read from the vault first: gone → 402 invalid_card, expired → 402 card_expired, its security code gone → routing told', async () => {
      const CARD = { ...BODY, method: 'card', card: { id: 'card_1', installments: 2 } };
      const saved = (overrides: Partial<vault.Card>): vault.Card => ({
        id: 'card_1', mode: common.Mode.MODE_TEST, brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099, holder_name: 'MARIA', fingerprint: 'fp',
        customer_id: 'cus_1', cvc_available_until: '', metadata: {}, created_at: '2026-11-25T10:00:00.000Z', source_key_id: 'key_1', ...overrides,
      });
      const sent: payments.CreatePaymentRequest[] = [];
      clients.payments.createPayment = async (request) => {
        sent.push(request);
        return { payment: protoPayment({ method: 'card' }), replayed: false };
      };
      clients.vault.getCard = async () => {
        throw new RpcError('not_found', status.NOT_FOUND, { param: 'id' });
      };
      const gone = await app.request('POST', '/v1/payments', { headers: FULL, body: CARD });
      expect(gone.status).toBe(402);
      expect(gone.json.error).toMatchObject({ type: 'card_error', code: 'invalid_card', param: 'card.id' });
      clients.vault.getCard = async () => ({ card: saved({ exp_month: 1, exp_year: 2020 }) });
      const expired = await app.request('POST', '/v1/payments', { headers: FULL, body: CARD });
      expect(expired.json.error).toMatchObject({ code: 'card_expired', param: 'card.id', message: expect.stringContaining('01/2020') });
      expect(sent).toEqual([]);
      clients.vault.getCard = async () => ({ card: saved({}) });
      expect((await app.request('POST', '/v1/payments', { headers: FULL, body: CARD })).status).toBe(201);
      expect(sent[0]?.card).toEqual({ token: '', id: 'card_1', installments: 2, brand: 'visa', without_cvc: true });
      // A restricted key never reaches the vault (§5.4).
      const bot = await app.request('POST', '/v1/payments', { headers: BOT, body: CARD });
      expect(bot.json.error).toMatchObject({ code: 'restricted_key', param: 'card.id' });
    });
  });

  describe('restricted keys (§5.4)', () => {
    beforeEach(() => {
      clients.payments.createPayment = async () => ({ payment: protoPayment(), replayed: false });
      clients.payments.listPayments = async () => ({ data: [protoPayment()], has_more: false });
      clients.payments.getPayment = async () => ({ payment: protoPayment() });
      clients.payments.cancelPayment = async () => ({ payment: protoPayment({ status: 'canceled' }) });
      clients.payments.simulatePayment = async () => ({ payment: protoPayment({ status: 'succeeded' }) });
      clients.payments.syncPayment = async () => ({ payment: protoPayment() });
      clients.notifications.listEvents = async () => ({ data: [], has_more: false });
    });

    it('may create, list and read payments', async () => {
      expect((await app.request('POST', '/v1/payments', { headers: BOT, body: BODY })).status).toBe(201);
      expect((await app.request('GET', '/v1/payments', { headers: BOT })).status).toBe(200);
      expect((await app.request('GET', '/v1/payments/pay_01jabc', { headers: BOT })).status).toBe(200);
    });

    it.each([
      ['POST', '/v1/payments/pay_01jabc/cancel'],
      ['POST', '/v1/payments/pay_01jabc/simulate'],
      ['POST', '/v1/payments/pay_01jabc/sync'],
    ])('gets 403 restricted_key on %s %s, where a full key succeeds', async (method, path) => {
      const denied = await app.request(method, path, { headers: BOT });
      expect(denied.status).toBe(403);
      expect(denied.json).toEqual({
        error: { type: 'permission_error', message: MESSAGES_PT_BR.restricted_key, code: 'restricted_key', param: null },
      });
      expect((await app.request(method, path, { headers: FULL })).status).toBe(200);
    });

    it('passes restricted + key id so the payments service narrows reads to its own payments', async () => {
      const listPayments = jest.fn(async () => ({ data: [], has_more: false }));
      clients.payments.listPayments = listPayments;
      await app.request('GET', '/v1/payments', { headers: BOT });
      expect(listPayments.mock.calls[0]).toEqual([
        expect.objectContaining({ caller: expect.objectContaining({ restricted: true, key_id: 'key_bot' }) }),
        expect.anything(),
      ]);
    });
  });

  describe('reading payments and events', () => {
    it('GET /v1/payments passes filters and answers a list without attempts', async () => {
      const listPayments = jest.fn(async () => ({ data: [protoPayment()], has_more: true }));
      clients.payments.listPayments = listPayments;
      const answer = await app.request('GET', '/v1/payments?status=pending&method=pix&limit=5&starting_after=pay_0', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ object: 'list', has_more: true, data: [{ id: 'pay_01jabc' }] });
      expect(answer.json.data[0]).not.toHaveProperty('attempts');
      expect(listPayments.mock.calls[0]).toEqual([
        expect.objectContaining({ status: 'pending', method: 'pix', provider: '', limit: 5, starting_after: 'pay_0' }),
        expect.anything(),
      ]);
    });

    it('GET /v1/payments refuses a bad limit', async () => {
      const answer = await app.request('GET', '/v1/payments?limit=0', { headers: FULL });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
    });

    it('GET /v1/payments/:id answers the payment with attempts and events; unknown → 404', async () => {
      clients.payments.getPayment = async ({ payment_id }) => {
        if (payment_id !== 'pay_01jabc') throw new RpcError('not_found', status.NOT_FOUND, { message: MESSAGES_PT_BR.not_found });
        return { payment: protoPayment({ events: [{ id: 'evt_1', type: 'payment.created', created: 1 }] }) };
      };
      const found = await app.request('GET', '/v1/payments/pay_01jabc', { headers: FULL });
      expect(found.json).toMatchObject({ id: 'pay_01jabc', attempts: [], refunds: [], events: [{ id: 'evt_1' }] });
      const missing = await app.request('GET', '/v1/payments/pay_nope', { headers: FULL });
      expect(missing.status).toBe(404);
      expect(missing.json.error).toMatchObject({ type: 'invalid_request_error', code: 'not_found' });
      const impossible = await app.request('GET', '/v1/payments/pay%20nope%3B', { headers: FULL });
      expect(impossible.status).toBe(404);
    });

    it('POST cancel answers 409 when the payment is already paid', async () => {
      clients.payments.cancelPayment = async () => {
        throw new RpcError('payment_already_paid', status.FAILED_PRECONDITION, { message: MESSAGES_PT_BR.payment_already_paid });
      };
      const answer = await app.request('POST', '/v1/payments/pay_01jabc/cancel', { headers: FULL });
      expect(answer.status).toBe(409);
      expect(answer.json.error.code).toBe('payment_already_paid');
    });

    it('POST sync answers the payment as re-read from the provider; unknown → 404 with param id', async () => {
      const syncPayment = jest.fn(async ({ payment_id }: payments.SyncPaymentRequest) => {
        if (payment_id !== 'pay_01jabc') throw new RpcError('not_found', status.NOT_FOUND, { param: 'id', message: MESSAGES_PT_BR.not_found });
        return { payment: protoPayment({ status: 'succeeded', end_to_end_id: 'E123' }) };
      });
      clients.payments.syncPayment = syncPayment;
      const answer = await app.request('POST', '/v1/payments/pay_01jabc/sync', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ id: 'pay_01jabc', object: 'payment', status: 'succeeded', end_to_end_id: 'E123' });
      expect(answer.json).not.toHaveProperty('attempts');
      expect(syncPayment.mock.calls[0]?.[0]).toMatchObject({ payment_id: 'pay_01jabc', caller: expect.objectContaining({ key_id: 'key_full' }) });
      const missing = await app.request('POST', '/v1/payments/pay_nope/sync', { headers: FULL });
      expect(missing.status).toBe(404);
      expect(missing.json.error).toMatchObject({ code: 'not_found', param: 'id' });
    });

    it('POST sync answers 503 when the provider cannot be reached', async () => {
      clients.payments.syncPayment = async () => {
        throw new RpcError('provider_unavailable', status.UNAVAILABLE, { message: MESSAGES_PT_BR.provider_unavailable });
      };
      const answer = await app.request('POST', '/v1/payments/pay_01jabc/sync', { headers: FULL });
      expect(answer.status).toBe(503);
      expect(answer.json.error.code).toBe('provider_unavailable');
    });

    it('GET /v1/events answers events with their resource under data.object', async () => {
      const listEvents = jest.fn(async () => ({
        data: [{ id: 'evt_1', type: 'payment.succeeded', created: 5, data_object_json: '{"id":"pay_1"}', resource_id: 'pay_1', source: '', mode: common.Mode.MODE_TEST }],
        has_more: false,
      }));
      clients.notifications.listEvents = listEvents;
      const answer = await app.request('GET', '/v1/events?type=payment.succeeded&limit=3', { headers: FULL });
      expect(answer.json).toEqual({
        object: 'list',
        data: [{ id: 'evt_1', object: 'event', type: 'payment.succeeded', created: 5, data: { object: { id: 'pay_1' } } }],
        has_more: false,
      });
      expect(listEvents.mock.calls[0]).toEqual([expect.objectContaining({ type: 'payment.succeeded', limit: 3 }), expect.anything()]);
    });
  });
});
