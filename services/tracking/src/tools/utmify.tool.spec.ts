import type { IntegrationConfig, ToolPlan } from './ad-tool';
import { saleFixture } from './sale-fixture';
import { UtmifyTool, utmifyDate } from './utmify.tool';

const tool = new UtmifyTool('http://utmify.test/');
const config: IntegrationConfig = { kind: 'utmify', options: { platform: 'Orquestra' }, credentials: { api_token: 'utm-secret-token-1' } };
const now = new Date('2026-03-11T00:00:00.000Z');

function sent(plan: ToolPlan) {
  if (!plan.send) throw new Error(`not sent: ${plan.reason}`);
  return plan.request;
}

describe('UtmifyTool', () => {
  it('sends every stage as the same order', () => {
    expect(tool.eventsFor('waiting_payment')).toEqual(['waiting_payment']);
    expect(tool.eventsFor('refunded')).toEqual(['refunded']);
  });

  it('builds the documented order body for a paid sale', () => {
    const request = sent(tool.plan(saleFixture(), 'paid', config, { test: false, now }));
    expect(request.url).toBe('http://utmify.test/api-credentials/orders');
    expect(request.headers['x-api-token']).toBe('utm-secret-token-1');
    expect(request.body).toEqual({
      orderId: 'pay_3kTq8ZxYw2',
      platform: 'Orquestra',
      paymentMethod: 'pix',
      status: 'paid',
      createdAt: '2026-03-10 12:00:00',
      approvedDate: '2026-03-10 12:03:20',
      refundedAt: null,
      customer: { name: 'Maria Silva', email: 'maria.silva@example.com', phone: '5511987654321', document: '12345678909', country: 'BR', ip: '198.51.100.7' },
      products: [{ id: 'pay_3kTq8ZxYw2', name: 'Curso de fotografia', planId: null, planName: null, quantity: 1, priceInCents: 19_990 }],
      trackingParameters: { src: 'bio', sck: null, utm_source: 'facebook', utm_campaign: 'black-friday', utm_medium: 'cpc', utm_content: null, utm_term: null },
      commission: { totalPriceInCents: 19_990, gatewayFeeInCents: 140, userCommissionInCents: 19_850, currency: 'BRL' },
    });
  });

  it('keeps orderId and createdAt on every update; refundedAt on refund; card is credit_card', () => {
    const sale = saleFixture({ method: 'card', refunded_at: '2026-03-10T20:00:00.000Z' });
    const waiting = sent(tool.plan(sale, 'waiting_payment', config, { test: false, now })).body as Record<string, unknown>;
    const refunded = sent(tool.plan(sale, 'refunded', config, { test: false, now })).body as Record<string, unknown>;
    expect([waiting['orderId'], waiting['createdAt'], waiting['approvedDate']]).toEqual(['pay_3kTq8ZxYw2', '2026-03-10 12:00:00', null]);
    expect([refunded['orderId'], refunded['createdAt'], refunded['approvedDate'], refunded['refundedAt']]).toEqual([
      'pay_3kTq8ZxYw2',
      '2026-03-10 12:00:00',
      '2026-03-10 12:03:20',
      '2026-03-10 20:00:00',
    ]);
    expect(refunded['paymentMethod']).toBe('credit_card');
  });

  it('dates the tool requires stand in as now when the sale lacks them', () => {
    const sale = saleFixture({ approved_at: null, refunded_at: null, chargedback_at: null });
    const paid = sent(tool.plan(sale, 'paid', config, { test: false, now })).body as Record<string, unknown>;
    expect(paid['approvedDate']).toBe('2026-03-11 00:00:00');
    const chargedback = sent(tool.plan(saleFixture({ chargedback_at: '2026-03-10T22:00:00.000Z' }), 'chargedback', config, { test: false, now })).body as Record<string, unknown>;
    expect(chargedback['refundedAt']).toBe('2026-03-10 22:00:00');
    const refunded = sent(tool.plan(sale, 'refunded', config, { test: false, now })).body as Record<string, unknown>;
    expect([refunded['approvedDate'], refunded['refundedAt']]).toEqual([null, '2026-03-11 00:00:00']);
  });

  it('fee unknown: 0, and the whole amount is the merchant’s', () => {
    const body = sent(tool.plan(saleFixture({ fee: null, net: null }), 'paid', config, { test: false, now })).body as { commission: unknown };
    expect(body.commission).toEqual({ totalPriceInCents: 19_990, gatewayFeeInCents: 0, userCommissionInCents: 19_990, currency: 'BRL' });
  });

  it('isTest on a test send', () => {
    const body = sent(tool.plan(saleFixture(), 'paid', config, { test: true, now })).body as Record<string, unknown>;
    expect(body['isTest']).toBe(true);
  });

  it('not sent without the customer e-mail', () => {
    const plan = tool.plan(saleFixture({ customer: { ...saleFixture().customer, email: '  ' } }), 'paid', config, { test: false, now });
    expect(plan).toMatchObject({ send: false, reason: 'missing_email' });
  });

  it('age: 7 days by created_at, 45 for refunds and chargebacks', () => {
    const sale = saleFixture();
    const day = 86_400_000;
    const created = Date.parse(sale.created_at);
    const at = (ms: number) => ({ test: false, now: new Date(created + ms) });
    expect(tool.plan(sale, 'paid', config, at(7 * day)).send).toBe(true);
    expect(tool.plan(sale, 'paid', config, at(7 * day + 1000))).toMatchObject({ send: false, reason: 'too_old' });
    expect(tool.plan(sale, 'refunded', config, at(45 * day)).send).toBe(true);
    expect(tool.plan(sale, 'chargedback', config, at(45 * day + 1000))).toMatchObject({ send: false, reason: 'too_old' });
    expect(tool.plan(sale, 'refunded', config, at(30 * day)).send).toBe(true);
  });

  it('the summary has no token and no raw e-mail or phone', () => {
    const request = sent(tool.plan(saleFixture(), 'paid', config, { test: false, now }));
    const text = JSON.stringify(request.summary);
    expect(text).not.toContain('utm-secret-token-1');
    expect(text).not.toMatch(/maria|98765|example/i);
    expect(request.summary).toMatchObject({ orderId: 'pay_3kTq8ZxYw2', status: 'paid' });
  });

  it('formats dates as YYYY-MM-DD HH:MM:SS in UTC', () => {
    expect(utmifyDate('2026-03-10T09:03:20.123-03:00')).toBe('2026-03-10 12:03:20');
  });
});
