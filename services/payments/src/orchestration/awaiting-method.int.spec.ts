import { common, providers as providersContract, type payments, type routing } from '@orquestra/contracts';
import { AppError, connectDatabase, ensureIndexes, EventBus, OutboxRelay, type EventEnvelope, type RpcClient } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerFailedCreationModel } from '../db/failed-creation.model';
import { registerIdempotencyRecordModel } from '../db/idempotency-record.model';
import { DueRecords } from '../db/due-records';
import { registerOrphanChargeModel } from '../db/orphan-charge.model';
import type { PaymentDoc, PaymentModel } from '../db/payment.model';
import { registerPaymentModel } from '../db/payment.model';
import { PaymentStore } from '../db/payment.store';
import { PaymentLinks } from '../domain/payment-links';
import { createPaymentExpiryWorker } from '../jobs/payment-expiry.worker';
import { ChargeStateApplier } from './apply-charge-state';
import { AvailableMethods } from './available-methods';
import { AwaitingMethodPayments } from './awaiting-method';
import { PaymentCancellation } from './cancel-payment';
import { ChargeWalker } from './charge-walker';
import { PaymentCreator } from './create-payment';
import { PaymentExpiry } from './expire-payment';
import { IdempotencyGuard } from '../db/idempotency.guard';
import { OrphanCharges } from './orphan-charges';
import { PaymentRefunds } from './refund-payment';

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });
const { ChargeStatus } = providersContract;
const PIX_CODE = '00020101021226830014br.gov.bcb.pix2561qrcodes.example/v2/abc5204000053039865802BR6304ABCD';

/**
 * requires_method against the real store, broker and outbox. Routing and providers are
 * in-process stand-ins answering as those services do (the whole chain over gRPC and the real
 * emulators is tools/e2e/src/payment-page.e2e.spec.ts): routing offers the methods in `offered`,
 * providers records every createCharge and answers an open Pix (or fails when `providerDown`).
 */
describe('payments awaiting the buyer method (real store)', () => {
  let db: Connection;
  let bus: EventBus;
  let paymentModel: PaymentModel;
  let store: PaymentStore;
  let creator: PaymentCreator;
  let cancellation: PaymentCancellation;
  let expiry: PaymentExpiry;
  let awaiting: AwaitingMethodPayments;
  const published: EventEnvelope[] = [];
  const charges: providersContract.CreateChargeRequest[] = [];
  let offered = ['pix'];
  /** Some account charges vault cards (routing's vault_card); 'card' in `offered` is a hosted checkout account. */
  let vaultCards = false;
  let providerDown = false;
  const cardRoutes: routing.RouteRequest[] = [];

  const routingClient = {
    route: async (request: routing.RouteRequest) => {
      if (request.method === 'card') cardRoutes.push(request);
      const eligible =
        request.method === 'card' ? (request.vault_card ? vaultCards : request.hosted_checkout && offered.includes('card')) : offered.includes(request.method);
      // As routing answers: no account charging vault cards is account_not_enabled (param card).
      if (!eligible && request.vault_card) throw new AppError('account_not_enabled', { param: 'card' });
      if (!eligible) throw new AppError('no_eligible_account', { param: 'method' });
      return { candidates: [{ account_id: 'pa_a', provider: 'efi', priority: 10, reason: 'priority', fees: [] }] };
    },
  } as unknown as RpcClient<typeof routing.RoutingServiceService>;
  const providersClient = {
    createCharge: async (request: providersContract.CreateChargeRequest) => {
      charges.push(request);
      await new Promise((resolve) => setTimeout(resolve, 150));
      if (providerDown) throw new AppError('provider_unavailable');
      if (request.method === 'card') {
        // A vault card at an account that charges them: tok_declined stands for a card the issuer refuses.
        const declined = request.card?.token === 'tok_declined';
        const card: providersContract.Charge = {
          provider: 'stripe', account_id: request.account_id, provider_payment_id: `pi_${request.payment_id.replace(/_/g, '')}`,
          status: declined ? ChargeStatus.CHARGE_STATUS_FAILED : ChargeStatus.CHARGE_STATUS_PAID,
          failure_code: declined ? 'card_declined' : '', failure_reason: declined ? 'Cartão recusado pelo emissor.' : '',
          expires_at: '', amount: request.amount, amount_paid: declined ? 0 : request.amount, refunds: [],
        };
        return { charge: card };
      }
      const charge: providersContract.Charge = {
        provider: 'efi', account_id: request.account_id, provider_payment_id: `tx${request.payment_id.replace(/_/g, '')}`, status: ChargeStatus.CHARGE_STATUS_PENDING,
        next_action: { type: 'pix_qr', qr_code: PIX_CODE, qr_code_base64: 'iVBORw0KGgo=' },
        expires_at: new Date(Date.now() + request.expires_in_seconds * 1000).toISOString(), amount: request.amount, amount_paid: 0, refunds: [],
      };
      return { charge };
    },
    cancelCharge: async () => {
      throw new Error('a payment without a charge must not reach the provider');
    },
  } as unknown as RpcClient<typeof providersContract.ProvidersServiceService>;

  const caller: common.Caller = { merchant_id: 'acct_page', mode: common.Mode.MODE_TEST, key_id: 'key_1', restricted: false, request_id: '' };
  const create = (overrides: Partial<payments.CreatePaymentRequest> = {}) =>
    creator.create(
      { caller, idempotency_key: '', request_hash: '', method: '', amount: 1990, description: 'Pedido 7', customer: { name: 'Ana' }, expires_in_minutes: 0, metadata: {}, tracking: {}, provider_account_id: '', splits: [], ...overrides },
      'req',
    );
  const read = async (id: string) => (await paymentModel.findById(id).lean<PaymentDoc>()) as PaymentDoc;

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('paymethod');
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}payments`, logger });
    bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    await bus.consume({ queue: 'probe', patterns: ['payment.*'] }, async (event) => void published.push(event));
    const outbox = new OutboxRelay({ bus, logger });
    const links = new PaymentLinks('http://pay.example.com', 'http://api.example.com');
    paymentModel = registerPaymentModel(db);
    store = new PaymentStore(paymentModel, registerFailedCreationModel(db), outbox, links);
    const idempotencyRecords = registerIdempotencyRecordModel(db);
    const orphans = new OrphanCharges(new DueRecords(registerOrphanChargeModel(db)), providersClient, logger);
    await ensureIndexes(db);
    const walker = new ChargeWalker({ routing: routingClient, providers: providersClient, orphans, logger, providerCallDeadlineMs: 5_000 });
    const methods = new AvailableMethods(routingClient);
    creator = new PaymentCreator({
      store, walker, methods, links, logger, routing: routingClient,
      // No payment here has a split: the payouts service is never asked.
      splits: { resolve: async (request) => (request.splits.length === 0 ? undefined : Promise.reject(new Error('no splits in this suite'))) },
      idempotency: new IdempotencyGuard(idempotencyRecords, 3_600_000, 60_000),
      defaultPixExpiresMinutes: 60, defaultMethodChoiceMinutes: 45,
    });
    const refunds = new PaymentRefunds({ store, idempotency: new IdempotencyGuard(idempotencyRecords, 3_600_000, 60_000), providers: providersClient, logger, providerCallDeadlineMs: 5_000 });
    awaiting = new AwaitingMethodPayments({ store, walker, methods, links, logger, defaultPixExpiresMinutes: 30 });
    const charges = new ChargeStateApplier(store, refunds, logger);
    cancellation = new PaymentCancellation(store, providersClient, charges, awaiting);
    expiry = new PaymentExpiry(store, providersClient, charges, awaiting, logger);
  });
  afterAll(async () => {
    await bus.close();
    await dropTestDatabase(db);
  });
  beforeEach(() => {
    offered = ['pix'];
    vaultCards = false;
    providerDown = false;
    charges.length = 0;
    cardRoutes.length = 0;
  });

  it('creates a requires_method payment with no charge, bounded by the default choice time', async () => {
    const before = Date.now();
    const { payment } = await create({ provider_account_id: 'pa_a' });
    expect(charges).toHaveLength(0);
    const stored = await read(payment._id);
    expect(stored).toMatchObject({ status: 'requires_method', method: '', provider: '', next_action: null, requested_account_id: 'pa_a' });
    const expires = new Date(stored.expires_at as Date).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 45 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 45 * 60_000);
    expect(new Date(stored.due_at as Date).getTime()).toBe(expires);
    expect(stored.events.map((e) => e.type)).toEqual(['payment.created']);
  });

  it('refuses to create a payment no method could ever pay, storing nothing', async () => {
    offered = [];
    const count = await paymentModel.countDocuments({ merchant_id: 'acct_page' });
    await expect(create()).rejects.toMatchObject({ code: 'no_eligible_account', param: 'method' });
    expect(await paymentModel.countDocuments({ merchant_id: 'acct_page' })).toBe(count);
  });

  it('charges the chosen method through the walk once, even on a double click, and announces payment.pending', async () => {
    const { payment } = await create({ expires_in_minutes: 10 });
    const [first, second] = await Promise.all([awaiting.choose(payment._id, 'pix', 'r1'), awaiting.choose(payment._id, 'pix', 'r2')]);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ payment_id: payment._id, method: 'pix', expires_in_seconds: 30 * 60, idempotency_key: `${payment._id}:pix:pa_a` });
    expect(first._id).toBe(second._id);
    const stored = await read(payment._id);
    expect(stored).toMatchObject({ status: 'pending', method: 'pix', provider: 'efi', provider_account_id: 'pa_a', // The provider's own picture is kept when it gives one (qr_code_base64); qr_code_url is always ours.
      next_action: { type: 'pix_qr', qr_code: PIX_CODE, qr_code_base64: 'iVBORw0KGgo=', qr_code_url: `http://api.example.com/qr/${payment._id}.png` } });
    expect(stored.attempts).toHaveLength(1);
    expect(stored.events.map((e) => e.type)).toEqual(['payment.created', 'payment.pending']);
    // The Pix's own validity now drives expiry.
    expect(new Date(stored.due_at as Date).getTime()).toBe(new Date(stored.expires_at as Date).getTime());
    await expect(awaiting.choose(payment._id, 'boleto', 'r3')).rejects.toMatchObject({ code: 'payment_not_awaiting_method' });
    const pending = await waitFor(() => published.find((e) => e.type === 'payment.pending' && (e.data.object as { id: string }).id === payment._id));
    expect(pending.data.object).toMatchObject({ status: 'pending', method: 'pix' });
  });

  it('refuses a method that is not offered, in Portuguese, and changes nothing', async () => {
    const { payment } = await create();
    const error = await awaiting.choose(payment._id, 'boleto', 'r').catch((e: AppError) => e);
    expect(error).toMatchObject({ code: 'method_not_available', param: 'method' });
    expect((error as AppError).message).toContain('A forma de pagamento boleto não está disponível para este pagamento. Escolha uma das opções oferecidas: Pix.');
    expect(charges).toHaveLength(0);
    expect((await read(payment._id)).status).toBe('requires_method');
  });

  it('keeps the payment awaiting a method when every account fails, with the attempts recorded', async () => {
    const { payment } = await create();
    providerDown = true;
    await expect(awaiting.choose(payment._id, 'pix', 'r')).rejects.toMatchObject({ code: 'all_providers_failed' });
    const stored = await read(payment._id);
    expect(stored.status).toBe('requires_method');
    expect(stored.attempts).toEqual([expect.objectContaining({ provider_account_id: 'pa_a', outcome: 'failed', failure_code: 'provider_unavailable' })]);
    providerDown = false;
    expect((await awaiting.choose(payment._id, 'pix', 'r')).status).toBe('pending');
  });

  it('offers card through the card fields where an account charges vault cards and none has a hosted checkout (kept as before)', async () => {
    const { payment } = await create();
    const methods = new AvailableMethods(routingClient);
    const stored = await read(payment._id);
    expect(await methods.offer(stored, 'r')).toMatchObject({ methods: ['pix'], vaultCards: false, cardFields: false });
    offered = ['pix', 'card'];
    expect(await methods.offer(stored, 'r')).toMatchObject({ methods: ['pix', 'card'], vaultCards: false, cardFields: false });
    // A hosted checkout too: the page keeps sending the buyer there (a tok_ is still charged if posted).
    vaultCards = true;
    expect(await methods.offer(stored, 'r')).toMatchObject({ methods: ['pix', 'card'], vaultCards: true, cardFields: false });
    offered = ['pix'];
    expect(await methods.offer(stored, 'r')).toMatchObject({ methods: ['pix', 'card'], vaultCards: true, cardFields: true });
    // The card fields' question is a fresh tok_ with its security code, never a hosted checkout.
    expect(cardRoutes.filter((route) => route.vault_card)).toEqual(expect.arrayContaining([expect.objectContaining({ vault_card: true, vault_card_without_cvc: false, hosted_checkout: false })]));
  });

  it('charges the card fields token as a vault card through the walk: paid, or failed with the decline', async () => {
    vaultCards = true;
    const { payment } = await create();
    const paid = await awaiting.choose(payment._id, 'card', 'r', { token: 'tok_ok' });
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ method: 'card', card: { token: 'tok_ok', id: '', installments: 1, without_cvc: false }, idempotency_key: expect.stringMatching(new RegExp(`^${payment._id}:card:[0-9a-f]{12}:pa_a$`)) });
    expect(cardRoutes.at(-1)).toMatchObject({ vault_card: true, hosted_checkout: false });
    expect(paid).toMatchObject({ status: 'succeeded', method: 'card', provider_payment_id: expect.stringMatching(/^pi_/), card: { token: 'tok_ok', installments: 1 } });
    const stored = await read(payment._id);
    expect(stored.paid_at).toBeInstanceOf(Date);
    expect(stored.events.map((e) => e.type)).toEqual(['payment.created', 'payment.pending', 'payment.succeeded']);

    const other = await create();
    const declined = await awaiting.choose(other.payment._id, 'card', 'r', { token: 'tok_declined' });
    expect(declined).toMatchObject({ status: 'failed', method: 'card', failure_code: 'card_declined', failure_reason: 'Cartão recusado pelo emissor.' });
    expect((await read(other.payment._id)).events.map((e) => e.type)).toEqual(['payment.created', 'payment.failed']);
  });

  it('refuses a card token that is not the card fields tok_, or a token where no account charges vault cards, charging nothing', async () => {
    offered = ['pix', 'card'];
    const { payment } = await create();
    const notVault = await awaiting.choose(payment._id, 'card', 'r', { token: 'card_tok_from_an_account' }).catch((e: AppError) => e);
    expect(notVault).toMatchObject({ code: 'parameter_invalid', param: 'card.token' });
    expect((notVault as AppError).message).toContain('tok_');
    const hostedOnly = await awaiting.choose(payment._id, 'card', 'r', { token: 'tok_ok' }).catch((e: AppError) => e);
    expect(hostedOnly).toMatchObject({ code: 'method_not_available', param: 'card.token' });
    await expect(awaiting.choose(payment._id, 'pix', 'r', { token: 'tok_ok' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'card' });
    expect(charges).toHaveLength(0);
    expect((await read(payment._id)).status).toBe('requires_method');
  });

  it('cancels a payment awaiting a method without asking any provider', async () => {
    const { payment } = await create();
    const canceled = await cancellation.cancel(payment._id, { merchantId: 'acct_page', mode: 'test' }, 'r');
    expect(canceled).toMatchObject({ status: 'canceled', due_at: null });
    await expect(awaiting.choose(payment._id, 'pix', 'r')).rejects.toMatchObject({ code: 'payment_not_awaiting_method' });
    expect(charges).toHaveLength(0);
  });

  it('expires a payment whose buyer did not choose in time (due work), and refuses a late choice', async () => {
    const { payment } = await create();
    const past = new Date(Date.now() - 1_000);
    // One conditional update, as every writer of a payment makes: the store applies it atomically,
    // so a concurrent outbox flush cannot write the old dates back.
    const setDates = async (id: string, dates: Record<string, Date>) =>
      expect((await paymentModel.updateOne({ _id: id, status: 'requires_method' }, { $set: dates })).modifiedCount).toBe(1);
    await setDates(payment._id, { expires_at: past, due_at: past });
    const worker = createPaymentExpiryWorker({ store, expiry, logger, pollIntervalMs: 60_000 });
    await worker.tick();
    expect(await read(payment._id)).toMatchObject({ status: 'canceled', failure_code: 'expired', due_at: null });

    const late = await create();
    await setDates(late.payment._id, { expires_at: past, due_at: new Date(Date.now() + 3_600_000) });
    const error = await awaiting.choose(late.payment._id, 'pix', 'r').catch((e: AppError) => e);
    expect(error).toMatchObject({ code: 'payment_not_awaiting_method' });
    expect((error as AppError).message).toContain('O prazo para escolher a forma de pagamento terminou');
    expect(await read(late.payment._id)).toMatchObject({ status: 'canceled', failure_code: 'expired' });
    expect(charges).toHaveLength(0);
  });
});

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
