import { stringifyExact } from './asaas.json';
import { parseAsaasRecurrenceWebhookBody } from './asaas.recurrences';
import { buildAuthorizationRequest, mapAuthorizationStatus, mapCycleStatus, toProviderCycleCharge, toProviderRecurrence } from './asaas.recurrences.transformers';
import type { AsaasPaymentStatus } from './asaas.transformers';
import type { CreateRecurrenceInput } from '../provider-recurrences';

const input: CreateRecurrenceInput = {
  subscriptionId: 'sub_01jq3v6m2x8k4f7c9b1n5t0r2w',
  payer: { name: 'João Pereira', document: '39053344705' },
  frequency: 'semiannually',
  amount: 100_001,
  firstAmount: 990,
  description: '  Plano semestral  ',
  startDate: '2026-03-10',
  endDate: '2028-03-10',
  retry: false,
  approvalExpiresInSeconds: 3600,
};

describe('the authorization body', () => {
  it('SUBSCRIPTION mode, exact reais, contract = our subscription id, the immediate QR code', () => {
    expect(JSON.parse(stringifyExact(buildAuthorizationRequest(input, 'cus_1')))).toEqual({
      customerId: 'cus_1',
      frequency: 'SEMIANNUALLY',
      contractId: input.subscriptionId,
      startDate: '2026-03-10',
      finishDate: '2028-03-10',
      value: 1000.01,
      paymentCreationMode: 'SUBSCRIPTION',
      description: 'Plano semestral',
      immediateQrCode: { originalValue: 9.9, expirationSeconds: 3600, description: 'Plano semestral' },
    });
    expect(stringifyExact(buildAuthorizationRequest(input, 'cus_1'))).toContain('"value":1000.01');
  });

  it('names the field Asaas cannot take, with a Portuguese message', () => {
    expect(() => buildAuthorizationRequest({ ...input, amount: undefined }, 'cus_1')).toThrow(expect.objectContaining({ kind: 'rejected', param: expect.objectContaining({ name: 'amount' }) }));
    expect(() => buildAuthorizationRequest({ ...input, firstAmount: undefined }, 'cus_1')).toThrow(expect.objectContaining({ param: expect.objectContaining({ name: 'first_amount', publicMessage: expect.stringContaining('informe first_amount') }) }));
  });
});

describe('status maps', () => {
  it.each([
    ['CREATED', 'pending'],
    ['ACTIVE', 'active'],
    ['CANCELLED', 'canceled'],
    ['REFUSED', 'refused'],
    ['EXPIRED', 'expired'],
  ] as const)('authorization %s → %s', (status, ours) => expect(mapAuthorizationStatus(status)).toBe(ours));

  it.each([
    ['PENDING', 'scheduled'],
    ['OVERDUE', 'failed'],
    ['CONFIRMED', 'paid'],
    ['RECEIVED', 'paid'],
    ['REFUNDED', 'paid'],
  ] as [AsaasPaymentStatus, string][])('cycle %s → %s', (status, ours) => expect(mapCycleStatus({ status, deleted: false })).toBe(ours));

  it('a removed cycle is canceled whatever its status', () => expect(mapCycleStatus({ status: 'PENDING', deleted: true })).toBe('canceled'));
});

describe('answers', () => {
  it('a pending authorization carries its QR code; the cycles it created are listed', () => {
    const authorization = { id: 'a1', status: 'CREATED' as const, customerId: 'cus_1', contractId: 'sub_1', immediateQrCode: { payload: '000201…', encodedImage: 'iVBOR' } };
    expect(toProviderRecurrence(authorization)).toEqual({ providerRecurrenceId: 'a1', status: 'pending', providerStatus: 'CREATED', cycles: 'provider', approval: { qrCode: '000201…', qrCodeBase64: 'iVBOR' } });
    expect(toProviderRecurrence({ ...authorization, status: 'ACTIVE' }, ['pay_1'])).toEqual({ providerRecurrenceId: 'a1', status: 'active', providerStatus: 'ACTIVE', cycles: 'provider', cycleChargeIds: ['pay_1'] });
    expect(toProviderRecurrence({ ...authorization, immediateQrCode: { paymentId: 'pay_0' } }).approvalChargeId).toBe('pay_0');
  });

  it('a cycle payment in cents', () => {
    const payment = { object: 'payment' as const, id: 'pay_1', customer: 'cus_1', value: '49.9', status: 'PENDING' as const, billingType: 'PIX', dueDate: '2026-03-10', deleted: false };
    expect(toProviderCycleCharge(payment, 'a1')).toEqual({ providerChargeId: 'pay_1', providerRecurrenceId: 'a1', status: 'scheduled', providerStatus: 'PENDING', amount: 4990, dueDate: '2026-03-10', failedAttempts: 0, nextAttemptDate: '2026-03-10' });
  });
});

describe('webhook bodies', () => {
  const body = (value: unknown) => Buffer.from(JSON.stringify(value));

  it('authorization events and cycle payments become events keyed by the event id', () => {
    expect(parseAsaasRecurrenceWebhookBody(body({ id: 'evt_1', event: 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED', authorization: { id: 'a1', status: 'ACTIVE' } }))).toEqual({
      kind: 'events',
      eventKey: 'asaas:evt_1',
      events: [{ type: 'recurrence', providerRecurrenceId: 'a1', status: 'active', providerStatus: 'ACTIVE' }],
    });
    expect(parseAsaasRecurrenceWebhookBody(body({ id: 'evt_2', event: 'PAYMENT_OVERDUE', payment: { id: 'pay_1', status: 'OVERDUE', pixAutomaticAuthorizationId: 'a1' } }))).toMatchObject({
      events: [{ type: 'cycle', providerChargeId: 'pay_1', providerRecurrenceId: 'a1', status: 'failed' }],
    });
    expect(parseAsaasRecurrenceWebhookBody(body({ id: 'evt_3', event: 'PAYMENT_DELETED', payment: { id: 'pay_1', status: 'PENDING', pixAutomaticAuthorizationId: 'a1' } }))).toMatchObject({
      events: [{ status: 'canceled', providerStatus: 'DELETED' }],
    });
  });

  it('a plain payment has no event; an unreadable authorization or unknown status is malformed', () => {
    expect(parseAsaasRecurrenceWebhookBody(body({ id: 'evt_4', event: 'PAYMENT_RECEIVED', payment: { id: 'pay_2', status: 'RECEIVED' } }))).toEqual({ kind: 'events', eventKey: 'asaas:evt_4', events: [] });
    expect(parseAsaasRecurrenceWebhookBody(body({ id: 'evt_5', event: 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_REFUSED', authorization: { id: 'a1', status: 'NOPE' } }))).toEqual({ kind: 'malformed' });
    expect(parseAsaasRecurrenceWebhookBody(body({ id: 'evt_6', event: 'PAYMENT_UPDATED', payment: { id: 'pay_1', status: 'WHATEVER', pixAutomaticAuthorizationId: 'a1' } }))).toEqual({ kind: 'malformed' });
  });
});
