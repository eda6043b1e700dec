import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderAdapter } from '../provider-adapter';
import type { ProviderDisputeStatus } from '../provider-disputes';
import { AsaasAdapter } from './asaas.adapter';
import { chargebackOf, mapChargebackPaymentStatus, mapChargebackStatus, type AsaasChargebackStatus } from './asaas.chargebacks';
import { parseJsonExact } from './asaas.json';
import { WEBHOOK_EVENTS } from './asaas.webhook';

const raw = (name: string) => readFileSync(join(__dirname, 'fixtures', name));
const paymentOf = (name: string) => (parseJsonExact(raw(name).toString('utf8')) as { payment: Record<string, unknown> }).payment;

const TOKEN = 'token-of-the-chargeback-spec-0123456789abcdef';
const adapter = new AsaasAdapter({ baseUrl: 'http://127.0.0.1:1/v3', credentials: { api_key: 'k' }, webhookUrl: '', webhookSecret: 'whsec', signingSecret: TOKEN, settings: {}, timeoutMs: 1_000 });
const webhook = (rawBody: Buffer, token = TOKEN) => ({ subPath: '', query: {}, headers: { 'asaas-access-token': token }, rawBody });

afterAll(() => adapter.close());

describe('mapChargebackStatus', () => {
  it.each<[AsaasChargebackStatus, ProviderDisputeStatus]>([
    ['REQUESTED', 'open'],
    ['IN_DISPUTE', 'under_review'],
    ['REVERSED', 'won'],
    ['DISPUTE_LOST', 'lost'],
    ['DONE', 'lost'],
  ])('%s → %s', (status, expected) => {
    expect(mapChargebackStatus(status)).toBe(expected);
  });

  it('maps the chargeback payment statuses and throws on a status it does not know', () => {
    expect(mapChargebackPaymentStatus('CHARGEBACK_REQUESTED')).toBe('open');
    expect(mapChargebackPaymentStatus('CHARGEBACK_DISPUTE')).toBe('under_review');
    expect(mapChargebackPaymentStatus('AWAITING_CHARGEBACK_REVERSAL')).toBe('won');
    expect(() => mapChargebackStatus('CANCELLED' as AsaasChargebackStatus)).toThrow('unhandled value');
  });
});

describe('chargebackOf', () => {
  it('reads PAYMENT_CHARGEBACK_REQUESTED as an open chargeback named and linked by the payment id, amount in cents, no evidence by API', () => {
    expect(chargebackOf(paymentOf('webhook-chargeback-requested.json'))).toEqual({
      kind: 'dispute',
      dispute: {
        providerDisputeId: 'pay_7g3k2m9q1x4c',
        kind: 'chargeback',
        status: 'open',
        providerStatus: 'REQUESTED',
        providerPaymentId: 'pay_7g3k2m9q1x4c',
        amount: 15_990,
        reason: 'MERCHANDISE_NOT_RECEIVED',
        acceptsEvidence: false,
      },
    });
  });

  it('reads the dispute, the reversal (status only) and a lost decision on another event', () => {
    expect(chargebackOf(paymentOf('webhook-chargeback-dispute.json'))).toMatchObject({ kind: 'dispute', dispute: { status: 'under_review', providerStatus: 'IN_DISPUTE' } });
    const reversal = chargebackOf(paymentOf('webhook-awaiting-chargeback-reversal.json'));
    expect(reversal).toMatchObject({ kind: 'dispute', dispute: { status: 'won', providerStatus: 'AWAITING_CHARGEBACK_REVERSAL', amount: 15_990 } });
    expect(reversal.kind === 'dispute' && 'reason' in reversal.dispute).toBe(false);
    expect(chargebackOf(paymentOf('webhook-chargeback-dispute-lost.json'))).toMatchObject({ kind: 'dispute', dispute: { status: 'lost', providerStatus: 'DISPUTE_LOST' } });
  });

  it('ignores payments without a chargeback, refuses a malformed one and does not guess an unknown status', () => {
    expect(chargebackOf(paymentOf('webhook-payment-received.json'))).toEqual({ kind: 'none' });
    expect(chargebackOf({ ...paymentOf('webhook-payment-received.json'), chargeback: null })).toEqual({ kind: 'none' });
    expect(chargebackOf(undefined)).toEqual({ kind: 'none' });
    const requested = paymentOf('webhook-chargeback-requested.json');
    expect(chargebackOf({ ...requested, chargeback: { reason: 'X' } })).toEqual({ kind: 'malformed' });
    expect(chargebackOf({ ...requested, value: '1.999' })).toEqual({ kind: 'malformed' });
    expect(chargebackOf({ ...requested, chargeback: { status: 'PRE_ARBITRATION' } })).toEqual({ kind: 'unknown_status', status: 'PRE_ARBITRATION' });
  });
});

describe('AsaasAdapter.parseWebhook with chargebacks', () => {
  it('subscribes the three chargeback events', () => {
    expect(WEBHOOK_EVENTS).toEqual(expect.arrayContaining(['PAYMENT_CHARGEBACK_REQUESTED', 'PAYMENT_CHARGEBACK_DISPUTE', 'PAYMENT_AWAITING_CHARGEBACK_REVERSAL']));
  });

  it('reports the dispute with the payment, keyed by the event id (a redelivery is the same key)', () => {
    const body = raw('webhook-chargeback-requested.json');
    const first = adapter.parseWebhook(webhook(body));
    expect(first).toMatchObject({
      ok: true,
      providerPaymentIds: ['pay_7g3k2m9q1x4c'],
      eventKey: 'asaas:evt_9a1c0e5b7d2f4e6a8b3c1d0e9f8a7b6c&368611001',
      disputes: [{ providerDisputeId: 'pay_7g3k2m9q1x4c', status: 'open', kind: 'chargeback', amount: 15_990 }],
    });
    expect(adapter.parseWebhook(webhook(body))).toEqual(first);
  });

  it('an unknown chargeback status is acknowledged without a dispute; a wrong token is 401; other events carry none', () => {
    const payment = { ...paymentOf('webhook-chargeback-requested.json'), chargeback: { status: 'PRE_ARBITRATION' } };
    const body = Buffer.from(JSON.stringify({ id: 'evt_x', event: 'PAYMENT_UPDATED', dateCreated: '2025-03-24 10:12:03', payment }));
    const parsed = adapter.parseWebhook(webhook(body));
    expect(parsed).toEqual({ ok: true, providerPaymentIds: ['pay_7g3k2m9q1x4c'], eventKey: 'asaas:evt_x' });
    expect(adapter.parseWebhook(webhook(raw('webhook-chargeback-requested.json'), 'wrong'))).toMatchObject({ ok: false, httpStatus: 401 });
    expect(adapter.parseWebhook(webhook(raw('webhook-payment-received.json')))).not.toHaveProperty('disputes');
  });

  it('takes no defense by API (the providers service answers dispute_evidence_not_supported)', () => {
    const asAdapter: ProviderAdapter = adapter;
    expect(asAdapter.submitDisputeEvidence).toBeUndefined();
  });
});
