import { createHash } from 'node:crypto';
import type { IntegrationConfig, ToolPlan } from './ad-tool';
import { MetaTool } from './meta.tool';
import { saleFixture } from './sale-fixture';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const tool = new MetaTool('http://graph.test', 'v25.0');
const config: IntegrationConfig = { kind: 'meta', options: { pixel_id: '123456789012345', test_event_code: 'TEST4321' }, credentials: { access_token: 'EAAB-secret-token' } };
const now = new Date('2026-03-11T00:00:00.000Z');

function sent(plan: ToolPlan) {
  if (!plan.send) throw new Error(`not sent: ${plan.reason}`);
  return plan.request;
}

describe('MetaTool', () => {
  it('sends a purchase on paid only', () => {
    expect(tool.eventsFor('paid')).toEqual(['purchase']);
    expect(tool.eventsFor('waiting_payment')).toEqual([]);
    expect(tool.eventsFor('refunded')).toEqual([]);
  });

  it('builds a website Purchase with hashed e-mail and phone', () => {
    const request = sent(tool.plan(saleFixture(), 'purchase', config, { test: false, now }));
    // The token goes in the body: client spans record URLs, and a credential never reaches a trace.
    expect(request.url).toBe('http://graph.test/v25.0/123456789012345/events');
    expect(JSON.stringify(request.summary)).not.toContain('EAAB-secret-token');
    expect(request.body).toEqual({
      data: [
        {
          event_name: 'Purchase',
          event_time: Date.parse('2026-03-10T12:03:20.000Z') / 1000,
          event_id: 'pay_3kTq8ZxYw2',
          action_source: 'website',
          event_source_url: 'https://pay.orquestra.test/pay_3kTq8ZxYw2?utm_source=facebook',
          user_data: {
            em: [sha('maria.silva@example.com')],
            ph: [sha('5511987654321')],
            external_id: [sha('12345678909')],
            country: [sha('br')],
            client_ip_address: '198.51.100.7',
            client_user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
            fbc: `fb.1.${Date.parse('2026-03-10T11:58:00.000Z')}.IwAR2xYz_AbC`,
            fbp: 'fb.1.1700000000000.1234567890',
          },
          custom_data: { value: 199.9, currency: 'BRL', order_id: 'pay_3kTq8ZxYw2' },
        },
      ],
      access_token: 'EAAB-secret-token',
    });
  });

  it('fbc as captured wins over one built from fbclid', () => {
    const sale = saleFixture({ tracking: { fbclid: 'IwAR2', fbc: 'fb.1.1699999999999.IwAR-original' } });
    const body = sent(tool.plan(sale, 'purchase', config, { test: false, now })).body as { data: Array<{ user_data: { fbc?: string; fbp?: string } }> };
    expect(body.data[0]!.user_data.fbc).toBe('fb.1.1699999999999.IwAR-original');
    expect(body.data[0]!.user_data.fbp).toBeUndefined();
  });

  it('a malformed fbc or fbp from the address is not passed on (fbc then built from fbclid)', () => {
    const sale = saleFixture({ tracking: { fbclid: 'IwAR9', fbc: 'not-a-cookie', fbp: 'fb.1.abc' } });
    const body = sent(tool.plan(sale, 'purchase', config, { test: false, now })).body as { data: Array<{ user_data: { fbc?: string; fbp?: string } }> };
    expect(body.data[0]!.user_data.fbc).toBe(`fb.1.${Date.parse('2026-03-10T11:58:00.000Z')}.IwAR9`);
    expect(body.data[0]!.user_data.fbp).toBeUndefined();
  });

  it('without a page visit: system_generated for a subscription cycle, other otherwise, no event_source_url', () => {
    const cycle = sent(tool.plan(saleFixture({ visit: null, subscription_id: 'sub_1' }), 'purchase', config, { test: false, now })).body as { data: Array<Record<string, unknown>> };
    expect(cycle.data[0]!['action_source']).toBe('system_generated');
    expect(cycle.data[0]!['event_source_url']).toBeUndefined();
    const api = sent(tool.plan(saleFixture({ visit: null }), 'purchase', config, { test: false, now })).body as { data: Array<{ action_source: string; user_data: Record<string, unknown> }> };
    expect(api.data[0]!.action_source).toBe('other');
    // fbc built from fbclid uses the sale's creation when no visit was seen.
    expect(api.data[0]!.user_data['fbc']).toBe(`fb.1.${Date.parse('2026-03-10T12:00:00.000Z')}.IwAR2xYz_AbC`);
    expect(api.data[0]!.user_data['client_ip_address']).toBe('203.0.113.9');
  });

  it('test sends carry the test code, or are not sent without one; live sends never carry it', () => {
    const test = sent(tool.plan(saleFixture(), 'purchase', config, { test: true, now })).body as Record<string, unknown>;
    expect(test['test_event_code']).toBe('TEST4321');
    const live = sent(tool.plan(saleFixture(), 'purchase', config, { test: false, now })).body as Record<string, unknown>;
    expect(live['test_event_code']).toBeUndefined();
    const noCode = { ...config, options: { pixel_id: '123456789012345' } };
    expect(tool.plan(saleFixture(), 'purchase', noCode, { test: true, now })).toMatchObject({ send: false, reason: 'missing_test_code' });
  });

  it('too old after 7 days from approval', () => {
    const approved = Date.parse('2026-03-10T12:03:20.000Z');
    expect(tool.plan(saleFixture(), 'purchase', config, { test: false, now: new Date(approved + 7 * 86_400_000) }).send).toBe(true);
    expect(tool.plan(saleFixture(), 'purchase', config, { test: false, now: new Date(approved + 7 * 86_400_000 + 1000) })).toMatchObject({ send: false, reason: 'too_old' });
  });

  it('the summary has no token and no raw e-mail or phone', () => {
    const text = JSON.stringify(sent(tool.plan(saleFixture(), 'purchase', config, { test: true, now })).summary);
    expect(text).not.toContain('EAAB-secret-token');
    expect(text).not.toMatch(/maria|98765|example/i);
    expect(text).toContain(sha('maria.silva@example.com'));
  });
});
