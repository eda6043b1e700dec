import { createHash } from 'node:crypto';
import { createTiktokEmulator, type TiktokEmulator } from './tiktok-emulator';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const NOW = new Date('2026-03-11T00:00:00.000Z');
const NOW_S = NOW.getTime() / 1000;

describe('tiktok emulator', () => {
  let emulator: TiktokEmulator;
  let api: string;
  let control: string;

  beforeAll(async () => {
    emulator = createTiktokEmulator({ tokens: [{ token: 'tt-token', pixels: ['C4PIXEL'] }], now: () => NOW });
    const ports = await emulator.start();
    api = `http://127.0.0.1:${ports.apiPort}`;
    control = `http://127.0.0.1:${ports.controlPort}`;
  });
  afterAll(() => emulator.stop());
  beforeEach(() => fetch(`${control}/__control/reset`, { method: 'POST' }));

  const body = (event: Record<string, unknown> = {}, user: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => ({
    event_source: 'web',
    event_source_id: 'C4PIXEL',
    data: [
      {
        event: 'Purchase',
        event_time: NOW_S - 60,
        event_id: 'pay_1',
        user: { email: [sha('maria@example.com')], phone: [sha('+5511987654321')], ttclid: 'E.C.P.1', ip: '198.51.100.7', user_agent: 'Mozilla/5.0', ...user },
        properties: { value: 199.9, currency: 'BRL' },
        page: { url: 'https://pay.example.test/pay_1' },
        ...event,
      },
    ],
    ...top,
  });

  async function post(payload: unknown, token: string | null = 'tt-token') {
    const response = await fetch(`${api}/open_api/v1.3/event/track/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'Access-Token': token } : {}) },
      body: JSON.stringify(payload),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  it('answers 200 with code 0 when it takes the events', async () => {
    const answer = await post(body());
    expect(answer).toEqual({ status: 200, body: { code: 0, message: 'OK', request_id: expect.any(String), data: {} } });
    const received = (await (await fetch(`${control}/__control/received?event_id=pay_1&outcome=accepted`)).json()) as { received: any[] };
    expect(received.received).toHaveLength(1);
  });

  it('answers its errors with HTTP 200 and a code', async () => {
    expect((await post(body(), null)).body.code).toBe(40104);
    expect(await post(body(), 'wrong')).toMatchObject({ status: 200, body: { code: 40105 } });
    expect((await post(body({}, {}, { event_source_id: 'C4OTHER' }))).body.code).toBe(40001);
  });

  it.each([
    ['an unhashed e-mail', body({}, { email: ['maria@example.com'] }), 'user.email'],
    ['a hashed IP', body({}, { ip: sha('198.51.100.7') }), 'user.ip'],
    ['no event_id', body({ event_id: undefined }), 'event_id'],
    ['an event older than 7 days', body({ event_time: NOW_S - 8 * 86_400 }), 'event_time'],
    ['a Purchase without currency', body({ properties: { value: 1 } }), 'currency'],
    ['another event source', body({}, {}, { event_source: 'server' }), 'event_source'],
  ])('refuses %s with code 40002 naming the field', async (_name, payload, field) => {
    const answer = await post(payload);
    expect(answer.status).toBe(200);
    expect(answer.body.code).toBe(40002);
    expect(answer.body.message).toContain(field);
  });

  it('records test events and answers injected faults with a 5xx', async () => {
    expect((await post(body({}, {}, { test_event_code: 'TEST1' }))).body.code).toBe(0);
    expect(((await (await fetch(`${control}/__control/received?test=true`)).json()) as { received: any[] }).received).toHaveLength(1);
    await fetch(`${control}/__control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'error', status: 502, times: 1 }) });
    expect(await post(body())).toMatchObject({ status: 502, body: { code: 50000 } });
    expect((await post(body())).body.code).toBe(0);
  });
});
