import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderDisputeStatus } from '../provider-disputes';
import { StripeAdapter } from './stripe.adapter';
import { buildEvidenceParams, mapDisputeStatus, stripeDisputeOf, submitStripeDisputeEvidence, toProviderDispute, type StripeDispute, type StripeDisputeStatus } from './stripe.disputes';
import { encodeForm } from './stripe.form-encoding';
import { parseStripeEvent, signatureHeaderFor } from './stripe.webhook';

const raw = (name: string) => readFileSync(join(__dirname, 'fixtures', name));
const fixture = <T>(name: string): T => JSON.parse(raw(name).toString('utf8')) as T;

describe('mapDisputeStatus', () => {
  it.each<[StripeDisputeStatus, ProviderDisputeStatus]>([
    ['warning_needs_response', 'open'],
    ['needs_response', 'open'],
    ['warning_under_review', 'under_review'],
    ['under_review', 'under_review'],
    ['won', 'won'],
    ['lost', 'lost'],
    ['warning_closed', 'canceled'],
    ['prevented', 'canceled'],
  ])('%s → %s', (status, expected) => {
    expect(mapDisputeStatus(status)).toBe(expected);
  });

  it('throws on a status it does not know', () => {
    expect(() => mapDisputeStatus('charge_refunded' as StripeDisputeStatus)).toThrow('unhandled value');
  });
});

describe('dispute events', () => {
  it('reads charge.dispute.created as an open chargeback on the PaymentIntent, with the due date', () => {
    const event = parseStripeEvent(raw('event-charge-dispute-created.json'));
    expect(event).toMatchObject({ kind: 'event', eventId: 'evt_1QpRsU2eZvKYlo2CdisputeA', type: 'charge.dispute.created', paymentIntentIds: [] });
    if (event.kind !== 'event' || !event.dispute) throw new Error('no dispute');
    expect(toProviderDispute(event.dispute)).toEqual({
      providerDisputeId: 'dp_1QpRsT2eZvKYlo2C0aBcDeFg',
      kind: 'chargeback',
      status: 'open',
      providerStatus: 'needs_response',
      providerPaymentId: 'pi_3QpRs12eZvKYlo2C1mNoPqRs',
      amount: 15990,
      reason: 'fraudulent',
      openedAt: new Date(1763942400 * 1000),
      answerDueAt: new Date(1764547200 * 1000),
      acceptsEvidence: true,
    });
  });

  it('reads updated (under_review), closed (lost, no due date) and an inquiry (open)', () => {
    const statusOf = (name: string) => {
      const event = parseStripeEvent(raw(name));
      if (event.kind !== 'event' || !event.dispute) throw new Error('no dispute');
      return toProviderDispute(event.dispute);
    };
    expect(statusOf('event-charge-dispute-updated.json')).toMatchObject({ status: 'under_review', providerStatus: 'under_review' });
    const closed = statusOf('event-charge-dispute-closed-lost.json');
    expect(closed).toMatchObject({ status: 'lost', providerStatus: 'lost' });
    expect(closed.answerDueAt).toBeUndefined();
    expect(statusOf('event-charge-dispute-inquiry.json')).toMatchObject({ status: 'open', providerStatus: 'warning_needs_response' });
  });

  it('acknowledges a dispute event with an unknown status without a dispute, and refuses a broken one', () => {
    const body = fixture<{ data: { object: Record<string, unknown> } }>('event-charge-dispute-created.json');
    body.data.object['status'] = 'something_new';
    const unknown = parseStripeEvent(Buffer.from(JSON.stringify(body)));
    expect(unknown).toMatchObject({ kind: 'event', paymentIntentIds: [] });
    expect(unknown.kind === 'event' && unknown.dispute).toBeFalsy();
    body.data.object['amount'] = '159.90';
    expect(parseStripeEvent(Buffer.from(JSON.stringify(body)))).toEqual({ kind: 'malformed' });
    expect(stripeDisputeOf({ object: 'charge', id: 'ch_1' })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('parseWebhook reports the dispute only when the Stripe-Signature is valid', () => {
    const secret = 'whsec_disputes_unit';
    const adapter = new StripeAdapter({ baseUrl: 'http://127.0.0.1:1', credentials: { secret_key: 'sk_test_x' }, webhookUrl: '', webhookSecret: '', signingSecret: secret, settings: {}, timeoutMs: 1000 });
    const body = raw('event-charge-dispute-created.json');
    const now = Math.floor(Date.now() / 1000);
    const parsed = adapter.parseWebhook({ subPath: '', query: {}, headers: { 'stripe-signature': signatureHeaderFor(secret, now, body) }, rawBody: body });
    expect(parsed).toMatchObject({ ok: true, providerPaymentIds: [], eventKey: 'stripe:evt_1QpRsU2eZvKYlo2CdisputeA', disputes: [{ providerDisputeId: 'dp_1QpRsT2eZvKYlo2C0aBcDeFg', status: 'open' }] });
    const forged = adapter.parseWebhook({ subPath: '', query: {}, headers: { 'stripe-signature': signatureHeaderFor('whsec_other', now, body) }, rawBody: body });
    expect(forged).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
    void adapter.close();
  });
});

describe('evidence', () => {
  it('sends the text and the links as evidence[uncategorized_text] with submit=true', () => {
    const params = buildEvidenceParams({ providerDisputeId: 'dp_1', text: 'Entregue em 20/11.', urls: ['https://loja.example/nf/123.pdf'] });
    expect(params).toEqual({ evidence: { uncategorized_text: 'Entregue em 20/11.\n\nComprovantes:\nhttps://loja.example/nf/123.pdf' }, submit: true });
    expect(encodeForm(params)).toBe('evidence[uncategorized_text]=Entregue%20em%2020%2F11.%0A%0AComprovantes%3A%0Ahttps%3A%2F%2Floja.example%2Fnf%2F123.pdf&submit=true');
    expect(buildEvidenceParams({ providerDisputeId: 'dp_1', text: 'Sem links.', urls: [] })).toEqual({ evidence: { uncategorized_text: 'Sem links.' }, submit: true });
    expect(() => buildEvidenceParams({ providerDisputeId: 'dp_1', text: 'x'.repeat(20_001), urls: [] })).toThrow(RangeError);
  });

  it('posts to /v1/disputes/{id} and maps a refusal to a rejected ProviderError', async () => {
    const calls: unknown[] = [];
    const ok = await submitStripeDisputeEvidence(async (...args) => {
      calls.push(args);
      return { status: 200, body: fixture<StripeDispute>('dispute-under-review.json') };
    }, { providerDisputeId: 'dp_1QpRsT2eZvKYlo2C0aBcDeFg', text: 'Entregue em 20/11.', urls: ['https://loja.example/nf/123.pdf'] });
    expect(ok.status).toBe('under_review');
    expect(calls[0]).toEqual(['POST', '/v1/disputes/dp_1QpRsT2eZvKYlo2C0aBcDeFg', 'write', { evidence: { uncategorized_text: expect.stringContaining('Comprovantes:') }, submit: true }]);
    await expect(
      submitStripeDisputeEvidence(async () => ({ status: 400, body: { error: { type: 'invalid_request_error', message: 'This dispute is lost; evidence can no longer be updated.', param: 'evidence' } } }), { providerDisputeId: 'dp_1', text: 't', urls: [] }),
    ).rejects.toMatchObject({ name: 'ProviderError', kind: 'rejected' });
    await expect(submitStripeDisputeEvidence(async () => ({ status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing' } } }), { providerDisputeId: 'dp_x', text: 't', urls: [] })).rejects.toMatchObject({ kind: 'not_found' });
  });
});
