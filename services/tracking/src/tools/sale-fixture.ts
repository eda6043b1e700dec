/** A sale for the tools' specs and contract tests: paid by Pix through the payment page, with UTMs and click ids. */
import type { Sale } from './ad-tool';

export function saleFixture(overrides: Partial<Sale> = {}): Sale {
  return {
    payment_id: 'pay_3kTq8ZxYw2',
    merchant_id: 'mer_1',
    mode: 'live',
    method: 'pix',
    stage: 'paid',
    amount: 19_990,
    amount_refunded: 0,
    fee: 140,
    net: 19_850,
    description: 'Curso de fotografia',
    customer: { name: 'Maria Silva', email: ' Maria.Silva@Example.com ', phone: '+55 (11) 98765-4321', document: '123.456.789-09', ip: '203.0.113.9' },
    tracking: { utm_source: 'facebook', utm_medium: 'cpc', utm_campaign: 'black-friday', src: 'bio', fbclid: 'IwAR2xYz_AbC', ttclid: 'E.C.P.abc123', fbp: 'fb.1.1700000000000.1234567890', ttp: 'ttp-cookie-1' },
    subscription_id: null,
    created_at: '2026-03-10T12:00:00.000Z',
    approved_at: '2026-03-10T12:03:20.000Z',
    refunded_at: null,
    chargedback_at: null,
    visit: { ip: '198.51.100.7', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130', url: 'https://pay.orquestra.test/pay_3kTq8ZxYw2?utm_source=facebook', first_seen_at: '2026-03-10T11:58:00.000Z' },
    ...overrides,
  };
}
