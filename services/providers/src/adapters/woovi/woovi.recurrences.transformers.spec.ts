import type { CreateRecurrenceInput } from '../provider-recurrences';
import { buildSubscriptionRequest, mapCycleStatus, mapSubscriptionStatus, parseWooviRecurrenceWebhookBody, toProviderCycleCharge, toProviderRecurrence } from './woovi.recurrences.transformers';

const input: CreateRecurrenceInput = {
  subscriptionId: 'sub_01jq3v6m2x8k4f7c9b1n5t0r2w',
  payer: { name: ' Ana Lima ', document: '529.982.247-25', address: { street: 'Rua A', number: '10', neighborhood: 'Centro', city: 'Recife', state: 'PE', zip: '50010-000' } },
  frequency: 'weekly',
  amount: 1500,
  description: 'Cesta semanal de orgânicos da fazenda',
  startDate: '2026-03-10',
  retry: true,
  approvalExpiresInSeconds: 3600,
};

describe('the subscription body', () => {
  it('PIX_RECURRING in cents, contract in comment (< 30), start date at noon São Paulo, retries', () => {
    expect(buildSubscriptionRequest(input)).toEqual({
      type: 'PIX_RECURRING',
      correlationID: input.subscriptionId,
      value: 1500,
      customer: { name: 'Ana Lima', taxID: '52998224725', address: { zipcode: '50010000', street: 'Rua A', number: '10', neighborhood: 'Centro', city: 'Recife', state: 'PE', country: 'BR' } },
      comment: 'Cesta semanal de orgânicos da',
      frequency: 'WEEKLY',
      dayGenerateCharge: '2026-03-10T12:00:00-03:00',
      dayDue: 7,
      pixRecurringOptions: { journey: 'ONLY_RECURRENCY', retryPolicy: 'THREE_RETRIES_7_DAYS' },
    });
  });

  it('paying at approval is PAYMENT_ON_APPROVAL; no retry is NON_PERMITED', () => {
    expect(buildSubscriptionRequest({ ...input, firstAmount: 1500, retry: false }).pixRecurringOptions).toEqual({ journey: 'PAYMENT_ON_APPROVAL', retryPolicy: 'NON_PERMITED' });
  });

  it.each([
    [{ amount: undefined }, 'amount'],
    [{ firstAmount: 990 }, 'first_amount'],
    [{ payer: { name: 'Ana', document: '52998224725' } }, 'customer.address'],
    [{ payer: { ...input.payer, document: '123' } }, 'customer.document'],
  ] as [Partial<CreateRecurrenceInput>, string][])('refuses %j naming %s', (change, param) => {
    expect(() => buildSubscriptionRequest({ ...input, ...change })).toThrow(expect.objectContaining({ kind: 'rejected', param: expect.objectContaining({ name: param }) }));
  });
});

describe('status maps', () => {
  it.each([
    ['PENDING', 'pending'],
    ['ACTIVE', 'active'],
    ['REJECTED', 'refused'],
    ['CANCELED', 'canceled'],
    ['EXPIRED', 'expired'],
  ] as const)('subscription %s → %s', (status, ours) => expect(mapSubscriptionStatus(status)).toBe(ours));

  it.each([
    ['ACTIVE', {}, 'scheduled'],
    ['ACTIVE', { failedAttempts: ['2026-04-10'], nextAttempt: '2026-04-11' }, 'retrying'],
    ['ACTIVE', { failedAttempts: ['2026-04-10'] }, 'failed'],
    ['COMPLETED', { failedAttempts: ['2026-04-10'] }, 'paid'],
    ['EXPIRED', {}, 'failed'],
  ] as const)('charge %s with %j → %s', (status, cycle, ours) => expect(mapCycleStatus(status, { ...cycle, failedAttempts: [...((cycle as { failedAttempts?: string[] }).failedAttempts ?? [])] })).toBe(ours));
});

describe('answers', () => {
  const subscription = { globalID: 'U3ViOjE=', correlationID: 'sub_1', value: 1500, status: 'PENDING' as const, pixRecurring: { emv: '000201…' }, cycles: [{ dueDate: '2026-03-10', chargeCorrelationID: 'sub_1-0', failedAttempts: [], nextAttempt: '2026-03-10' }] };

  it('the QR while pending, and the cycles Woovi created', () => {
    expect(toProviderRecurrence(subscription, 'iVBOR')).toEqual({ providerRecurrenceId: 'U3ViOjE=', status: 'pending', providerStatus: 'PENDING', cycles: 'provider', approval: { qrCode: '000201…', qrCodeBase64: 'iVBOR' }, cycleChargeIds: ['sub_1-0'] });
    expect(toProviderRecurrence({ ...subscription, status: 'ACTIVE' }).approval).toBeUndefined();
  });

  it('a cycle: the charge and the attempts the subscription records', () => {
    expect(toProviderCycleCharge(subscription, subscription.cycles[0] as never, { status: 'ACTIVE', value: 1500 })).toEqual({
      providerChargeId: 'sub_1-0',
      providerRecurrenceId: 'U3ViOjE=',
      status: 'scheduled',
      providerStatus: 'ACTIVE',
      amount: 1500,
      dueDate: '2026-03-10',
      failedAttempts: 0,
      nextAttemptDate: '2026-03-10',
    });
  });
});

describe('webhook bodies', () => {
  const body = (value: unknown) => Buffer.from(JSON.stringify(value));
  const subscription = { globalID: 'U3ViOjE=', status: 'ACTIVE', cycles: [{ dueDate: '2026-04-10', chargeCorrelationID: 'c1', failedAttempts: ['2026-04-10'], nextAttempt: '2026-04-11' }] };

  it('subscription and cycle events; the key follows what happened', () => {
    expect(parseWooviRecurrenceWebhookBody(body({ event: 'PIX_AUTOMATIC_APPROVED', subscription }))).toMatchObject({ kind: 'events', events: [{ type: 'recurrence', providerRecurrenceId: 'U3ViOjE=', status: 'active' }] });
    const tried = parseWooviRecurrenceWebhookBody(body({ event: 'PIX_AUTOMATIC_COBR_TRY_REJECTED', subscription, charge: { correlationID: 'c1', status: 'ACTIVE' } }));
    expect(tried).toMatchObject({ kind: 'events', events: [{ type: 'cycle', providerChargeId: 'c1', providerRecurrenceId: 'U3ViOjE=', status: 'retrying' }] });
    const paid = parseWooviRecurrenceWebhookBody(body({ event: 'PIX_AUTOMATIC_COBR_COMPLETED', subscription, charge: { correlationID: 'c1', status: 'COMPLETED' } }));
    expect(paid).toMatchObject({ events: [{ status: 'paid' }] });
    expect((paid as { eventKey: string }).eventKey).not.toBe((tried as { eventKey: string }).eventKey);
  });

  it('charge events and the registration test are other; a broken Pix Automático body is malformed', () => {
    expect(parseWooviRecurrenceWebhookBody(body({ event: 'OPENPIX:CHARGE_COMPLETED', charge: { correlationID: 'x' } }))).toEqual({ kind: 'other' });
    expect(parseWooviRecurrenceWebhookBody(body({ event: 'PIX_AUTOMATIC_APPROVED', data_criacao: '2026-03-02T12:00:00Z' }))).toEqual({ kind: 'other' });
    expect(parseWooviRecurrenceWebhookBody(body({ event: 'PIX_AUTOMATIC_APPROVED', subscription: { globalID: 'x', status: 'NEW' } }))).toEqual({ kind: 'malformed' });
    expect(parseWooviRecurrenceWebhookBody(body({ event: 'PIX_AUTOMATIC_COBR_COMPLETED', subscription }))).toEqual({ kind: 'malformed' });
  });
});
