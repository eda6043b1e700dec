import { createHash } from 'node:crypto';
import { createMetaEmulator, type MetaEmulator } from './meta-emulator';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const NOW = new Date('2026-03-11T00:00:00.000Z');
const NOW_S = NOW.getTime() / 1000;

describe('meta emulator', () => {
  let emulator: MetaEmulator;
  let api: string;
  let control: string;

  beforeAll(async () => {
    emulator = createMetaEmulator({ tokens: ['EAAB-open', { token: 'EAAB-bound', pixels: ['111'] }], now: () => NOW });
    const ports = await emulator.start();
    api = `http://127.0.0.1:${ports.apiPort}`;
    control = `http://127.0.0.1:${ports.controlPort}`;
  });
  afterAll(() => emulator.stop());
  beforeEach(() => fetch(`${control}/__control/reset`, { method: 'POST' }));

  const purchase = (overrides: Record<string, unknown> = {}, user: Record<string, unknown> = {}) => ({
    event_name: 'Purchase',
    event_time: NOW_S - 3600,
    event_id: 'pay_1',
    action_source: 'website',
    event_source_url: 'https://pay.example.test/pay_1',
    user_data: { em: [sha('maria@example.com')], ph: [sha('5511987654321')], client_user_agent: 'Mozilla/5.0', client_ip_address: '198.51.100.7', fbc: 'fb.1.1741600000000.IwAR2', ...user },
    custom_data: { value: 199.9, currency: 'BRL' },
    ...overrides,
  });

  async function post(body: Record<string, unknown>, { token = 'EAAB-open' as string | null, pixel = '111' } = {}) {
    const query = token ? `?access_token=${encodeURIComponent(token)}` : '';
    const response = await fetch(`${api}/v25.0/${pixel}/events${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as any };
  }

  it('takes valid events: {events_received, messages, fbtrace_id}', async () => {
    const answer = await post({ data: [purchase()] });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ events_received: 1, messages: [], fbtrace_id: expect.any(String) });
    const received = (await (await fetch(`${control}/__control/received?event_id=pay_1`)).json()) as { received: any[] };
    expect(received.received).toHaveLength(1);
    expect(received.received[0]).toMatchObject({ outcome: 'accepted', test: false, keys: { pixel: '111', event_ids: ['pay_1'] } });
    expect(JSON.stringify(received.received)).not.toContain('EAAB-open');
  });

  it('refuses missing and unknown tokens, and a pixel the token may not send to, as OAuthException', async () => {
    expect((await post({ data: [purchase()] }, { token: null })).body.error).toMatchObject({ type: 'OAuthException', code: 104 });
    const unknown = await post({ data: [purchase()] }, { token: 'EAAB-wrong' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ type: 'OAuthException', code: 190, fbtrace_id: expect.any(String) });
    expect((await post({ data: [purchase()] }, { token: 'EAAB-bound', pixel: '222' })).body.error).toMatchObject({ code: 100, error_subcode: 33 });
    expect((await post({ data: [purchase()] }, { token: 'EAAB-bound', pixel: '111' })).status).toBe(200);
  });

  it.each([
    ['an unhashed e-mail', purchase({}, { em: ['maria@example.com'] }), "['user_data']['em']"],
    ['an upper-case hash', purchase({}, { ph: sha('5511987654321').toUpperCase() }), "['user_data']['ph']"],
    ['a malformed fbc', purchase({}, { fbc: 'IwAR2' }), "['user_data']['fbc']"],
    ['a website event without user agent', purchase({}, { client_user_agent: undefined }), 'client_user_agent'],
    ['a website event without URL', purchase({ event_source_url: undefined }), 'event_source_url'],
    ['no event_id', purchase({ event_id: undefined }), 'event_id'],
    ['a Purchase without currency', purchase({ custom_data: { value: 10 } }), 'currency'],
    ['an unknown action_source', purchase({ action_source: 'api' }), 'action_source'],
    ['event_time in milliseconds', purchase({ event_time: NOW.getTime() }), ''],
  ])('one bad event fails the request: %s', async (_name, event, mentioned) => {
    const answer = await post({ data: [purchase({ event_id: 'ok' }), event] });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'OAuthException', code: 100 });
    expect(answer.body.error.error_user_msg).toContain(mentioned);
  });

  it('age: more than 7 days old is refused (subcode 2804003); a non-website event needs no URL', async () => {
    const old = await post({ data: [purchase({ event_time: NOW_S - 7 * 86_400 - 1 })] });
    expect(old.body.error).toMatchObject({ error_subcode: 2804003, error_user_title: 'Event Timestamp Too Old' });
    expect((await post({ data: [purchase({ event_time: NOW_S + 3600 })] })).body.error.error_subcode).toBe(2804004);
    expect((await post({ data: [purchase({ action_source: 'system_generated', event_source_url: undefined }, { client_user_agent: undefined })] })).status).toBe(200);
  });

  it('test_event_code events are recorded as test', async () => {
    expect((await post({ data: [purchase()], test_event_code: 'TEST123' })).status).toBe(200);
    const received = (await (await fetch(`${control}/__control/received?test=true`)).json()) as { received: any[] };
    expect(received.received).toHaveLength(1);
  });

  it('injected errors answer Graph’s transient error', async () => {
    await fetch(`${control}/__control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'error', times: 1 }) });
    const failed = await post({ data: [purchase()] });
    expect(failed.status).toBe(500);
    expect(failed.body.error).toMatchObject({ code: 2, is_transient: true });
    expect((await post({ data: [purchase()] })).status).toBe(200);
  });
});
