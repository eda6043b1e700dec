import { common, type accounts } from '@orquestra/contracts';
import { RequestLogRecorder } from '../request-logs/request-log.recorder';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, silentLogger, TEST_KEY } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };

describe('request log: what the gateway records and GET /v1/request-logs', () => {
  let clients: FakeClients;
  let app: RunningApp;
  let recorder: RequestLogRecorder;
  let sent: accounts.RequestLogEntry[][];

  beforeEach(async () => {
    sent = [];
    clients = fakeClients();
    clients.notifications.listEvents = async () => ({ data: [], has_more: false });
    recorder = new RequestLogRecorder({ send: async (entries) => void sent.push(entries), logger: silentLogger, flushIntervalMs: 60_000 });
    app = await startApp({ clients, requestLog: recorder });
  });
  afterEach(async () => {
    await app.close();
    await recorder.stop();
  });

  it('records a keyed /v1 call with method, path without query, status, request id, duration and the key’s last 4', async () => {
    const answer = await app.request('GET', '/v1/events?limit=3&type=payment.*', { headers: FULL });
    expect(answer.status).toBe(200);
    await recorder.flush();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual([
      {
        id: expect.stringMatching(/^rlog_[0-9a-z]{26}$/),
        merchant_id: 'acct_1',
        mode: common.Mode.MODE_TEST,
        key_id: 'key_full',
        key_last4: TEST_KEY.slice(-4),
        method: 'GET',
        path: '/v1/events',
        status: 200,
        request_id: answer.headers.get('x-request-id'),
        duration_ms: expect.any(Number),
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    ]);
    expect(JSON.stringify(sent)).not.toContain(TEST_KEY);
  });

  it('records errors answered after authentication, but not unauthenticated calls, public routes or its own reads', async () => {
    clients.accounts.listRequestLogs = async () => ({ data: [], has_more: false });
    expect((await app.request('GET', '/v1/events?limit=0', { headers: FULL })).status).toBe(400);
    expect((await app.request('GET', '/v1/events', { headers: { authorization: 'Bearer svc_test_unknown' } })).status).toBe(401);
    expect((await app.request('GET', '/healthz')).status).toBe(200);
    expect((await app.request('GET', '/v1/request-logs', { headers: FULL })).status).toBe(200);
    await recorder.flush();
    expect(sent.flat().map((entry) => [entry.path, entry.status])).toEqual([['/v1/events', 400]]);
  });

  it('lists the caller’s log through accounts, mapped to the API’s shape, with the status filter', async () => {
    const requests: accounts.ListRequestLogsRequest[] = [];
    clients.accounts.listRequestLogs = async (request) => {
      requests.push(request);
      return {
        data: [
          {
            id: 'rlog_01',
            merchant_id: 'acct_1',
            mode: common.Mode.MODE_TEST,
            key_id: 'key_full',
            key_last4: '2345',
            method: 'POST',
            path: '/v1/payments',
            status: 402,
            request_id: 'req_1',
            duration_ms: 12.5,
            created_at: '2026-11-28T22:00:00.000Z',
          },
        ],
        has_more: true,
      };
    };
    const answer = await app.request('GET', '/v1/request-logs?limit=5&status=4xx&starting_after=rlog_02', { headers: FULL });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      object: 'list',
      has_more: true,
      data: [
        {
          id: 'rlog_01',
          object: 'request_log',
          request_id: 'req_1',
          method: 'POST',
          path: '/v1/payments',
          status: 402,
          duration_ms: 12.5,
          mode: 'test',
          key_id: 'key_full',
          key_last4: '2345',
          created_at: '2026-11-28T22:00:00.000Z',
        },
      ],
    });
    expect(requests[0]).toMatchObject({ caller: { merchant_id: 'acct_1', mode: common.Mode.MODE_TEST }, limit: 5, starting_after: 'rlog_02', status: '4xx' });
  });

  it('refuses a bad status filter in Portuguese with param, and restricted keys', async () => {
    const bad = await app.request('GET', '/v1/request-logs?status=4x', { headers: FULL });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ param: 'status', message: expect.stringContaining('classe de status') });
    const restricted = await app.request('GET', '/v1/request-logs', { headers: { authorization: `Bearer ${RESTRICTED_KEY}` } });
    expect(restricted.status).toBe(403);
    expect(restricted.json.error.code).toBe('restricted_key');
  });
});

describe('RequestLogRecorder', () => {
  const entry = (n: number) => ({ id: `rlog_${n}` }) as accounts.RequestLogEntry;

  it('sends full batches at once and the rest on flush, one call in flight at a time', async () => {
    const batches: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const recorder = new RequestLogRecorder({
      send: async (entries) => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        batches.push(entries.length);
        inFlight -= 1;
      },
      logger: silentLogger,
      batchSize: 3,
      flushIntervalMs: 60_000,
    });
    for (let n = 0; n < 8; n += 1) recorder.add(entry(n));
    await recorder.stop();
    expect(batches).toEqual([3, 3, 2]);
    expect(maxInFlight).toBe(1);
    expect(recorder.pending).toBe(0);
  });

  it('drops the newest past the queue bound and a batch accounts did not take, counting both', async () => {
    const dropped: Array<[number, string]> = [];
    let fail = true;
    const sent: string[] = [];
    const recorder = new RequestLogRecorder({
      send: async (entries) => {
        if (fail) throw new Error('UNAVAILABLE');
        sent.push(...entries.map((e) => e.id));
      },
      logger: silentLogger,
      maxQueue: 2,
      batchSize: 10,
      flushIntervalMs: 60_000,
      onDropped: (count, reason) => dropped.push([count, reason]),
    });
    recorder.add(entry(1));
    recorder.add(entry(2));
    recorder.add(entry(3));
    await recorder.flush();
    expect(dropped).toEqual([
      [1, 'queue_full'],
      [2, 'send_failed'],
    ]);
    fail = false;
    recorder.add(entry(4));
    await recorder.stop();
    expect(sent).toEqual(['rlog_4']);
  });
});
