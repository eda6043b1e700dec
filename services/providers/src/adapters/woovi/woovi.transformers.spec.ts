import { generateKeyPairSync, sign } from 'node:crypto';
import { ProviderError, type CreateChargeInput } from '../provider-adapter';
import { WooviAdapter } from './woovi.adapter';
import {
  buildChargeRequest,
  chargeOf,
  correlationIdFor,
  customerFor,
  isCorrelationIdInUse,
  mapChargeStatus,
  providerErrorFor,
  toProviderCharge,
  type WooviChargeStatus,
} from './woovi.transformers';
import { parsePublicKeys, parseWooviWebhookBody, verifyWooviSignature } from './woovi.webhook';
import chargeCreateResponse from './fixtures/charge-create-response.json';
import chargeCompleted from './fixtures/charge-completed.json';
import errorChargeNotFound from './fixtures/error-charge-not-found.json';
import errorCorrelationIdInUse from './fixtures/error-correlation-id-in-use.json';
import errorFeatureDisabled from './fixtures/error-feature-disabled.json';
import errorInvalidValue from './fixtures/error-invalid-value.json';
import webhookChargeExpired from './fixtures/webhook-charge-expired.json';
import webhookTest from './fixtures/webhook-test.json';
import vector from './fixtures/webhook-signature-vector.json';

const input = (overrides: Partial<CreateChargeInput> = {}): CreateChargeInput => ({
  paymentId: 'pay_01',
  method: 'pix',
  amount: 1_990,
  customer: { name: 'Maria Souza', document: '529.982.247-25', email: 'maria@example.com', phone: '(11) 99999-8888' },
  expiresInSeconds: 900,
  description: 'Pedido 42',
  metadata: { z: 'last', order_id: '42' },
  idempotencyKey: 'pay_01:acc_1',
  ...overrides,
});

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('charge request', () => {
  it('uses the idempotency key as correlationID when it is URL-safe, else a stable digest', () => {
    expect(correlationIdFor('pay_01HZX:acc_01HZY')).toBe('pay_01HZX:acc_01HZY');
    const hashed = correlationIdFor('chave com espaço/e barra');
    expect(hashed).toMatch(/^h-[0-9a-f]{40}$/);
    expect(correlationIdFor('chave com espaço/e barra')).toBe(hashed);
    expect(correlationIdFor('x'.repeat(101))).toMatch(/^h-/);
  });

  it('builds the body in integer cents, with comment, sorted additionalInfo and a customer', () => {
    expect(buildChargeRequest(input())).toEqual({
      correlationID: 'pay_01:acc_1',
      value: 1_990,
      comment: 'Pedido 42',
      expiresIn: 900,
      customer: { name: 'Maria Souza', taxID: '52998224725', email: 'maria@example.com', phone: '+5511999998888' },
      additionalInfo: [
        { key: 'order_id', value: '42' },
        { key: 'z', value: 'last' },
      ],
    });
    expect(buildChargeRequest(input({ description: 'é'.repeat(200) })).comment).toHaveLength(140);
    expect(buildChargeRequest(input({ metadata: {}, description: ' ' }))).not.toHaveProperty('additionalInfo');
  });

  it('refuses amounts and expiries Woovi cannot carry', () => {
    for (const amount of [0, -1, 10.5, Number.MAX_SAFE_INTEGER + 2]) expect(() => buildChargeRequest(input({ amount }))).toThrow(RangeError);
    expect(() => buildChargeRequest(input({ expiresInSeconds: 0 }))).toThrow(RangeError);
  });

  it('sends a customer only with a name and a well-formed identifying field', () => {
    expect(customerFor({ name: 'Ana', document: '111.111.111-11' })).toBeUndefined();
    expect(customerFor({ name: ' ', email: 'a@b.co' })).toBeUndefined();
    expect(customerFor({ name: 'Ana', document: '12345678000195', email: 'not-an-email' })).toEqual({ name: 'Ana', taxID: '12345678000195' });
    expect(customerFor({ name: 'Ana', phone: '+55 11 3333-4444' })).toEqual({ name: 'Ana', phone: '+551133334444' });
    expect(customerFor({ name: 'Ana', phone: '123' })).toBeUndefined();
  });
});

describe('charge response', () => {
  it('maps every status', () => {
    const all: Record<WooviChargeStatus, string> = { ACTIVE: 'pending', COMPLETED: 'paid', EXPIRED: 'canceled' };
    for (const [status, ours] of Object.entries(all)) expect(mapChargeStatus(status as WooviChargeStatus).status).toBe(ours);
    expect(mapChargeStatus('EXPIRED')).toMatchObject({ failureCode: 'expired' });
    expect(() => mapChargeStatus('REMOVED' as WooviChargeStatus)).toThrow(/unhandled value/);
  });

  it('reads a created charge: BR Code, payment link, expiry and fee', () => {
    const charge = chargeOf(chargeCreateResponse)!;
    expect(toProviderCharge(charge)).toEqual({
      providerPaymentId: 'c782e0ac-833d-4a89-9e73-9b60b2b41d3a',
      status: 'pending',
      amount: 100,
      amountPaid: 0,
      nextAction: { type: 'pix_qr', qrCode: chargeCreateResponse.brCode, url: chargeCreateResponse.charge.paymentLinkUrl },
      expiresAt: new Date('2023-02-25T20:09:06.141Z'),
      providerFee: 1,
    });
  });

  it('reads a paid and an expired charge', () => {
    expect(toProviderCharge(chargeOf(chargeCompleted)!)).toMatchObject({
      providerPaymentId: '417bae21-3d08-4cdb-9c2d-fee63c89e9e4',
      status: 'paid',
      amount: 1_000,
      amountPaid: 1_000,
      nextAction: { type: 'none' },
      paidAt: new Date('2021-03-12T12:44:09.360Z'),
    });
    expect(toProviderCharge(chargeOf(webhookChargeExpired)!)).toMatchObject({ status: 'canceled', failureCode: 'expired', amount: 123_456, nextAction: { type: 'none' } });
  });

  it('refuses bodies that are not a charge it understands', () => {
    const base = chargeCreateResponse.charge;
    expect(chargeOf(undefined)).toBeUndefined();
    expect(chargeOf({ charge: { ...base, status: 'ACTIVE_WAITING_PAYMENT_METHOD' } })).toBeUndefined();
    expect(chargeOf({ charge: { ...base, value: 1.5 } })).toBeUndefined();
    expect(chargeOf({ charge: { ...base, value: '100' } })).toBeUndefined();
    expect(chargeOf({ charge: { ...base, fee: 0.5 } })).toBeUndefined();
  });
});

describe('error table', () => {
  const classify = (status: number, body: unknown) => {
    const e = providerErrorFor(status, body, 'op');
    return { kind: e.kind, code: e.normalizedCode };
  };

  const table: [number, unknown, string, string][] = [
    [400, errorChargeNotFound, 'not_found', 'not_found'],
    [400, errorInvalidValue, 'rejected', 'provider_rejected'],
    [400, errorCorrelationIdInUse, 'rejected', 'provider_rejected'],
    [403, errorFeatureDisabled, 'invalid_credentials', 'invalid_credentials'],
    [401, { error: 'appID inválido' }, 'invalid_credentials', 'invalid_credentials'],
    [400, { error: 'appID inválido' }, 'invalid_credentials', 'invalid_credentials'],
    [404, undefined, 'not_found', 'not_found'],
  ];
  const label = (body: unknown) => JSON.stringify((body as { error?: string } | undefined)?.error ?? body);

  it.each(table.map(([status, body, kind, code]) => [status, label(body), body, kind, code] as const))('HTTP %i %s → %s/%s', (status, _label, body, kind, code) => {
    expect(classify(status, body)).toEqual({ kind, code });
  });

  it('recognizes a repeated correlationID, and carries the message', () => {
    expect(isCorrelationIdInUse(400, errorCorrelationIdInUse)).toBe(true);
    expect(isCorrelationIdInUse(400, { error: 'correlationID é obrigatório' })).toBe(false);
    const error = providerErrorFor(400, errorInvalidValue, 'create charge');
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toBe('woovi create charge: HTTP 400: value deve ser maior que zero');
    expect(error.httpStatus).toBe(400);
  });
});

describe('webhook signature (Woovi’s published vector)', () => {
  const keys = parsePublicKeys(vector.publicKeyPem);
  const body = Buffer.from(vector.rawBody);

  it('verifies Woovi’s example payload with Woovi’s public key', () => {
    expect(keys).toHaveLength(1);
    expect(verifyWooviSignature(body, vector.signature, keys)).toBe('valid');
  });

  it('refuses a changed body, a changed or absent signature, and no configured key', () => {
    expect(verifyWooviSignature(Buffer.from(vector.rawBody.replace('"value": 1000', '"value": 9000')), vector.signature, keys)).toBe('mismatch');
    expect(verifyWooviSignature(body, `A${vector.signature.slice(1)}`, keys)).toBe('mismatch');
    expect(verifyWooviSignature(body, 'not base64!', keys)).toBe('mismatch');
    expect(verifyWooviSignature(body, undefined, keys)).toBe('missing');
    expect(verifyWooviSignature(body, vector.signature, [])).toBe('missing');
  });

  it('accepts any key of a bundle (rotation) and skips damaged blocks', () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const bundle = `${other}\n-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n${vector.publicKeyPem}`;
    expect(parsePublicKeys(bundle)).toHaveLength(2);
    expect(verifyWooviSignature(body, vector.signature, parsePublicKeys(bundle))).toBe('valid');
  });
});

describe('webhook body', () => {
  it('reads the charge of paid (with or without `event`) and expired notifications', () => {
    const paid = parseWooviWebhookBody(Buffer.from(vector.rawBody));
    expect(paid).toMatchObject({ kind: 'charge', event: 'OPENPIX:CHARGE_COMPLETED', correlationIDs: ['417bae21-3d08-4cdb-9c2d-fee63c89e9e4'] });
    const withEvent = parseWooviWebhookBody(json({ event: 'OPENPIX:CHARGE_COMPLETED', ...JSON.parse(vector.rawBody) }));
    expect(withEvent).toEqual(paid);
    expect(parseWooviWebhookBody(json(webhookChargeExpired))).toMatchObject({ kind: 'charge', event: 'OPENPIX:CHARGE_EXPIRED', correlationIDs: ['0ac9e5a0-04f3-4879-85bf-8be34f16a1fa'] });
  });

  it('gives stable event keys: the same notification dedupes, another event does not', () => {
    const key = (value: unknown) => (parseWooviWebhookBody(json(value)) as { eventKey: string }).eventKey;
    const reSerialized = { ...webhookChargeExpired, charge: { ...webhookChargeExpired.charge, updatedAt: '2023-11-17T18:36:00.000Z' } };
    expect(key(reSerialized)).toBe(key(webhookChargeExpired));
    expect(key({ ...webhookChargeExpired, event: 'OPENPIX:CHARGE_CREATED' })).not.toBe(key(webhookChargeExpired));
  });

  it('accepts the registration test and events about other things, naming no charge', () => {
    expect(parseWooviWebhookBody(json(webhookTest))).toMatchObject({ kind: 'other', event: 'OPENPIX:CHARGE_COMPLETED' });
    expect(parseWooviWebhookBody(json({ event: 'OPENPIX:MOVEMENT_CONFIRMED', payment: { value: 1 } }))).toMatchObject({ kind: 'other' });
    expect(parseWooviWebhookBody(json({ event: 'OPENPIX:TRANSACTION_RECEIVED', pix: { endToEndId: 'E1', charge: null } }))).toMatchObject({ kind: 'charge', correlationIDs: [] });
  });

  it('calls malformed what it cannot read', () => {
    for (const raw of ['not json', '[]', 'null', '{"event": 5}', '{"charge": {"status": "ACTIVE"}}', '{}']) {
      expect(parseWooviWebhookBody(Buffer.from(raw))).toEqual({ kind: 'malformed' });
    }
  });
});

describe('WooviAdapter.parseWebhook', () => {
  const testKeys = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const testPem = testKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const adapter = (publicKeyPem = vector.publicKeyPem) =>
    new WooviAdapter({ baseUrl: 'http://127.0.0.1:1', credentials: { app_id: 'app' }, webhookUrl: 'http://x', webhookSecret: 'whsec_1', settings: { webhook_public_key: publicKeyPem }, timeoutMs: 1_000 });
  const request = (overrides: Partial<{ query: Record<string, string>; headers: Record<string, string>; rawBody: Buffer }> = {}) => ({
    subPath: '',
    query: { hmac: 'whsec_1' },
    headers: { 'x-webhook-signature': vector.signature },
    rawBody: Buffer.from(vector.rawBody),
    ...overrides,
  });

  it('accepts a genuine notification sent to this account’s URL', () => {
    expect(adapter().parseWebhook(request())).toEqual({ ok: true, providerPaymentIds: ['417bae21-3d08-4cdb-9c2d-fee63c89e9e4'], eventKey: expect.stringMatching(/^woovi:OPENPIX:CHARGE_COMPLETED:/) });
  });

  it('refuses a wrong or absent secret, a bad signature, and a missing public key', () => {
    const unauthenticated = { ok: false, reason: 'unauthenticated', httpStatus: 401 };
    expect(adapter().parseWebhook(request({ query: { hmac: 'whsec_2' } }))).toEqual(unauthenticated);
    expect(adapter().parseWebhook(request({ query: {} }))).toEqual(unauthenticated);
    expect(adapter().parseWebhook(request({ headers: {} }))).toEqual(unauthenticated);
    expect(adapter(testPem).parseWebhook(request())).toEqual(unauthenticated);
    expect(adapter('').parseWebhook(request())).toEqual(unauthenticated);
  });

  it('calls a genuinely signed but unreadable body malformed', () => {
    const rawBody = Buffer.from('{"charge": {}}');
    const signature = sign('sha256', rawBody, testKeys.privateKey).toString('base64');
    expect(adapter(testPem).parseWebhook(request({ rawBody, headers: { 'x-webhook-signature': signature } }))).toEqual({ ok: false, reason: 'malformed', httpStatus: 400 });
  });
});
