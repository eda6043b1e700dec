import { newId } from '@orquestra/platform';
import { ProviderError, type WebhookRequest } from '../provider-adapter';
import type { PayoutCapable, PayoutDestination, ProviderTransfer } from '../provider-payouts';
import { until } from './contract-kit';

/**
 * The payout contract every PayoutCapable adapter meets against its emulator (test-only), driven
 * through the control routes the emulators share (tools/emulators/kit/payout-book.ts): balance
 * credits, how transfers end, settling one, and "execute then time out" (the emulator makes the
 * transfer and never answers). Call inside a describe, after the spec's beforeAll made the target.
 */
export interface PayoutContractTarget {
  adapter: PayoutCapable;
  /** The emulator's control port, its account field (`client_id`, `account`) and this account's value. */
  control: { url: string; param: string; account: string };
  /** Where the contract pays to (a destination the adapter takes). */
  destination: PayoutDestination;
  /** The deliveries our intake stand-in received from the emulator. */
  received: WebhookRequest[];
}

async function controlCall<T>(target: PayoutContractTarget, method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<T> {
  const { url, param, account } = target.control;
  const query = method === 'GET' ? `${path.includes('?') ? '&' : '?'}${param}=${encodeURIComponent(account)}` : '';
  const response = await fetch(`${url}${path}${query}`, {
    method,
    ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) } : {}),
  });
  const answer = (await response.json()) as T;
  if (!response.ok) throw new Error(`control ${method} ${path}: HTTP ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

export function payoutControl(target: () => PayoutContractTarget) {
  const own = () => ({ [target().control.param]: target().control.account });
  return {
    credit: (amount: number) => controlCall<{ available: number }>(target(), 'POST', '/__control/balance/credit', { ...own(), amount }),
    balance: () => controlCall<{ available: number; pending: number }>(target(), 'GET', '/__control/balance'),
    behaviour: (outcome: 'paid' | 'failed' | 'hang', settleAfterMs = 50) => controlCall(target(), 'POST', '/__control/transfers/behaviour', { ...own(), outcome, settle_after_ms: settleAfterMs }),
    withholdAnswer: (delayMs = 0) => controlCall(target(), 'POST', '/__control/transfers/withhold-answer', { ...own(), delay_ms: delayMs }),
    settle: (providerTransferId: string, outcome: 'paid' | 'failed') => controlCall(target(), 'POST', `/__control/transfers/${encodeURIComponent(providerTransferId)}/settle`, { outcome }),
    transfers: () => controlCall<{ transfers: unknown[] }>(target(), 'GET', '/__control/transfers').then((a) => a.transfers),
  };
}

const rejection = (promise: Promise<unknown>) => promise.then(() => new Error('expected a ProviderError'), (error: unknown) => error);

/** The contract's cases; `transferCount` counts the emulator's transfers made under one provider id. */
export function payoutContract(target: () => PayoutContractTarget, transferCount: (transfers: unknown[], providerTransferId: string) => number): void {
  const control = payoutControl(target);
  const adapter = () => target().adapter;
  const create = (payoutId: string, amount: number) => adapter().createTransfer({ payoutId, amount, destination: target().destination, description: 'Repasse Orquestra' });

  it('reads the balance the provider holds, which a credit moves', async () => {
    const before = await adapter().getBalance();
    await control.credit(100_000);
    const after = await adapter().getBalance();
    expect(after.currency).toBe('BRL');
    expect(after.available).toBe(before.available + 100_000);
    expect(after.asOf).toBeInstanceOf(Date);
  });

  it('makes one transfer per payout id: a repeat answers the same transfer, debited once', async () => {
    await control.behaviour('hang');
    await control.credit(10_000);
    const before = (await control.balance()).available;
    const payoutId = newId('payout');
    const first = await create(payoutId, 2_500);
    const again = await create(payoutId, 2_500);
    expect(first).toMatchObject({ payoutId, amount: 2_500, status: 'processing' });
    expect(again.providerTransferId).toBe(first.providerTransferId);
    expect(transferCount(await control.transfers(), first.providerTransferId)).toBe(1);
    expect((await control.balance()).available).toBe(before - 2_500 - (first.fee ?? 0));
  });

  it('settles paid when the provider says so: a webhook names it and reading it back answers paid', async () => {
    await control.behaviour('hang');
    await control.credit(5_000);
    const payoutId = newId('payout');
    const made = await create(payoutId, 1_234);
    await expect(adapter().getTransfer({ payoutId })).resolves.toMatchObject({ status: 'processing', providerTransferId: made.providerTransferId });
    await control.settle(made.providerTransferId, 'paid');
    const parser = adapter().parseTransferWebhook;
    if (parser) {
      const named = await until(
        async () =>
          target()
            .received.map((request) => parser.call(adapter(), request))
            .flatMap((parsed) => (parsed.ok ? parsed.transfers : []))
            .find((t) => t.providerTransferId === made.providerTransferId),
        5_000,
        'the transfer webhook',
      );
      expect(named.payoutId).toBe(payoutId);
    }
    const paid = await adapter().getTransfer({ payoutId, providerTransferId: made.providerTransferId });
    expect(paid).toMatchObject({ payoutId, status: 'paid', amount: 1_234 });
    expect(paid.paidAt).toBeInstanceOf(Date);
  });

  it('fails when the provider refuses it later, and the money is back in the balance', async () => {
    await control.behaviour('failed', 30);
    await control.credit(3_000);
    const before = (await control.balance()).available;
    const payoutId = newId('payout');
    await create(payoutId, 3_000);
    const failed = await until(async () => {
      const t = await adapter().getTransfer({ payoutId });
      return t.status === 'failed' ? t : undefined;
    });
    expect(failed.failureReason).toEqual(expect.any(String));
    expect((await control.balance()).available).toBe(before);
  });

  it('execute then time out: the create has no answer (ambiguous), getTransfer finds the one transfer made', async () => {
    await control.behaviour('hang');
    await control.credit(4_000);
    await control.withholdAnswer();
    const payoutId = newId('payout');
    const error = await rejection(create(payoutId, 4_000));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'ambiguous' });
    const found: ProviderTransfer = await adapter().getTransfer({ payoutId });
    expect(found).toMatchObject({ payoutId, amount: 4_000, status: 'processing' });
    expect(transferCount(await control.transfers(), found.providerTransferId)).toBe(1);
  });

  it('refuses a transfer the balance does not cover (insufficient_balance), making nothing', async () => {
    const { available } = await control.balance();
    const payoutId = newId('payout');
    const error = await rejection(create(payoutId, Math.max(available, 0) + 1));
    expect(error).toMatchObject({ kind: 'rejected', normalizedCode: 'insufficient_balance' });
    await expect(adapter().getTransfer({ payoutId })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('answers not_found for a payout id nothing was made under', async () => {
    await expect(adapter().getTransfer({ payoutId: newId('payout') })).rejects.toMatchObject({ kind: 'not_found' });
  });
}
