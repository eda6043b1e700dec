import { common, PROVIDER_DISPUTE_UPDATED, type providers as providersContract, type ProviderDisputeUpdated } from '@orquestra/contracts';
import { AppError, connectDatabase, ensureIndexes, EventBus, newId, OutboxRelay, type EventEnvelope, type RpcClient } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerDisputeModel, type DisputeDoc } from '../db/dispute.model';
import { DisputeStore } from '../db/dispute.store';
import { registerFailedCreationModel } from '../db/failed-creation.model';
import { registerPaymentModel, type PaymentDoc, type PaymentModel } from '../db/payment.model';
import { PaymentStore } from '../db/payment.store';
import { PaymentLinks } from '../domain/payment-links';
import { startProviderDisputeConsumer } from '../events/provider-dispute.consumer';
import { DisputesService } from './disputes.service';
import { ProviderDisputeIntake } from './provider-dispute-intake';

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });

/**
 * Disputes opened at providers, applied by payments against the real store, broker and outbox: reports travel over RabbitMQ as `internal.provider_dispute.updated`, public events come
 * out of the disputes' outbox. The providers service is an in-process stand-in that records the
 * defenses it is asked to send (the whole chain over gRPC and the emulators is the e2e suite).
 */
describe('provider disputes in payments (real store and broker)', () => {
  let db: Connection;
  let bus: EventBus;
  let paymentModel: PaymentModel;
  let store: PaymentStore;
  let disputeStore: DisputeStore;
  let disputes: DisputesService;
  const published: EventEnvelope[] = [];
  const defenses: providersContract.SubmitDisputeEvidenceRequest[] = [];
  const providersClient = {
    submitDisputeEvidence: async (request: providersContract.SubmitDisputeEvidenceRequest) => {
      defenses.push(request);
      return {};
    },
    listProviders: async () => {
      throw new AppError('internal', { message: 'provider disputes do not read the catalog' });
    },
  } as unknown as RpcClient<typeof providersContract.ProvidersServiceService>;
  const scope = { merchantId: 'acct_med', mode: 'test' as const };

  async function paidPayment(provider: string, accountId: string, e2e: string, amount = 5_000): Promise<PaymentDoc> {
    const now = new Date();
    const doc = await paymentModel.create({
      _id: newId('payment'), merchant_id: scope.merchantId, mode: 'test', method: 'pix', status: 'succeeded', amount, customer: { name: 'Ana' },
      provider, provider_account_id: accountId, provider_payment_id: `ch_${e2e}`, end_to_end_id: e2e, paid_at: now, created_at: now, updated_at: now,
    });
    return doc.toObject() as PaymentDoc;
  }

  const report = (overrides: Partial<ProviderDisputeUpdated>): ProviderDisputeUpdated => ({
    account_id: 'pa_woovi', provider: 'woovi', provider_dispute_id: 'E1', end_to_end_id: 'E1', kind: 'med', status: 'open', provider_status: 'OPENED',
    amount: 3_000, reason: 'Golpe', accepts_evidence: false, via: 'webhook', ...overrides,
  });
  const send = (object: ProviderDisputeUpdated) =>
    bus.publish({ id: newId('event'), type: PROVIDER_DISPUTE_UPDATED, created: Math.floor(Date.now() / 1000), merchant_id: scope.merchantId, mode: 'test', source: null, data: { object: object as unknown as Record<string, unknown> } });
  const disputesOf = (paymentId: string) => disputeStore.model.find({ payment_id: paymentId }).lean<DisputeDoc[]>();
  const eventsOf = (disputeId: string) => published.filter((e) => (e.data.object as { id?: string }).id === disputeId).map((e) => e.type);
  async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('provdisp');
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}payments`, logger });
    bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    await bus.consume({ queue: `${prefix}probe`, patterns: ['dispute.*', 'refund.*', 'payment.*'] }, async (event) => void published.push(event));
    const outbox = new OutboxRelay({ bus, logger });
    paymentModel = registerPaymentModel(db);
    store = new PaymentStore(paymentModel, registerFailedCreationModel(db), outbox, new PaymentLinks('http://pay.example.com', 'http://api.example.com'));
    disputeStore = new DisputeStore(registerDisputeModel(db), outbox);
    await ensureIndexes(db);
    disputes = new DisputesService(disputeStore, store, providersClient, logger);
    await startProviderDisputeConsumer(bus, new ProviderDisputeIntake(disputeStore, store, (d) => disputes.returnToPayer(d), logger), logger);
  });
  afterAll(async () => {
    await bus.close();
    await dropTestDatabase(db);
  });

  it('a Woovi MED creates one open dispute however often it is redelivered, and its acceptance loses it and refunds the payer', async () => {
    const payment = await paidPayment('woovi', 'pa_woovi', 'E2E0000000000000000000000000001');
    const opened = report({ provider_dispute_id: payment.end_to_end_id, end_to_end_id: payment.end_to_end_id, provider_payment_id: payment.provider_payment_id });
    await Promise.all([send(opened), send(opened), send(opened)]);
    const [created] = await until(async () => ((await disputesOf(payment._id)).length > 0 ? disputesOf(payment._id) : undefined), 'the dispute');
    expect(created).toMatchObject({ kind: 'med', status: 'open', amount: 3_000, provider: 'woovi', source: 'provider', provider_dispute_id: payment.end_to_end_id, due_at: null });
    expect(created!._id).toMatch(/^dp_[0-9a-z]{26}$/);
    const dueIn = created!.answer_due_at.getTime() - Date.now();
    expect(dueIn).toBeGreaterThan(6.9 * 86_400_000);
    await send(opened);
    await until(async () => (eventsOf(created!._id).length > 0 ? true : undefined), 'dispute.created');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await disputesOf(payment._id)).toHaveLength(1);
    expect(eventsOf(created!._id)).toEqual(['dispute.created']);

    // Woovi takes no defense by API: refused with the dispute's param, left open.
    await expect(disputes.submitEvidence(created!._id, scope, { text: 'Entregue', urls: [] })).rejects.toMatchObject({ code: 'dispute_evidence_not_supported', param: 'id' });

    await send(report({ ...opened, status: 'lost', provider_status: 'ACCEPTED' }));
    await send(report({ ...opened, status: 'lost', provider_status: 'ACCEPTED' }));
    const lost = await until(async () => {
      const [d] = await disputesOf(payment._id);
      return d?.status === 'lost' ? d : undefined;
    }, 'lost');
    expect(lost).toMatchObject({ provider_status: 'ACCEPTED', closed_at: expect.any(Date) });
    const after = (await paymentModel.findById(payment._id).lean<PaymentDoc>())!;
    expect(after).toMatchObject({ status: 'partially_refunded', amount_refunded: 3_000 });
    expect(after.refunds).toHaveLength(1);
    await until(async () => (eventsOf(lost._id).includes('dispute.closed') ? true : undefined), 'dispute.closed');
    expect(eventsOf(lost._id)).toEqual(['dispute.created', 'dispute.closed']);
  });

  it('an Efí infração found by the end-to-end id takes a defense through providers and goes under_review, then is won', async () => {
    const payment = await paidPayment('efi', 'pa_efi', 'E2E0000000000000000000000000002', 4_000);
    await send(report({ account_id: 'pa_efi', provider: 'efi', provider_dispute_id: 'inf_1', end_to_end_id: payment.end_to_end_id, status: 'open', provider_status: 'ABERTA', amount: 4_000, accepts_evidence: true, via: 'poll', answer_due_at: '2030-01-02T03:04:05.000Z' }));
    const [dispute] = await until(async () => ((await disputesOf(payment._id)).length > 0 ? disputesOf(payment._id) : undefined), 'the infração');
    expect(dispute).toMatchObject({ provider: 'efi', status: 'open', answer_due_at: new Date('2030-01-02T03:04:05.000Z') });

    const answered = await disputes.submitEvidence(dispute!._id, scope, { text: 'Pedido entregue', urls: ['https://loja.example/nf.pdf'] });
    expect(answered).toMatchObject({ status: 'under_review', evidence: { text: 'Pedido entregue', urls: ['https://loja.example/nf.pdf'] } });
    expect(defenses).toEqual([
      expect.objectContaining({ provider_dispute_id: 'inf_1', text: 'Pedido entregue', urls: ['https://loja.example/nf.pdf'], ref: expect.objectContaining({ account_id: 'pa_efi', merchant_id: scope.merchantId, mode: common.Mode.MODE_TEST }) }),
    ]);
    await expect(disputes.submitEvidence(dispute!._id, scope, { text: 'De novo', urls: [] })).rejects.toMatchObject({ code: 'dispute_not_open' });

    // A poll still saying "open" never moves it back; the decision closes it, the payment untouched.
    await send(report({ account_id: 'pa_efi', provider: 'efi', provider_dispute_id: 'inf_1', end_to_end_id: payment.end_to_end_id, status: 'open', provider_status: 'ABERTA', accepts_evidence: true, via: 'poll' }));
    await send(report({ account_id: 'pa_efi', provider: 'efi', provider_dispute_id: 'inf_1', end_to_end_id: payment.end_to_end_id, status: 'won', provider_status: 'REJEITADA', accepts_evidence: true, via: 'poll' }));
    await until(async () => ((await disputeStore.findById(dispute!._id))?.status === 'won' ? true : undefined), 'won');
    expect((await paymentModel.findById(payment._id).lean<PaymentDoc>())).toMatchObject({ status: 'succeeded', amount_refunded: 0 });
    await until(async () => (eventsOf(dispute!._id).includes('dispute.closed') ? true : undefined), 'dispute.closed');
    expect(eventsOf(dispute!._id)).toEqual(['dispute.created', 'dispute.updated', 'dispute.closed']);
  });
});
