import { createHmac } from 'node:crypto';
import { Orquestra } from '../client';
import { SignatureVerificationError, constructEvent, generateTestHeader, verifySignature } from './signature';

// Vectors are built here with Node's crypto straight from the definition
// (v1 = hex HMAC-SHA256 of "<t>.<raw body>"), not with the code under test.
function sign(secret: string, t: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${t}.`), Buffer.from(body)])).digest('hex');
}

const secret = 'whsec_sdk_test_secret';
const oldSecret = 'whsec_sdk_old_secret';
const body = JSON.stringify({ id: 'evt_01', object: 'event', type: 'payment.succeeded', created: 1_790_000_000, data: { object: { id: 'pay_1', descrição: 'ção' } } });
const now = 1_790_000_100;

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(SignatureVerificationError);
    return (error as SignatureVerificationError).code;
  }
}

describe('webhook signature verifier', () => {
  it('accepts a header signed with the secret and returns the event', () => {
    const header = `t=${now},v1=${sign(secret, now, body)}`;
    expect(() => verifySignature(body, header, secret, { nowSeconds: now })).not.toThrow();
    expect(constructEvent(Buffer.from(body), header, secret, { nowSeconds: now })).toMatchObject({ id: 'evt_01', type: 'payment.succeeded' });
  });

  it('accepts any of several v1 (rotation), with the old or the new secret', () => {
    const header = `t=${now},v1=${sign(oldSecret, now, body)},v1=${sign(secret, now, body)}`;
    expect(codeOf(() => verifySignature(body, header, secret, { nowSeconds: now }))).toBeUndefined();
    expect(codeOf(() => verifySignature(body, header, [oldSecret], { nowSeconds: now }))).toBeUndefined();
    expect(codeOf(() => verifySignature(body, `t=${now},v1=${sign(oldSecret, now, body)}`, ['whsec_other', oldSecret], { nowSeconds: now }))).toBeUndefined();
  });

  it('refuses a body changed by one byte, a wrong secret and a signature of another timestamp', () => {
    const header = `t=${now},v1=${sign(secret, now, body)}`;
    expect(codeOf(() => verifySignature(`${body} `, header, secret, { nowSeconds: now }))).toBe('signature_mismatch');
    expect(codeOf(() => verifySignature(body, header, 'whsec_wrong', { nowSeconds: now }))).toBe('signature_mismatch');
    expect(codeOf(() => verifySignature(body, `t=${now},v1=${sign(secret, now - 1, body)}`, secret, { nowSeconds: now }))).toBe('signature_mismatch');
  });

  it('allows 300 s of clock difference either way by default, and no more', () => {
    const at = (t: number) => `t=${t},v1=${sign(secret, t, body)}`;
    expect(codeOf(() => verifySignature(body, at(now - 300), secret, { nowSeconds: now }))).toBeUndefined();
    expect(codeOf(() => verifySignature(body, at(now + 300), secret, { nowSeconds: now }))).toBeUndefined();
    expect(codeOf(() => verifySignature(body, at(now - 301), secret, { nowSeconds: now }))).toBe('timestamp_out_of_tolerance');
    expect(codeOf(() => verifySignature(body, at(now + 301), secret, { nowSeconds: now }))).toBe('timestamp_out_of_tolerance');
    expect(codeOf(() => verifySignature(body, at(now - 1000), secret, { nowSeconds: now, toleranceSeconds: 3600 }))).toBeUndefined();
  });

  it('refuses missing and malformed headers, and ignores unknown schemes', () => {
    expect(codeOf(() => verifySignature(body, undefined, secret))).toBe('malformed_signature');
    expect(codeOf(() => verifySignature(body, '', secret))).toBe('malformed_signature');
    expect(codeOf(() => verifySignature(body, `v1=${sign(secret, now, body)}`, secret, { nowSeconds: now }))).toBe('malformed_signature');
    expect(codeOf(() => verifySignature(body, `t=${now},v1=zz`, secret, { nowSeconds: now }))).toBe('malformed_signature');
    expect(codeOf(() => verifySignature(body, `t=${now},v0=abc,v1=${sign(secret, now, body)},v2=def`, secret, { nowSeconds: now }))).toBeUndefined();
  });

  it('judges against the real clock by default', () => {
    const t = Math.floor(Date.now() / 1000);
    expect(codeOf(() => verifySignature(body, `t=${t},v1=${sign(secret, t, body)}`, secret))).toBeUndefined();
  });

  it('generates test headers the verifier accepts, also through the client and the class', () => {
    const header = generateTestHeader(body, [oldSecret, secret], now);
    expect(header).toBe(`t=${now},v1=${sign(oldSecret, now, body)},v1=${sign(secret, now, body)}`);
    const client = new Orquestra({ apiKey: 'svc_test_x', baseUrl: 'http://127.0.0.1:1' });
    expect(client.webhooks.constructEvent(body, header, secret, { nowSeconds: now })).toMatchObject({ id: 'evt_01' });
    expect(codeOf(() => Orquestra.webhooks.verifySignature(body, header, 'whsec_other', { nowSeconds: now }))).toBe('signature_mismatch');
  });
});
