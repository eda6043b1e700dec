import { status } from '@grpc/grpc-js';
import { common, type disputes } from '@orquestra/contracts';
import { MESSAGES_PT_BR, RpcError } from '@orquestra/platform';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const BOT = { authorization: `Bearer ${RESTRICTED_KEY}` };

const DISPUTE: disputes.Dispute = {
  id: 'dp_01j9z0k3x7m2q8r4t6v8w0y2a4',
  kind: 'med',
  status: 'open',
  amount: 1990,
  reason: 'Pagador não reconhece o Pix.',
  due_at: '2026-11-29T12:00:00.000Z',
  payment_id: 'pay_01j9z0k3x7m2q8r4t6v8w0y2a4',
  provider: 'efi',
  provider_account_id: 'pa_1',
  created_at: '2026-11-22T12:00:00.000Z',
  updated_at: '2026-11-22T12:00:00.000Z',
  closed_at: '',
  mode: common.Mode.MODE_TEST,
};

describe('dispute routes', () => {
  let clients: FakeClients;
  let app: RunningApp;
  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(() => app.close());

  it('simulates a dispute: 201 with the public dispute and its Location', async () => {
    const calls: disputes.SimulateDisputeRequest[] = [];
    clients.disputes.simulateDispute = async (request) => {
      calls.push(request);
      return { dispute: DISPUTE };
    };
    const answer = await app.request('POST', `/v1/payments/${DISPUTE.payment_id}/simulate-dispute`, { headers: FULL, body: { amount: 1990 } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('location')).toBe(`/v1/disputes/${DISPUTE.id}`);
    expect(answer.json).toEqual({
      id: DISPUTE.id,
      object: 'dispute',
      kind: 'med',
      status: 'open',
      amount: 1990,
      reason: 'Pagador não reconhece o Pix.',
      due_at: '2026-11-29T12:00:00.000Z',
      payment_id: DISPUTE.payment_id,
      provider: 'efi',
      mode: 'test',
      evidence: null,
      created_at: '2026-11-22T12:00:00.000Z',
      updated_at: '2026-11-22T12:00:00.000Z',
      closed_at: null,
    });
    expect(calls[0]).toMatchObject({ payment_id: DISPUTE.payment_id, amount: 1990, reason: '' });
  });

  it('refuses restricted keys on every dispute route', async () => {
    for (const [method, path] of [
      ['GET', '/v1/disputes'],
      ['GET', `/v1/disputes/${DISPUTE.id}`],
      ['POST', `/v1/disputes/${DISPUTE.id}/evidence`],
      ['POST', `/v1/payments/${DISPUTE.payment_id}/simulate-dispute`],
    ] as const) {
      const answer = await app.request(method, path, { headers: BOT, body: method === 'POST' ? { text: 'x' } : undefined });
      expect(answer.status).toBe(403);
      expect(answer.json.error.code).toBe('restricted_key');
    }
  });

  it('validates evidence with Portuguese errors naming the param', async () => {
    const missing = await app.request('POST', `/v1/disputes/${DISPUTE.id}/evidence`, { headers: FULL, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatchObject({ code: 'parameter_missing', param: 'text' });
    const badLink = await app.request('POST', `/v1/disputes/${DISPUTE.id}/evidence`, { headers: FULL, body: { text: 'ok', urls: ['ftp://x'] } });
    expect(badLink.status).toBe(400);
    expect(badLink.json.error.param).toBe('urls[0]');
    const badStatus = await app.request('GET', '/v1/disputes?status=perdida', { headers: FULL });
    expect(badStatus.status).toBe(400);
    expect(badStatus.json.error.param).toBe('status');
  });

  it('lists with filters passed through and maps service errors (422 evidence not supported)', async () => {
    const seen: disputes.ListDisputesRequest[] = [];
    clients.disputes.listDisputes = async (request) => {
      seen.push(request);
      return { disputes: [DISPUTE], has_more: true };
    };
    const list = await app.request('GET', `/v1/disputes?status=open&payment_id=${DISPUTE.payment_id}&limit=5`, { headers: FULL });
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({ object: 'list', has_more: true, data: [{ id: DISPUTE.id }] });
    expect(seen[0]).toMatchObject({ status: 'open', payment_id: DISPUTE.payment_id, limit: 5 });

    clients.disputes.submitEvidence = async () => {
      throw new RpcError('dispute_evidence_not_supported', status.FAILED_PRECONDITION, { message: MESSAGES_PT_BR.dispute_evidence_not_supported });
    };
    const refused = await app.request('POST', `/v1/disputes/${DISPUTE.id}/evidence`, { headers: FULL, body: { text: 'Entregue.' } });
    expect(refused.status).toBe(422);
    expect(refused.json.error).toMatchObject({ code: 'dispute_evidence_not_supported', type: 'invalid_request_error' });
  });
});
