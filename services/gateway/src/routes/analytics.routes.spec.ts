import type { analytics } from '@orquestra/contracts';
import { AppError, saoPauloDate } from '@orquestra/platform';
import { analyticsOverviewQuerySchema } from '../schemas/analytics.schema';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const RESTRICTED = { authorization: `Bearer ${RESTRICTED_KEY}` };

function figures(overrides: Partial<analytics.Figures> = {}): analytics.Figures {
  return { gross: 0, refunded: 0, fees: 0, net: 0, created: 0, approved: 0, refused: 0, canceled: 0, pending: 0, ...overrides };
}

const PIX = figures({ gross: 9_980, fees: 20, net: 9_960, created: 3, approved: 2, canceled: 1, approval_rate: 1 });
const CARD = figures({ gross: 5_000, refunded: 2_000, fees: 250, net: 2_750, created: 2, approved: 1, refused: 1, approval_rate: 0.5 });
const OPEN = figures({ created: 1, pending: 1 });
const ALL = figures({ gross: 14_980, refunded: 2_000, fees: 270, net: 12_710, created: 6, approved: 3, refused: 1, canceled: 1, pending: 1, approval_rate: 0.75 });

function overview(request: analytics.GetOverviewRequest): analytics.GetOverviewResponse {
  return {
    start_date: request.start_date,
    end_date: request.end_date,
    timezone: 'America/Sao_Paulo',
    totals: ALL,
    by_provider: [
      { provider_account_id: 'pa_asaas', provider: 'asaas', figures: PIX, by_method: [{ method: 'pix', figures: PIX }] },
      { provider_account_id: 'pa_stripe', provider: 'stripe', figures: CARD, by_method: [{ method: 'card', figures: CARD }] },
      { provider_account_id: '', provider: '', figures: OPEN, by_method: [{ method: 'none', figures: OPEN }] },
    ],
    by_method: [
      { method: 'card', figures: CARD },
      { method: 'none', figures: OPEN },
      { method: 'pix', figures: PIX },
    ],
    daily: [
      { date: request.start_date, figures: undefined },
      { date: request.end_date, figures: ALL },
    ],
  };
}

describe('analytics routes', () => {
  let clients: FakeClients;
  let app: RunningApp;
  let seen: analytics.GetOverviewRequest[];
  beforeEach(async () => {
    clients = fakeClients();
    seen = [];
    clients.analytics.getOverview = async (request) => {
      seen.push(request);
      return overview(request);
    };
    app = await startApp({ clients });
  });
  afterEach(() => app.close());

  it('asks the payments service for start..end as given and maps every line (empty account and "none" method as null, absent figures as zeros)', async () => {
    const answer = await app.request('GET', '/v1/analytics/overview?start=2026-11-24&end=2026-11-25', { headers: FULL });
    expect(answer.status).toBe(200);
    expect(seen).toEqual([
      { caller: expect.objectContaining({ merchant_id: 'acct_1', key_id: 'key_full', restricted: false }), start_date: '2026-11-24', end_date: '2026-11-25' },
    ]);
    const zero = { gross: 0, refunded: 0, fees: 0, net: 0, created: 0, approved: 0, refused: 0, canceled: 0, pending: 0, approval_rate: null };
    const pix = { gross: 9_980, refunded: 0, fees: 20, net: 9_960, created: 3, approved: 2, refused: 0, canceled: 1, pending: 0, approval_rate: 1 };
    const card = { gross: 5_000, refunded: 2_000, fees: 250, net: 2_750, created: 2, approved: 1, refused: 1, canceled: 0, pending: 0, approval_rate: 0.5 };
    const open = { ...zero, created: 1, pending: 1 };
    const all = { gross: 14_980, refunded: 2_000, fees: 270, net: 12_710, created: 6, approved: 3, refused: 1, canceled: 1, pending: 1, approval_rate: 0.75 };
    expect(answer.json).toEqual({
      object: 'analytics_overview',
      mode: 'test',
      start: '2026-11-24',
      end: '2026-11-25',
      timezone: 'America/Sao_Paulo',
      totals: all,
      by_provider: [
        { provider_account_id: 'pa_asaas', provider: 'asaas', ...pix, by_method: [{ method: 'pix', ...pix }] },
        { provider_account_id: 'pa_stripe', provider: 'stripe', ...card, by_method: [{ method: 'card', ...card }] },
        { provider_account_id: null, provider: null, ...open, by_method: [{ method: null, ...open }] },
      ],
      by_method: [
        { method: 'card', ...card },
        { method: null, ...open },
        { method: 'pix', ...pix },
      ],
      daily: [
        { date: '2026-11-24', ...zero },
        { date: '2026-11-25', ...all },
      ],
    });
  });

  it('defaults to the last 30 days including today in São Paulo, and days=N is the last N days', async () => {
    const before = saoPauloDate(new Date());
    await app.request('GET', '/v1/analytics/overview', { headers: FULL });
    await app.request('GET', '/v1/analytics/overview?days=1', { headers: FULL });
    await app.request('GET', '/v1/analytics/overview?days=366', { headers: FULL });
    const after = saoPauloDate(new Date());
    const today = seen[0]!.end_date;
    expect([before, after]).toContain(today);
    const span = (request: analytics.GetOverviewRequest) => (Date.parse(request.end_date) - Date.parse(request.start_date)) / 86_400_000 + 1;
    expect(seen.map(span)).toEqual([30, 1, 366]);
    expect(seen[1]).toMatchObject({ start_date: seen[1]!.end_date });
  });

  it('accepts exactly 366 days by start and end, and a single day', async () => {
    expect((await app.request('GET', '/v1/analytics/overview?start=2024-01-01&end=2024-12-31', { headers: FULL })).status).toBe(200);
    expect((await app.request('GET', '/v1/analytics/overview?start=2025-01-01&end=2026-01-01', { headers: FULL })).status).toBe(200);
    expect((await app.request('GET', '/v1/analytics/overview?start=2026-11-25&end=2026-11-25', { headers: FULL })).status).toBe(200);
    expect(seen.map((r) => [r.start_date, r.end_date])).toEqual([
      ['2024-01-01', '2024-12-31'],
      ['2025-01-01', '2026-01-01'],
      ['2026-11-25', '2026-11-25'],
    ]);
  });

  it('refuses a bad range in Portuguese with the param, without calling the service', async () => {
    const cases: Array<[string, string, string, RegExp]> = [
      ['days=0', 'parameter_invalid', 'days', /maior ou igual a 1.*1 a 366/],
      ['days=-3', 'parameter_invalid', 'days', /maior ou igual a 1/],
      ['days=367', 'parameter_invalid', 'days', /menor ou igual a 366/],
      ['days=abc', 'parameter_invalid', 'days', /número/],
      ['days=2.5', 'parameter_invalid', 'days', /inteiro/],
      ['days=', 'parameter_invalid', 'days', /maior ou igual a 1/],
      ['days=7&start=2026-11-01&end=2026-11-07', 'parameter_invalid', 'days', /days ou start e end, não os dois/],
      ['start=2026-11-01', 'parameter_missing', 'end', /end é obrigatório quando start/],
      ['end=2026-11-01', 'parameter_missing', 'start', /start é obrigatório quando end/],
      ['start=2026-11-30&end=2026-11-01', 'parameter_invalid', 'start', /não pode ser posterior a end/],
      ['start=2025-01-01&end=2026-01-02', 'parameter_invalid', 'end', /no máximo 366 dias \(recebido: 367\)/],
      ['start=2024-01-01&end=2025-01-01', 'parameter_invalid', 'end', /no máximo 366 dias \(recebido: 367\)/],
      ['start=01/11/2026&end=2026-11-30', 'parameter_invalid', 'start', /AAAA-MM-DD/],
      ['start=2026-02-30&end=2026-03-05', 'parameter_invalid', 'start', /data válida/],
      ['start=2026-11-01&end=2026-11-01T00:00:00Z', 'parameter_invalid', 'end', /AAAA-MM-DD/],
      ['start=&end=2026-11-01', 'parameter_invalid', 'start', /AAAA-MM-DD/],
      ['period=month', 'parameter_invalid', 'period', /não existe/],
    ];
    for (const [query, code, param, message] of cases) {
      const answer = await app.request('GET', `/v1/analytics/overview?${query}`, { headers: FULL });
      expect({ query, status: answer.status, error: answer.json.error }).toEqual({
        query,
        status: 400,
        error: expect.objectContaining({ type: 'invalid_request_error', code, param, message: expect.stringMatching(message) }),
      });
    }
    expect(seen).toEqual([]);
  });

  it('is for full keys only: a restricted key gets 403 restricted_key and the service is not asked', async () => {
    const answer = await app.request('GET', '/v1/analytics/overview?days=7', { headers: RESTRICTED });
    expect(answer.status).toBe(403);
    expect(answer.json.error).toMatchObject({ code: 'restricted_key' });
    const anonymous = await app.request('GET', '/v1/analytics/overview');
    expect(anonymous.status).toBe(401);
    expect(seen).toEqual([]);
  });

  it('passes a service refusal through with its param, and fails loudly on a method or time zone the document does not promise', async () => {
    clients.analytics.getOverview = async () => {
      throw new AppError('parameter_invalid', { param: 'start_date', message: 'O período é longo demais.' });
    };
    const refused = await app.request('GET', '/v1/analytics/overview?days=7', { headers: FULL });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ code: 'parameter_invalid', message: 'O período é longo demais.' });

    clients.analytics.getOverview = async (request) => ({ ...overview(request), by_method: [{ method: 'crypto', figures: PIX }] });
    expect((await app.request('GET', '/v1/analytics/overview?days=7', { headers: FULL })).status).toBe(500);
    clients.analytics.getOverview = async (request) => ({ ...overview(request), timezone: 'UTC' });
    expect((await app.request('GET', '/v1/analytics/overview?days=7', { headers: FULL })).status).toBe(500);
  });
});

describe('analytics overview query', () => {
  it('counts "today" on the São Paulo clock: 01:30Z is still the previous day there', () => {
    const at = (iso: string) => analyticsOverviewQuerySchema(() => new Date(iso));
    expect(at('2026-11-25T01:30:00Z').parse({ days: '7' })).toEqual({ start_date: '2026-11-18', end_date: '2026-11-24' });
    expect(at('2026-11-25T03:00:00Z').parse({ days: '7' })).toEqual({ start_date: '2026-11-19', end_date: '2026-11-25' });
    expect(at('2026-03-01T12:00:00Z').parse({})).toEqual({ start_date: '2026-01-31', end_date: '2026-03-01' });
    expect(at('2024-03-01T12:00:00Z').parse({ days: '1' })).toEqual({ start_date: '2024-03-01', end_date: '2024-03-01' });
    expect(at('2024-03-01T12:00:00Z').parse({ days: '2' })).toEqual({ start_date: '2024-02-29', end_date: '2024-03-01' });
  });
});
