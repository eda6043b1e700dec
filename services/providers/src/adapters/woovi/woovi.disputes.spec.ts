import { generateKeyPairSync, sign } from 'node:crypto';
import { WooviAdapter } from './woovi.adapter';
import { mapDisputeStatus, toProviderDispute, WOOVI_DISPUTE_STATUSES, wooviDisputeOf } from './woovi.disputes';
import { parseWooviWebhookBody } from './woovi.webhook';
import created from './fixtures/webhook-dispute-created.json';
import accepted from './fixtures/webhook-dispute-accepted.json';
import rejected from './fixtures/webhook-dispute-rejected-woovi-prefix.json';

const raw = (body: unknown) => Buffer.from(JSON.stringify(body));

describe('Woovi MED disputes', () => {
  it('maps every documented status (accepted against the merchant = lost)', () => {
    expect(Object.fromEntries(WOOVI_DISPUTE_STATUSES.map((s) => [s, mapDisputeStatus(s)]))).toEqual({
      OPENED: 'open',
      IN_REVIEW: 'open',
      ACCEPTED: 'lost',
      REJECTED: 'won',
      CANCELED: 'canceled',
    });
  });

  it('reads the documented DISPUTE_CREATED payload as an open MED named by its end-to-end id, in cents', () => {
    const parsed = parseWooviWebhookBody(raw(created));
    expect(parsed).toMatchObject({ kind: 'dispute', event: 'OPENPIX:DISPUTE_CREATED' });
    if (parsed.kind !== 'dispute') throw new Error('not a dispute');
    expect(toProviderDispute(parsed.dispute)).toEqual({
      providerDisputeId: 'E3524a995bbd54034b6d07c1c36014557',
      kind: 'med',
      status: 'open',
      providerStatus: 'OPENED',
      endToEndId: 'E3524a995bbd54034b6d07c1c36014557',
      amount: 1000,
      reason: 'Golpe',
      acceptsEvidence: false,
    });
  });

  it('keys redeliveries of one notification alike and each status change apart (any prefix)', () => {
    const first = parseWooviWebhookBody(raw(created));
    const again = parseWooviWebhookBody(Buffer.from(JSON.stringify(created, null, 2)));
    const decided = parseWooviWebhookBody(raw(accepted));
    const turnedDown = parseWooviWebhookBody(raw(rejected));
    if (first.kind !== 'dispute' || again.kind !== 'dispute' || decided.kind !== 'dispute' || turnedDown.kind !== 'dispute') throw new Error('not disputes');
    expect(again.eventKey).toBe(first.eventKey);
    expect(decided.eventKey).not.toBe(first.eventKey);
    expect(toProviderDispute(decided.dispute).status).toBe('lost');
    expect(toProviderDispute(turnedDown.dispute).status).toBe('won');
  });

  it('refuses a dispute without end-to-end id or with a fractional value, and never guesses an unknown status', () => {
    expect(wooviDisputeOf({ status: 'OPENED', value: 10 })).toEqual({ ok: false, reason: 'malformed' });
    expect(wooviDisputeOf({ status: 'OPENED', endToEndId: 'E1', value: 10.5 })).toEqual({ ok: false, reason: 'malformed' });
    expect(wooviDisputeOf({ status: 'ESCALATED', endToEndId: 'E1' })).toEqual({ ok: false, reason: 'unknown_status' });
    expect(parseWooviWebhookBody(raw({ event: 'OPENPIX:DISPUTE_CREATED', dispute: { status: 'OPENED' } }))).toEqual({ kind: 'malformed' });
    expect(parseWooviWebhookBody(raw({ event: 'OPENPIX:DISPUTE_X', dispute: { status: 'ESCALATED', endToEndId: 'E1' } }))).toMatchObject({ kind: 'other' });
  });

  it('reports the dispute from a signed webhook through the adapter', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const adapter = new WooviAdapter({
      baseUrl: 'http://127.0.0.1:1',
      credentials: { app_id: 'x' },
      webhookUrl: 'http://h/w?hmac=s3cret',
      webhookSecret: 's3cret',
      settings: { webhook_public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
      timeoutMs: 1_000,
    });
    const body = raw(created);
    const signature = sign('sha256', body, privateKey).toString('base64');
    const result = adapter.parseWebhook({ subPath: '', query: { hmac: 's3cret' }, headers: { 'x-webhook-signature': signature }, rawBody: body });
    expect(result).toMatchObject({ ok: true, providerPaymentIds: [], disputes: [{ providerDisputeId: 'E3524a995bbd54034b6d07c1c36014557', status: 'open', amount: 1000 }] });
    const forged = adapter.parseWebhook({ subPath: '', query: { hmac: 's3cret' }, headers: { 'x-webhook-signature': signature }, rawBody: raw(accepted) });
    expect(forged).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
    void adapter.close();
  });
});
