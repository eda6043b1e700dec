import { createHmac } from 'node:crypto';
import { parseSignatureHeader, signWebhookPayload, verifyWebhookSignature } from './webhook-signature';

/** An independent implementation, written from docs/events.md, not from the code under test. */
function independentSignature(secret: string, t: number, body: string): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  mac.update(Buffer.from(`${t}.${body}`, 'utf8'));
  return mac.digest('hex');
}

describe('webhook signatures', () => {
  const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment.succeeded', created: 1, data: { object: { valor: 'R$ 19,90 ção' } } });
  const secret = 'whsec_test_secret_one';
  const other = 'whsec_test_secret_two';
  const now = 1_790_000_000;

  it('signs t.<raw body> with HMAC-SHA256 keyed by the whole secret string', () => {
    const header = signWebhookPayload(body, [secret], now);
    expect(header).toBe(`t=${now},v1=${independentSignature(secret, now, body)}`);
  });

  it('sends one v1 per secret during a rotation, and either secret verifies', () => {
    const header = signWebhookPayload(body, [other, secret], now);
    expect(parseSignatureHeader(header)?.signatures).toHaveLength(2);
    expect(verifyWebhookSignature(body, header, [secret], 300, now)).toEqual({ ok: true, timestamp: now });
    expect(verifyWebhookSignature(body, header, [other], 300, now).ok).toBe(true);
  });

  it('verifies a header made by the independent implementation', () => {
    const header = `t=${now},v1=${independentSignature(secret, now, body)}`;
    expect(verifyWebhookSignature(body, header, [secret], 300, now).ok).toBe(true);
  });

  it('refuses a changed body, a wrong secret, an old timestamp and a malformed header', () => {
    const header = signWebhookPayload(body, [secret], now);
    expect(verifyWebhookSignature(`${body} `, header, [secret], 300, now)).toEqual({ ok: false, reason: 'no_matching_signature' });
    expect(verifyWebhookSignature(body, header, [other], 300, now)).toEqual({ ok: false, reason: 'no_matching_signature' });
    expect(verifyWebhookSignature(body, header, [secret], 300, now + 301)).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verifyWebhookSignature(body, header, [secret], 300, now - 301)).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verifyWebhookSignature(body, 'v1=abc', [secret], 300, now)).toEqual({ ok: false, reason: 'malformed_header' });
    expect(verifyWebhookSignature(body, undefined, [secret], 300, now)).toEqual({ ok: false, reason: 'malformed_header' });
  });

  it('ignores unknown schemes next to v1', () => {
    const header = `${signWebhookPayload(body, [secret], now)},v0=zzz,v2=abc`;
    expect(verifyWebhookSignature(Buffer.from(body), header, [secret], 300, now).ok).toBe(true);
  });
});
