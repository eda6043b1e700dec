/**
 * Contract test: the real StripeAdapter's balance and payouts over real HTTP against the Stripe
 * emulator (the shared payout contract, testing/payout-contract-kit.ts), plus what is Stripe's
 * own: the balance a payment fills net of the fee, a refund takes from it, the payout's metadata and
 * Idempotency-Key, and a lost answer found in the payout list by our id.
 */
import { createStripeEmulator, type StripeEmulator } from '@orquestra/emulators';
import { newId } from '@orquestra/platform';
import { ProviderError } from '../provider-adapter';
import { payAtEmulator, startWebhookRecorder, type WebhookRecorder } from '../testing/contract-kit';
import { payoutContract, payoutControl, type PayoutContractTarget } from '../testing/payout-contract-kit';
import { StripeAdapter } from './stripe.adapter';
import { PAYOUT_METADATA_KEY } from './stripe.payouts';

jest.setTimeout(30_000);

const SECRET_KEY = 'sk_test_51PayoutContractA00000000';

let emulator: StripeEmulator;
let adapter: StripeAdapter;
let apiUrl: string;
let controlUrl: string;
let receiver: WebhookRecorder;

const target = (): PayoutContractTarget => ({
  adapter,
  control: { url: controlUrl, param: 'account', account: SECRET_KEY },
  destination: { type: 'account' },
  received: receiver.received,
});
const control = payoutControl(target);

beforeAll(async () => {
  emulator = createStripeEmulator({ accounts: [SECRET_KEY], webhooks: { retries: 0, timeoutMs: 2_000 }, refundSettleMs: 100 });
  const ports = await emulator.start();
  apiUrl = `http://127.0.0.1:${ports.apiPort}`;
  controlUrl = `http://127.0.0.1:${ports.controlPort}`;
  receiver = await startWebhookRecorder();
  const webhookUrl = `${receiver.url}/webhooks/stripe/pa_payout?hmac=x`;
  const context = { baseUrl: apiUrl, credentials: { secret_key: SECRET_KEY }, webhookUrl, webhookSecret: 'x', settings: {}, timeoutMs: 5_000 };
  const registration = await new StripeAdapter(context).registerWebhook(webhookUrl);
  adapter = new StripeAdapter({ ...context, signingSecret: registration.signingSecret ?? '' });
});

afterAll(async () => {
  await adapter?.close();
  await emulator?.stop();
  await receiver?.close();
});

describe('Stripe payouts: the shared contract', () => {
  payoutContract(target, (payouts, id) => (payouts as Array<{ id: string }>).filter((p) => p.id === id).length);
});

describe('Stripe payouts: its own', () => {
  it('pays out only to the account’s bank account', () => {
    expect(StripeAdapter.payoutDestinations).toEqual(['account']);
    expect(adapter.payoutDestinations).toEqual(['account']);
  });

  it('a card payment fills the balance net of the fee; a refund takes from it', async () => {
    const before = (await adapter.getBalance()).available;
    const charge = await adapter.createCharge({
      paymentId: 'pay_payout_balance',
      method: 'card',
      amount: 10_000,
      customer: { name: 'Maria Souza', email: 'maria@example.com', document: '52998224725' },
      expiresInSeconds: 3_600,
      metadata: {},
      idempotencyKey: 'pay_payout_balance:pa_payout',
      card: { token: 'pm_card_visa', installments: 1 },
    });
    const paid = await adapter.getCharge(charge.providerPaymentId);
    expect(paid.status).toBe('paid');
    const afterPayment = (await adapter.getBalance()).available;
    expect(afterPayment).toBe(before + 10_000 - (paid.providerFee ?? 0));
    expect(paid.providerFee).toBeGreaterThan(0);
    await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_payout_balance', amount: 1_000 });
    expect((await adapter.getBalance()).available).toBe(afterPayment - 1_000);
    // a Pix paid the same way
    const pix = await adapter.createCharge({ paymentId: 'pay_payout_pix', method: 'pix', amount: 5_000, customer: { name: 'Ana' }, expiresInSeconds: 3_600, metadata: {}, idempotencyKey: 'pay_payout_pix:pa' });
    await payAtEmulator('stripe', controlUrl, {}, pix.providerPaymentId);
    const pixPaid = await adapter.getCharge(pix.providerPaymentId);
    expect((await adapter.getBalance()).available).toBe(afterPayment - 1_000 + 5_000 - (pixPaid.providerFee ?? 0));
  });

  it('creates the payout with our id in its metadata; it is found by that id alone', async () => {
    await control.behaviour('hang');
    await control.credit(3_000);
    const payoutId = newId('payout');
    const made = await adapter.createTransfer({ payoutId, amount: 3_000, destination: { type: 'account' }, description: 'Repasse semanal' });
    expect(made.providerTransferId).toMatch(/^po_/);
    expect(made.providerStatus).toBe('pending');
    const listed = (await control.transfers()) as Array<{ id: string; metadata: Record<string, string>; description: string; currency: string }>;
    expect(listed.find((p) => p.id === made.providerTransferId)).toMatchObject({ metadata: { [PAYOUT_METADATA_KEY]: payoutId }, description: 'Repasse semanal', currency: 'brl' });
    await expect(adapter.getTransfer({ payoutId })).resolves.toMatchObject({ providerTransferId: made.providerTransferId });
    // Another payout's Stripe id under our id is not ours.
    await expect(adapter.getTransfer({ payoutId: newId('payout'), providerTransferId: made.providerTransferId })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('a lost answer then a repeat of the create under the same key answers the payout made, not a second one', async () => {
    await control.behaviour('hang');
    await control.credit(1_500);
    await control.withholdAnswer();
    const payoutId = newId('payout');
    const input = { payoutId, amount: 1_500, destination: { type: 'account' as const } };
    const error = await adapter.createTransfer(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    const again = await adapter.createTransfer(input);
    const found = await adapter.getTransfer({ payoutId });
    expect(again.providerTransferId).toBe(found.providerTransferId);
    expect((await control.transfers()).filter((p) => (p as { metadata: Record<string, string> }).metadata[PAYOUT_METADATA_KEY] === payoutId)).toHaveLength(1);
  });

  it('subscribes its webhook endpoint to payout changes', () => {
    for (const type of ['payout.paid', 'payout.failed', 'payout.canceled', 'payout.updated']) expect(emulator.state.listEndpoints(emulator.state.accountForKey(SECRET_KEY)?.id ?? '')[0]?.enabledEvents).toContain(type);
  });
});
