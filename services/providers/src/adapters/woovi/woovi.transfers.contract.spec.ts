/**
 * Contract test for balance and Pix payments out: the real WooviAdapter over real HTTP against the
 * Woovi emulator (the shared payout contract, testing/payout-contract-kit.ts), plus what is Woovi's
 * own: the balance a paid charge and a refund move, the two steps (create, approve) each
 * repeatable under our payout id, the signed OPENPIX:MOVEMENT_* webhooks, Pix-key-only destinations.
 */
import { createWooviEmulator, type WooviEmulator } from '@orquestra/emulators';
import { newId } from '@orquestra/platform';
import { ProviderError } from '../provider-adapter';
import { WooviAdapter } from './woovi.adapter';
import { startWooviContract, type WooviContract } from './woovi.contract-kit';
import { payAtEmulator, until } from '../testing/contract-kit';
import { payoutContract, payoutControl, type PayoutContractTarget } from '../testing/payout-contract-kit';

jest.setTimeout(30_000);

const APP_ID = 'Q2xpZW50X0lkX3RyYW5zZmVyczpzZWNyZXQ';
const WEBHOOK_SECRET = 'whsec_transfers_w3';

let emulator: WooviEmulator;
let contract: WooviContract;
let adapter: WooviAdapter;

const target = (): PayoutContractTarget => ({
  adapter,
  control: { url: contract.controlUrl, param: 'account', account: APP_ID },
  destination: { type: 'pix_key', keyType: 'cpf', key: '52998224725' },
  received: contract.receiver.received,
});
const control = payoutControl(target);
const sentUnder = (transfers: unknown[], providerTransferId: string) => (transfers as { payment: { correlationID: string } }[]).filter((t) => t.payment.correlationID === providerTransferId).length;

beforeAll(async () => {
  emulator = createWooviEmulator({ accounts: [APP_ID], webhooks: { retries: 0, timeoutMs: 2_000 }, refundSettleMs: 50 });
  contract = await startWooviContract({ appId: APP_ID, webhookSecret: WEBHOOK_SECRET, account: 'acc_t', emulator });
  adapter = contract.adapter;
});

afterAll(async () => {
  await contract?.stop();
});

describe('Woovi payouts: the shared contract', () => {
  payoutContract(target, sentUnder);
});

describe('Woovi payouts: its own', () => {
  it('the balance moves with a paid charge (net of the fee) and its refund', async () => {
    const before = (await adapter.getBalance()).available;
    const charge = await adapter.createCharge({
      paymentId: 'pay_transfer_1', method: 'pix', amount: 10_000, customer: { name: 'Maria Souza' }, expiresInSeconds: 3600, metadata: {}, idempotencyKey: 'pay_transfer_1:acc',
    });
    await payAtEmulator('woovi', contract.controlUrl, { app_id: APP_ID }, charge.providerPaymentId);
    // R$ 100,00 less the emulator's 0.8 % fee.
    expect((await adapter.getBalance()).available).toBe(before + 10_000 - 80);
    await adapter.refundCharge({ providerPaymentId: charge.providerPaymentId, refundId: 're_transfer_1', amount: 2_000 });
    expect(await adapter.getBalance()).toMatchObject({ available: before + 10_000 - 80 - 2_000, pending: 0 });
  });

  it('a payment created but never approved (approve lost before it was sent) is approved by the repeat, once', async () => {
    await control.behaviour('hang');
    await control.credit(3_000);
    const payoutId = newId('payout');
    // As if our first create stopped after Woovi's create step.
    const created = await fetch(`${contract.apiUrl}/api/v1/payment`, {
      method: 'POST',
      headers: { authorization: APP_ID, 'content-type': 'application/json' },
      body: JSON.stringify({ value: 3_000, destinationAlias: '52998224725', destinationAliasType: 'CPF', correlationID: payoutId }),
    });
    expect(created.status).toBe(200);
    await expect(adapter.getTransfer({ payoutId })).resolves.toMatchObject({ status: 'pending', providerStatus: 'CREATED' });
    const sent = await adapter.createTransfer({ payoutId, amount: 3_000, destination: target().destination });
    expect(sent).toMatchObject({ providerTransferId: payoutId, status: 'processing', providerStatus: 'APPROVED' });
    expect(sentUnder(await control.transfers(), payoutId)).toBe(1);
  });

  it('reports MOVEMENT_CONFIRMED and MOVEMENT_FAILED, signed, read back to our payout id', async () => {
    await control.behaviour('paid', 30);
    await control.credit(2_000);
    const paidId = newId('payout');
    await adapter.createTransfer({ payoutId: paidId, amount: 1_000, destination: target().destination });
    await control.behaviour('failed', 30);
    const failedId = newId('payout');
    await adapter.createTransfer({ payoutId: failedId, amount: 1_000, destination: target().destination });
    const failed = await until(async () => {
      const t = await adapter.getTransfer({ payoutId: failedId });
      return t.status === 'failed' ? t : undefined;
    });
    expect(failed).toMatchObject({ providerStatus: 'FAILED', failureCode: 'pay_pix_key_error', failureReason: expect.stringMatching(/^Woovi: /) });
    const paid = await until(async () => {
      const t = await adapter.getTransfer({ payoutId: paidId });
      return t.status === 'paid' ? t : undefined;
    });
    expect(paid.endToEndId).toMatch(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/);
    await emulator.webhooksIdle();
    for (const [id, event] of [[paidId, 'OPENPIX:MOVEMENT_CONFIRMED'], [failedId, 'OPENPIX:MOVEMENT_FAILED']] as const) {
      const hook = contract.receiver.received.find((r) => r.rawBody.includes(event) && r.rawBody.includes(id));
      expect(hook).toBeDefined();
      expect(adapter.parseTransferWebhook(hook!)).toEqual({ ok: true, eventKey: expect.stringMatching(new RegExp(`^woovi:${event}:`)), transfers: [{ providerTransferId: id, payoutId: id }] });
      expect(adapter.parseWebhook(hook!)).toMatchObject({ ok: true, providerPaymentIds: [] });
      expect(adapter.parseTransferWebhook({ ...hook!, query: { hmac: 'not-our-secret' } })).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
    }
  });

  it('pays to a Pix key only, refusing another destination before calling Woovi', async () => {
    const error = await adapter.createTransfer({ payoutId: newId('payout'), amount: 100, destination: { type: 'account' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'rejected', param: { name: 'destination' } });
    expect(WooviAdapter.payoutDestinations).toEqual(['pix_key']);
  });
});
