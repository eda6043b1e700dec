import { createHash } from 'node:crypto';
import type { IntegrationConfig, ToolPlan } from './ad-tool';
import { saleFixture } from './sale-fixture';
import { TiktokTool, tiktokOutcome } from './tiktok.tool';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const tool = new TiktokTool('http://tiktok.test');
const config: IntegrationConfig = { kind: 'tiktok', options: { pixel_code: 'C4PIXEL123', test_event_code: 'TEST777' }, credentials: { access_token: 'tt-secret-token' } };
const now = new Date('2026-03-11T00:00:00.000Z');

function sent(plan: ToolPlan) {
  if (!plan.send) throw new Error(`not sent: ${plan.reason}`);
  return plan.request;
}

describe('TiktokTool', () => {
  it('builds the Events API 2.0 body with E.164 phone hashes', () => {
    const request = sent(tool.plan(saleFixture(), 'purchase', config, { test: false, now }));
    expect(request.url).toBe('http://tiktok.test/open_api/v1.3/event/track/');
    expect(request.headers['Access-Token']).toBe('tt-secret-token');
    expect(request.body).toEqual({
      event_source: 'web',
      event_source_id: 'C4PIXEL123',
      data: [
        {
          event: 'Purchase',
          event_time: Date.parse('2026-03-10T12:03:20.000Z') / 1000,
          event_id: 'pay_3kTq8ZxYw2',
          user: {
            email: [sha('maria.silva@example.com')],
            phone: [sha('+5511987654321')],
            external_id: [sha('12345678909')],
            ttclid: 'E.C.P.abc123',
            ttp: 'ttp-cookie-1',
            ip: '198.51.100.7',
            user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
          },
          properties: { value: 199.9, currency: 'BRL', order_id: 'pay_3kTq8ZxYw2', content_type: 'product' },
          page: { url: 'https://pay.orquestra.test/pay_3kTq8ZxYw2?utm_source=facebook' },
        },
      ],
    });
  });

  it('test code rule and age rule', () => {
    const test = sent(tool.plan(saleFixture(), 'purchase', config, { test: true, now })).body as Record<string, unknown>;
    expect(test['test_event_code']).toBe('TEST777');
    expect(tool.plan(saleFixture(), 'purchase', { ...config, options: { pixel_code: 'C4PIXEL123' } }, { test: true, now })).toMatchObject({ send: false, reason: 'missing_test_code' });
    expect(tool.plan(saleFixture(), 'purchase', config, { test: false, now: new Date('2026-03-17T12:03:21.000Z') })).toMatchObject({ send: false, reason: 'too_old' });
    expect(tool.plan(saleFixture(), 'paid', config, { test: false, now })).toMatchObject({ send: false, reason: 'not_for_tool' });
  });

  it('reads TikTok’s answer by its code', () => {
    expect(tiktokOutcome(200, '{"code":0,"message":"OK","request_id":"r1"}')).toBe('delivered');
    expect(tiktokOutcome(200, '{"code":40105,"message":"Access token is incorrect or has been revoked."}')).toBe('refused');
    expect(tiktokOutcome(200, '{"code":40002,"message":"bad param"}')).toBe('refused');
    expect(tiktokOutcome(200, '{"code":40100,"message":"Too many requests"}')).toBe('retry');
    expect(tiktokOutcome(200, '{"code":50000,"message":"System error"}')).toBe('retry');
    expect(tiktokOutcome(200, '<html>')).toBe('retry');
    expect(tiktokOutcome(503, '')).toBe('retry');
    expect(tiktokOutcome(0, '')).toBe('retry');
    expect(tiktokOutcome(401, '')).toBe('refused');
  });

  it('the summary has no token and no raw e-mail or phone', () => {
    const text = JSON.stringify(sent(tool.plan(saleFixture(), 'purchase', config, { test: false, now })).summary);
    expect(text).not.toContain('tt-secret-token');
    expect(text).not.toMatch(/maria|98765|example/i);
  });
});
