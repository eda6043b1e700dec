import {
  PROVIDER_CHARGE_UPDATED,
  PROVIDER_CYCLE_CHARGE_UPDATED,
  PROVIDER_DISPUTE_UPDATED,
  PROVIDER_RECURRENCE_UPDATED,
  PROVIDER_SUBACCOUNT_UPDATED,
  PROVIDER_TRANSFER_UPDATED,
  providerSubaccountUpdatedSchema,
  providerTransferUpdatedSchema,
} from '@orquestra/contracts';
import type { EventEnvelope, OutboxRelay } from '@orquestra/platform';
import pino from 'pino';
import { ProviderError, type ProviderAdapter, type ProviderCharge, type WebhookParseResult } from '../adapters/provider-adapter';
import type { ProviderDispute } from '../adapters/provider-disputes';
import type { ProviderTransfer, TransferWebhookParseResult } from '../adapters/provider-payouts';
import type { GetCycleChargeInput, ProviderCycleCharge, ProviderRecurrence, RecurrenceWebhookParseResult } from '../adapters/provider-recurrences';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import type { WebhookReceiptDoc, WebhookReceiptModel } from '../db/webhook-receipt.model';
import type { ProviderSubaccount, SubaccountWebhookParseResult } from '../adapters/provider-subaccounts';
import type { ProviderAccountService } from './provider-account.service';
import type { SubaccountSecrets } from './subaccount-secrets';
import { WebhookIntakeService } from './webhook-intake.service';

// Fakes for the collaborators (the account service, the adapter, the receipts collection); the intake is the real one.
const account = { _id: 'pa_1', merchant_id: 'acct_1', mode: 'test', provider: 'efi' } as ProviderAccountDoc;

const active: ProviderRecurrence = { providerRecurrenceId: 'RR1', status: 'active', providerStatus: 'APROVADA', cycles: 'ours' };
const retrying: ProviderCycleCharge = {
  providerChargeId: 'tx1',
  providerRecurrenceId: 'RR1',
  status: 'retrying',
  providerStatus: 'ATIVA',
  amount: 4_990,
  dueDate: '2026-03-10',
  failedAttempts: 1,
  nextAttemptDate: '2026-03-12',
};
const paidCharge: ProviderCharge = { providerPaymentId: 'cob1', status: 'paid', amount: 4_990, amountPaid: 4_990, nextAction: { type: 'none' } };

type Adapter = Partial<ProviderAdapter> & Record<string, unknown>;

function intakeWith(adapter: Adapter) {
  const inserted: WebhookReceiptDoc[] = [];
  const receipts = {
    collection: {},
    create: (doc: WebhookReceiptDoc) => {
      if (inserted.some((d) => d._id === doc._id)) return Promise.reject(Object.assign(new Error('E11000 duplicate key'), { code: 11000 }));
      inserted.push(doc);
      return Promise.resolve(doc);
    },
  } as unknown as WebhookReceiptModel;
  const reads: string[] = [];
  const accounts = {
    getUnscoped: (id: string) => Promise.resolve(id === account._id ? account : null),
    adapterFor: () => adapter,
    call: <T>(_doc: ProviderAccountDoc, operation: (a: ProviderAdapter) => Promise<T>) => operation(adapter as unknown as ProviderAdapter),
  } as unknown as ProviderAccountService;
  const outbox = { flush: () => Promise.resolve() } as unknown as OutboxRelay;
  // One Asaas-like subaccount made through us: its secret kept under our id, the provider's id beside it.
  const secrets = {
    findByProvider: (accountId: string, providerSubaccountId: string) =>
      Promise.resolve(accountId === 'pa_1' && providerSubaccountId === 'acc_1' ? { subaccountId: 'sub_1', secret: 'issued-key' } : undefined),
  } as unknown as SubaccountSecrets;
  const intake = new WebhookIntakeService(accounts, receipts, outbox, pino({ level: 'silent' }), secrets);
  const deliver = () => intake.handle({ accountId: 'pa_1', subPath: '', query: { hmac: 's', ignorar: '/cobr' }, headers: {}, body: Buffer.from('{}') });
  const events = () => inserted.flatMap((d) => d.outbox as EventEnvelope[]);
  return { deliver, inserted, events, reads };
}

/** A Pix Automático adapter whose parsers answer the given results. */
const recurring = (payment: WebhookParseResult, recurrence: RecurrenceWebhookParseResult, overrides: Adapter = {}): Adapter => ({
  parseWebhook: () => payment,
  parseRecurrenceWebhook: () => recurrence,
  createRecurrence: () => Promise.reject(new Error('unused')),
  getRecurrence: () => Promise.resolve(active),
  cancelRecurrence: () => Promise.reject(new Error('unused')),
  getCycleCharge: () => Promise.resolve(retrying),
  getCharge: () => Promise.resolve(paidCharge),
  ...overrides,
});

const malformed = { ok: false, reason: 'malformed', httpStatus: 400 } as const;
const cycleEvent = { type: 'cycle', providerChargeId: 'tx1', providerRecurrenceId: 'RR1', status: 'retrying', providerStatus: 'ATIVA' } as const;
const recurrenceEvent = { type: 'recurrence', providerRecurrenceId: 'RR1', status: 'active', providerStatus: 'APROVADA' } as const;

describe('webhook intake: Pix Automático', () => {
  it('accepts a recurrence-only delivery the payment parser calls malformed, reading each named thing back at the provider', async () => {
    const seen: GetCycleChargeInput[] = [];
    const { deliver, inserted, events } = intakeWith(
      recurring(malformed, { ok: true, eventKey: 'efi:rec:abc', events: [recurrenceEvent, cycleEvent, cycleEvent] }, {
        getCycleCharge: (input: GetCycleChargeInput) => Promise.resolve(void seen.push(input)).then(() => retrying),
      }),
    );
    expect(await deliver()).toEqual({ httpStatus: 200, body: '' });
    expect(inserted.map((d) => d._id)).toEqual(['pa_1:efi:rec:abc']);
    expect(seen).toEqual([{ providerRecurrenceId: 'RR1', providerChargeId: 'tx1' }]);
    expect(events().map((e) => [e.type, e.merchant_id, e.mode, e.data.object])).toEqual([
      [PROVIDER_RECURRENCE_UPDATED, 'acct_1', 'test', { account_id: 'pa_1', provider: 'efi', provider_recurrence_id: 'RR1', status: 'active', provider_status: 'APROVADA', via: 'webhook' }],
      [
        PROVIDER_CYCLE_CHARGE_UPDATED,
        'acct_1',
        'test',
        {
          account_id: 'pa_1',
          provider: 'efi',
          provider_recurrence_id: 'RR1',
          provider_charge_id: 'tx1',
          status: 'retrying',
          provider_status: 'ATIVA',
          amount: 4_990,
          due_date: '2026-03-10',
          failed_attempts: 1,
          next_attempt_date: '2026-03-12',
          via: 'webhook',
        },
      ],
    ]);
  });

  it('publishes what the provider answers, not what the webhook said', async () => {
    const paid: ProviderCycleCharge = { ...retrying, status: 'paid', providerStatus: 'CONCLUIDA', nextAttemptDate: undefined, endToEndId: 'E1' };
    const { deliver, events } = intakeWith(recurring(malformed, { ok: true, eventKey: 'efi:rec:k', events: [cycleEvent] }, { getCycleCharge: () => Promise.resolve(paid) }));
    await deliver();
    expect(events()[0]?.data.object).toMatchObject({ status: 'paid', end_to_end_id: 'E1', failed_attempts: 1 });
    expect(events()[0]?.data.object).not.toHaveProperty('next_attempt_date');
  });

  it('carries both parts of a mixed delivery (a cycle that is also a charge) under the recurrence parser’s key', async () => {
    const { deliver, inserted, events } = intakeWith(
      recurring({ ok: true, providerPaymentIds: ['cob1'], eventKey: 'woovi:charge:1' }, { ok: true, eventKey: 'woovi:cobr:2', events: [{ ...cycleEvent, providerChargeId: 'cob1' }] }),
    );
    expect((await deliver()).httpStatus).toBe(200);
    expect(inserted.map((d) => d._id)).toEqual(['pa_1:woovi:cobr:2']);
    expect(events().map((e) => e.type)).toEqual([PROVIDER_CHARGE_UPDATED, PROVIDER_CYCLE_CHARGE_UPDATED]);
  });

  it('leaves a plain payment delivery as it was: its own key, its charge events only', async () => {
    const plain = intakeWith(recurring({ ok: true, providerPaymentIds: ['cob1'], eventKey: 'efi:pix:1' }, { ok: true, eventKey: 'efi:pix:1', events: [] }));
    expect((await plain.deliver()).httpStatus).toBe(200);
    expect(plain.inserted.map((d) => d._id)).toEqual(['pa_1:efi:pix:1']);
    expect(plain.events().map((e) => e.type)).toEqual([PROVIDER_CHARGE_UPDATED]);
    const noRecurrences = intakeWith({ parseWebhook: () => ({ ok: true, providerPaymentIds: ['cob1'], eventKey: 'stripe:evt_1' }), getCharge: () => Promise.resolve(paidCharge) });
    expect((await noRecurrences.deliver()).httpStatus).toBe(200);
    expect(noRecurrences.events().map((e) => e.type)).toEqual([PROVIDER_CHARGE_UPDATED]);
  });

  it('still reads the payment part when only the recurrence part is unreadable', async () => {
    const { deliver, events } = intakeWith(recurring({ ok: true, providerPaymentIds: ['cob1'], eventKey: 'asaas:evt_1' }, malformed));
    expect((await deliver()).httpStatus).toBe(200);
    expect(events().map((e) => e.type)).toEqual([PROVIDER_CHARGE_UPDATED]);
  });

  it('refuses what neither parser accepts, and an unauthenticated delivery whatever the recurrence parser says', async () => {
    expect((await intakeWith(recurring(malformed, { ok: true, eventKey: 'efi:x', events: [] })).deliver()).httpStatus).toBe(400);
    const unauthenticated = { ok: false, reason: 'unauthenticated', httpStatus: 401 } as const;
    const forged = intakeWith(recurring(unauthenticated, { ok: true, eventKey: 'efi:rec:k', events: [cycleEvent] }));
    expect((await forged.deliver()).httpStatus).toBe(401);
    expect(forged.inserted).toEqual([]);
  });

  it('dedupes a replay by the one receipt insert', async () => {
    const { deliver, inserted } = intakeWith(recurring(malformed, { ok: true, eventKey: 'efi:rec:k', events: [cycleEvent] }));
    expect((await deliver()).httpStatus).toBe(200);
    expect((await deliver()).httpStatus).toBe(200);
    expect(inserted).toHaveLength(1);
  });

  it('answers 503 when the provider cannot be asked now (it resends), and skips what it no longer has', async () => {
    const unreachable = intakeWith(
      recurring(malformed, { ok: true, eventKey: 'efi:rec:k', events: [cycleEvent] }, { getCycleCharge: () => Promise.reject(new ProviderError('not_created', 'provider_unavailable', 'ECONNRESET')) }),
    );
    expect((await unreachable.deliver()).httpStatus).toBe(503);
    expect(unreachable.inserted).toEqual([]);
    const gone = intakeWith(
      recurring(malformed, { ok: true, eventKey: 'efi:rec:k', events: [cycleEvent, recurrenceEvent] }, { getCycleCharge: () => Promise.reject(new ProviderError('not_found', 'not_found', 'no cobr')) }),
    );
    expect((await gone.deliver()).httpStatus).toBe(200);
    expect(gone.events().map((e) => e.type)).toEqual([PROVIDER_RECURRENCE_UPDATED]);
  });
});

/** A payout-capable adapter whose parsers answer the given results. */
const paying = (payment: WebhookParseResult, transfer: TransferWebhookParseResult, overrides: Adapter = {}): Adapter => ({
  parseWebhook: () => payment,
  parseTransferWebhook: () => transfer,
  payoutDestinations: ['pix_key'],
  getBalance: () => Promise.reject(new Error('unused')),
  createTransfer: () => Promise.reject(new Error('unused')),
  getTransfer: () => Promise.resolve(paidTransfer),
  getCharge: () => Promise.resolve(paidCharge),
  ...overrides,
});

const paidTransfer: ProviderTransfer = {
  providerTransferId: 'po1',
  payoutId: 'po_1',
  status: 'paid',
  providerStatus: 'REALIZADO',
  amount: 5_000,
  fee: 0,
  paidAt: new Date('2026-11-24T10:00:00Z'),
  endToEndId: 'E1',
};

describe('webhook intake: transfers', () => {
  it('reads each named transfer back by our payout id and carries what the provider answers in the receipt’s outbox', async () => {
    const seen: unknown[] = [];
    const reported = { providerTransferId: 'po1', payoutId: 'po_1' };
    const { deliver, inserted, events } = intakeWith(
      paying(malformed, { ok: true, eventKey: 'efi:envio:po1:REALIZADO', transfers: [reported, reported] }, { getTransfer: (input: unknown) => Promise.resolve(void seen.push(input)).then(() => paidTransfer) }),
    );
    expect(await deliver()).toEqual({ httpStatus: 200, body: '' });
    expect(seen).toEqual([{ payoutId: 'po_1', providerTransferId: 'po1' }]);
    expect(inserted.map((d) => d._id)).toEqual(['pa_1:efi:envio:po1:REALIZADO']);
    const object = events()[0]?.data.object;
    expect(events().map((e) => [e.type, e.merchant_id, e.mode])).toEqual([[PROVIDER_TRANSFER_UPDATED, 'acct_1', 'test']]);
    expect(object).toEqual({
      account_id: 'pa_1',
      provider: 'efi',
      provider_transfer_id: 'po1',
      payout_id: 'po_1',
      status: 'paid',
      provider_status: 'REALIZADO',
      amount: 5_000,
      fee: 0,
      paid_at: '2026-11-24T10:00:00.000Z',
      via: 'webhook',
    });
    expect(providerTransferUpdatedSchema.parse(object)).toEqual(object);
  });

  it('ignores a transfer not made under a payout id of ours, and skips one the provider no longer has', async () => {
    const foreign = intakeWith(paying(malformed, { ok: true, eventKey: 'k1', transfers: [{ providerTransferId: 'x' }] }, { getTransfer: () => Promise.reject(new Error('must not be asked')) }));
    expect((await foreign.deliver()).httpStatus).toBe(200);
    expect(foreign.events()).toEqual([]);
    const gone = intakeWith(paying(malformed, { ok: true, eventKey: 'k2', transfers: [{ providerTransferId: 'po1', payoutId: 'po_1' }] }, { getTransfer: () => Promise.reject(new ProviderError('not_found', 'not_found', '404')) }));
    expect((await gone.deliver()).httpStatus).toBe(200);
    expect(gone.events()).toEqual([]);
  });

  it('answers 503 when the provider cannot be asked now (it resends), keeping nothing', async () => {
    const { deliver, inserted } = intakeWith(
      paying(malformed, { ok: true, eventKey: 'k', transfers: [{ providerTransferId: 'po1', payoutId: 'po_1' }] }, { getTransfer: () => Promise.reject(new ProviderError('ambiguous', 'provider_timeout', 'timeout')) }),
    );
    expect((await deliver()).httpStatus).toBe(503);
    expect(inserted).toEqual([]);
  });

  it('leaves a plain payment delivery of a payout-capable adapter unchanged: its own key, its charge events only', async () => {
    const { deliver, inserted, events } = intakeWith(paying({ ok: true, providerPaymentIds: ['cob1'], eventKey: 'stripe:evt_1' }, { ok: true, eventKey: 'stripe:evt_1', transfers: [] }));
    expect((await deliver()).httpStatus).toBe(200);
    expect(inserted.map((d) => d._id)).toEqual(['pa_1:stripe:evt_1']);
    expect(events().map((e) => e.type)).toEqual([PROVIDER_CHARGE_UPDATED]);
  });

  it('refuses a delivery neither parser reads, and an unauthenticated one whatever the transfer parser says', async () => {
    expect((await intakeWith(paying(malformed, { ok: true, eventKey: 'k', transfers: [] })).deliver()).httpStatus).toBe(400);
    const forged = intakeWith(paying({ ok: false, reason: 'unauthenticated', httpStatus: 401 }, { ok: true, eventKey: 'k', transfers: [{ providerTransferId: 'po1', payoutId: 'po_1' }] }));
    expect((await forged.deliver()).httpStatus).toBe(401);
    expect(forged.inserted).toEqual([]);
  });

  it('dedupes a replay by the one receipt insert', async () => {
    const { deliver, inserted } = intakeWith(paying(malformed, { ok: true, eventKey: 'k', transfers: [{ providerTransferId: 'po1', payoutId: 'po_1' }] }));
    await deliver();
    await deliver();
    expect(inserted).toHaveLength(1);
  });
});

describe('webhook intake: subaccounts', () => {
  const approved: ProviderSubaccount = { providerSubaccountId: 'acc_1', status: 'active', statusDetail: 'Cadastro aprovado.', providerStatus: 'APPROVED', details: {}, splitTarget: 'wallet_1' };

  /** A subaccount-capable adapter whose parsers answer the given results; getSubaccount records the secret it was handed. */
  const onboarding = (payment: WebhookParseResult, subaccount: SubaccountWebhookParseResult, overrides: Adapter = {}) => {
    const reads: Array<{ id: string; secret?: string }> = [];
    const adapter: Adapter = {
      parseWebhook: () => payment,
      parseSubaccountWebhook: () => subaccount,
      getCharge: () => Promise.resolve(paidCharge),
      createSubaccount: () => Promise.reject(new Error('unused')),
      getSubaccount: (id: string, secret?: string) => Promise.resolve(void reads.push({ id, ...(secret ? { secret } : {}) })).then(() => ({ ...approved, providerSubaccountId: id })),
      getSubaccountBalance: () => Promise.reject(new Error('unused')),
      ...overrides,
    };
    return { adapter, reads };
  };

  it('reads a subaccount named by the provider id only with its stored secret, and carries our id and the new status in the receipt’s outbox', async () => {
    const { adapter, reads } = onboarding({ ok: true, providerPaymentIds: [], eventKey: 'asaas:evt_1' }, { ok: true, eventKey: 'asaas:evt_1', subaccounts: [{ providerSubaccountId: 'acc_1' }, { providerSubaccountId: 'acc_1' }] });
    const { deliver, inserted, events } = intakeWith(adapter);
    expect(await deliver()).toEqual({ httpStatus: 200, body: '' });
    expect(reads).toEqual([{ id: 'acc_1', secret: 'issued-key' }]);
    expect(inserted.map((d) => d._id)).toEqual(['pa_1:asaas:evt_1']);
    expect(events().map((e) => [e.type, e.merchant_id, e.mode, providerSubaccountUpdatedSchema.parse(e.data.object)])).toEqual([
      [
        PROVIDER_SUBACCOUNT_UPDATED,
        'acct_1',
        'test',
        { account_id: 'pa_1', provider: 'efi', provider_subaccount_id: 'acc_1', subaccount_id: 'sub_1', status: 'active', status_detail: 'Cadastro aprovado.', provider_status: 'APPROVED', split_target: 'wallet_1', via: 'webhook' },
      ],
    ]);
  });

  it('keeps the id the provider echoes, reads without a secret when none was issued, and omits our id when nobody knows it', async () => {
    const { adapter, reads } = onboarding(
      { ok: true, providerPaymentIds: [], eventKey: 'pagarme:hook_1' },
      { ok: true, eventKey: 'pagarme:hook_1', subaccounts: [{ providerSubaccountId: 'rp_1', subaccountId: 'sub_9' }, { providerSubaccountId: 'rp_2' }] },
    );
    const { deliver, events } = intakeWith(adapter);
    expect((await deliver()).httpStatus).toBe(200);
    expect(reads).toEqual([{ id: 'rp_1' }, { id: 'rp_2' }]);
    const objects = events().map((e) => e.data.object as Record<string, unknown>);
    expect(objects.map((o) => [o['provider_subaccount_id'], o['subaccount_id']])).toEqual([
      ['rp_1', 'sub_9'],
      ['rp_2', undefined],
    ]);
    expect('subaccount_id' in objects[1]!).toBe(false);
  });

  it('skips a subaccount the provider no longer has or will not answer, and answers 503 keeping nothing when it cannot be asked now', async () => {
    for (const error of [new ProviderError('not_found', 'not_found', '404'), new ProviderError('rejected', 'provider_rejected', 'no apiKey')]) {
      const { adapter } = onboarding({ ok: true, providerPaymentIds: [], eventKey: 'k' }, { ok: true, eventKey: 'k', subaccounts: [{ providerSubaccountId: 'acc_2' }] }, { getSubaccount: () => Promise.reject(error) });
      const skipped = intakeWith(adapter);
      expect((await skipped.deliver()).httpStatus).toBe(200);
      expect(skipped.events()).toEqual([]);
    }
    const { adapter } = onboarding(
      { ok: true, providerPaymentIds: [], eventKey: 'k' },
      { ok: true, eventKey: 'k', subaccounts: [{ providerSubaccountId: 'acc_1' }] },
      { getSubaccount: () => Promise.reject(new ProviderError('ambiguous', 'provider_timeout', 'timeout')) },
    );
    const down = intakeWith(adapter);
    expect((await down.deliver()).httpStatus).toBe(503);
    expect(down.inserted).toEqual([]);
  });

  it('accepts a subaccount-only delivery the payment parser calls malformed, under the subaccount parser’s key', async () => {
    const { adapter } = onboarding(malformed, { ok: true, eventKey: 'sub:k', subaccounts: [{ providerSubaccountId: 'acc_1' }] });
    const { deliver, inserted } = intakeWith(adapter);
    expect((await deliver()).httpStatus).toBe(200);
    expect(inserted.map((d) => d._id)).toEqual(['pa_1:sub:k']);
  });

  it('leaves a payment delivery unchanged when the subaccount part names nothing or is unreadable, and refuses an unauthenticated one', async () => {
    for (const subaccount of [{ ok: true, eventKey: 'x', subaccounts: [] }, malformed] satisfies SubaccountWebhookParseResult[]) {
      const { adapter, reads } = onboarding({ ok: true, providerPaymentIds: ['cob1'], eventKey: 'asaas:evt_2' }, subaccount);
      const { deliver, inserted, events } = intakeWith(adapter);
      expect((await deliver()).httpStatus).toBe(200);
      expect(inserted.map((d) => d._id)).toEqual(['pa_1:asaas:evt_2']);
      expect(events().map((e) => e.type)).toEqual([PROVIDER_CHARGE_UPDATED]);
      expect(reads).toEqual([]);
    }
    const { adapter } = onboarding({ ok: false, reason: 'unauthenticated', httpStatus: 401 }, { ok: true, eventKey: 'k', subaccounts: [{ providerSubaccountId: 'acc_1' }] });
    const forged = intakeWith(adapter);
    expect((await forged.deliver()).httpStatus).toBe(401);
    expect(forged.inserted).toEqual([]);
  });
});

describe('disputes a webhook only names (Mercado Pago chargebacks, Pagar.me charge.chargedback)', () => {
  const read: ProviderDispute = {
    providerDisputeId: '234000062890459000',
    kind: 'chargeback',
    status: 'won',
    providerStatus: 'coverage_applied',
    providerPaymentId: '1320000123',
    amount: 4_550,
    acceptsEvidence: false,
  };
  const naming = (readDispute: (id: string) => Promise<ProviderDispute | undefined>, ids: string[] = [read.providerDisputeId]): Adapter => ({
    parseWebhook: () => ({ ok: true, providerPaymentIds: [], eventKey: 'mercadopago:notification:1', disputeIds: ids }),
    getCharge: () => Promise.reject(new Error('unused')),
    readDispute,
  });

  it('reports the dispute as the provider reads it, once however often the notification is redelivered', async () => {
    const asked: string[] = [];
    const { deliver, inserted, events } = intakeWith(naming((id) => (asked.push(id), Promise.resolve(read))));
    expect((await deliver()).httpStatus).toBe(200);
    expect((await deliver()).httpStatus).toBe(200);
    expect(asked).toEqual([read.providerDisputeId, read.providerDisputeId]);
    expect(inserted).toHaveLength(1);
    expect(events().map((e) => e.type)).toEqual([PROVIDER_DISPUTE_UPDATED]);
    expect(events()[0]?.data.object).toMatchObject({ provider_dispute_id: read.providerDisputeId, provider_payment_id: '1320000123', kind: 'chargeback', status: 'won', amount: 4_550, via: 'webhook' });
  });

  it('reports nothing for a dispute the provider does not know or does not show (acknowledged), and answers 503 keeping nothing when it cannot be asked now', async () => {
    for (const readDispute of [() => Promise.resolve(undefined), () => Promise.reject(new ProviderError('not_found', 'not_found', '404'))]) {
      const { deliver, inserted, events } = intakeWith(naming(readDispute));
      expect((await deliver()).httpStatus).toBe(200);
      expect(inserted).toHaveLength(1);
      expect(events()).toEqual([]);
    }
    const down = intakeWith(naming(() => Promise.reject(new ProviderError('ambiguous', 'provider_timeout', 'timeout'))));
    expect((await down.deliver()).httpStatus).toBe(503);
    expect(down.inserted).toEqual([]);
  });
});
