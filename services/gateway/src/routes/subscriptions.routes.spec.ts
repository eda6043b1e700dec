import { AppError } from '@orquestra/platform';
import type { subscriptions } from '@orquestra/contracts';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY, protoPayment, protoSubscription } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const RESTRICTED = { authorization: `Bearer ${RESTRICTED_KEY}` };
const BODY = { customer: { name: 'Maria da Silva', document: '529.982.247-25' }, frequency: 'monthly', amount: 2990 };

describe('subscription routes', () => {
  let clients: FakeClients;
  let app: RunningApp;
  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(() => app.close());

  describe('POST /v1/subscriptions', () => {
    it('creates with the caller, the key and the body hash; 201 with Location and the approval', async () => {
      const seen: subscriptions.CreateSubscriptionRequest[] = [];
      clients.subscriptions.createSubscription = async (request) => {
        seen.push(request);
        return { subscription: protoSubscription(), replayed: false };
      };
      const answer = await app.request('POST', '/v1/subscriptions', { headers: { ...FULL, 'idempotency-key': 'assinatura-1' }, body: BODY });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('location')).toBe('/v1/subscriptions/sub_01jsub');
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
      expect(answer.json).toMatchObject({ id: 'sub_01jsub', object: 'subscription', status: 'pending', approval: { qr_code: expect.any(String) } });
      expect(answer.json).not.toHaveProperty('payments');
      expect(seen[0]).toMatchObject({
        caller: { merchant_id: 'acct_1', key_id: 'key_full' },
        idempotency_key: 'assinatura-1',
        request_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        customer: { name: 'Maria da Silva', document: '52998224725' },
        frequency: 'monthly',
        amount: 2990,
      });
    });

    it('says when the Idempotency-Key replayed an earlier creation, and hashes the same body the same way', async () => {
      const hashes: string[] = [];
      clients.subscriptions.createSubscription = async (request) => {
        hashes.push(request.request_hash);
        return { subscription: protoSubscription(), replayed: hashes.length > 1 };
      };
      const headers = { ...FULL, 'idempotency-key': 'assinatura-1' };
      await app.request('POST', '/v1/subscriptions', { headers, body: BODY });
      const replay = await app.request('POST', '/v1/subscriptions', { headers, body: { ...BODY, customer: { ...BODY.customer, document: '52998224725' } } });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(hashes[1]).toBe(hashes[0]);
    });

    it('lets a restricted key create', async () => {
      clients.subscriptions.createSubscription = async (request) => {
        expect(request.caller).toMatchObject({ key_id: 'key_bot', restricted: true });
        return { subscription: protoSubscription({ source_key_id: 'key_bot' }), replayed: false };
      };
      expect((await app.request('POST', '/v1/subscriptions', { headers: RESTRICTED, body: BODY })).status).toBe(201);
    });

    it('refuses bad input in Portuguese with the param, without calling the service', async () => {
      const missing = await app.request('POST', '/v1/subscriptions', { headers: FULL, body: { ...BODY, customer: { name: 'Maria' } } });
      expect(missing.status).toBe(400);
      expect(missing.json.error).toMatchObject({ code: 'parameter_missing', param: 'customer.document', message: expect.stringContaining('é obrigatório') });
      const frequency = await app.request('POST', '/v1/subscriptions', { headers: FULL, body: { ...BODY, frequency: 'daily' } });
      expect(frequency.json.error).toMatchObject({ code: 'parameter_invalid', param: 'frequency' });
      const key = await app.request('POST', '/v1/subscriptions', { headers: { ...FULL, 'idempotency-key': 'com espaço' }, body: BODY });
      expect(key.json.error).toMatchObject({ code: 'parameter_invalid', param: 'Idempotency-Key' });
      const json = await app.request('POST', '/v1/subscriptions', { headers: { ...FULL, 'content-type': 'application/json' }, body: '{' });
      expect(json.json.error).toMatchObject({ code: 'invalid_json' });
    });

    it("answers the service's domain refusal as it is (the gRPC → HTTP mapping)", async () => {
      clients.subscriptions.createSubscription = async () => {
        throw new AppError('parameter_invalid', { param: 'end_date', message: 'O campo end_date deve ser posterior a start_date (2026-12-01).' });
      };
      const answer = await app.request('POST', '/v1/subscriptions', { headers: FULL, body: { ...BODY, start_date: '2026-12-01', end_date: '2026-11-01' } });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toEqual({
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        param: 'end_date',
        message: 'O campo end_date deve ser posterior a start_date (2026-12-01).',
      });
    });

    it('needs a key', async () => {
      expect((await app.request('POST', '/v1/subscriptions', { body: BODY })).status).toBe(401);
    });
  });

  describe('GET /v1/subscriptions', () => {
    it('passes the filters and answers a page without cycles', async () => {
      const seen: subscriptions.ListSubscriptionsRequest[] = [];
      clients.subscriptions.listSubscriptions = async (request) => {
        seen.push(request);
        return { data: [protoSubscription({ status: 'active', approval: undefined })], has_more: true };
      };
      const answer = await app.request('GET', '/v1/subscriptions?status=active&limit=2&starting_after=sub_0', { headers: RESTRICTED });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ object: 'list', has_more: true, data: [{ id: 'sub_01jsub', status: 'active', approval: null }] });
      expect(answer.json.data[0]).not.toHaveProperty('payments');
      expect(seen[0]).toMatchObject({ status: 'active', limit: 2, starting_after: 'sub_0', caller: { restricted: true } });
    });

    it('leaves absent filters absent and refuses a bad one', async () => {
      const seen: subscriptions.ListSubscriptionsRequest[] = [];
      clients.subscriptions.listSubscriptions = async (request) => {
        seen.push(request);
        return { data: [], has_more: false };
      };
      await app.request('GET', '/v1/subscriptions', { headers: FULL });
      expect(seen[0]).not.toHaveProperty('status');
      expect(seen[0]).not.toHaveProperty('starting_after');
      const bad = await app.request('GET', '/v1/subscriptions?status=paid', { headers: FULL });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toMatchObject({ param: 'status', message: expect.stringContaining('pending, active, canceled, refused, expired') });
    });
  });

  describe('GET /v1/subscriptions/{id}', () => {
    it('answers the subscription with its cycles in payments', async () => {
      clients.subscriptions.getSubscription = async ({ subscription_id }) => ({
        subscription: protoSubscription({ id: subscription_id, payments: [protoPayment({ id: 'pay_cycle1' })] }),
      });
      const answer = await app.request('GET', '/v1/subscriptions/sub_01jsub', { headers: RESTRICTED });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ id: 'sub_01jsub', payments: [{ id: 'pay_cycle1', object: 'payment' }] });
    });

    it("is a 404 for an id that cannot exist (no call) and for the service's not_found", async () => {
      clients.subscriptions.getSubscription = async () => {
        throw new AppError('not_found', { param: 'id' });
      };
      expect((await app.request('GET', '/v1/subscriptions/no%20such', { headers: FULL })).status).toBe(404);
      const unknown = await app.request('GET', '/v1/subscriptions/sub_other', { headers: FULL });
      expect(unknown.status).toBe(404);
      expect(unknown.json.error).toMatchObject({ code: 'not_found', param: 'id' });
    });
  });

  describe('cancel and simulate', () => {
    it('cancel answers the canceled subscription', async () => {
      clients.subscriptions.cancelSubscription = async ({ subscription_id }) => ({
        subscription: protoSubscription({ id: subscription_id, status: 'canceled', approval: undefined }),
      });
      const answer = await app.request('POST', '/v1/subscriptions/sub_01jsub/cancel', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ status: 'canceled', approval: null });
    });

    it('simulate answers the active subscription; live mode is the service’s 403', async () => {
      clients.subscriptions.simulateSubscription = async () => ({ subscription: protoSubscription({ status: 'active', approval: undefined }) });
      expect((await app.request('POST', '/v1/subscriptions/sub_01jsub/simulate', { headers: FULL })).json).toMatchObject({ status: 'active', approval: null });
      clients.subscriptions.simulateSubscription = async () => {
        throw new AppError('live_mode_forbidden');
      };
      const live = await app.request('POST', '/v1/subscriptions/sub_01jsub/simulate', { headers: FULL });
      expect(live.status).toBe(403);
      expect(live.json.error.code).toBe('live_mode_forbidden');
    });

    it('charge answers 201 with the cycle payment, passing the body and the key; bad input is a Portuguese 400 with param', async () => {
      let seen: Record<string, unknown> = {};
      clients.subscriptions.chargeSubscription = async (request) => {
        seen = request as unknown as Record<string, unknown>;
        return { payment: protoPayment({ id: 'pay_cycle', subscription_id: request.subscription_id, cycle: 3, due_date: '2026-12-10' }), replayed: false };
      };
      const answer = await app.request('POST', '/v1/subscriptions/sub_01jsub/charge', { headers: { ...FULL, 'idempotency-key': 'ciclo-3' }, body: { amount: 1500, due_date: '2026-12-10' } });
      expect(answer.status).toBe(201);
      expect(answer.json).toMatchObject({ id: 'pay_cycle', object: 'payment', subscription_id: 'sub_01jsub' });
      expect(seen).toMatchObject({ subscription_id: 'sub_01jsub', amount: 1500, due_date: '2026-12-10', idempotency_key: 'ciclo-3' });

      const bad = await app.request('POST', '/v1/subscriptions/sub_01jsub/charge', { headers: FULL, body: { amount: 15.5 } });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toMatchObject({ param: 'amount' });
      expect(bad.json.error.message).toContain('centavos');
      const unknownField = await app.request('POST', '/v1/subscriptions/sub_01jsub/charge', { headers: FULL, body: { valor: 1 } });
      expect(unknownField.status).toBe(400);
    });

    it.each(['cancel', 'simulate', 'charge'])('refuses a restricted key on %s', async (action) => {
      const answer = await app.request('POST', `/v1/subscriptions/sub_01jsub/${action}`, { headers: RESTRICTED });
      expect(answer.status).toBe(403);
      expect(answer.json.error.code).toBe('restricted_key');
    });
  });
});
