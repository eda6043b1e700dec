import { common, type payments } from '@orquestra/contracts';
import { chargeRequest } from './charge-walker';
import { paymentDraft } from './payment-draft';

const caller: common.Caller = { merchant_id: 'acct_1', mode: common.Mode.MODE_TEST, key_id: 'key_1', restricted: false, request_id: '' };
const candidate = { account_id: 'pa_1', provider: 'stripe', priority: 1, reason: '', fees: [] };
const draft = (overrides: Partial<payments.CreatePaymentRequest>) =>
  paymentDraft({ caller, idempotency_key: '', request_hash: '', method: 'card', amount: 1_000, description: '', customer: { name: 'Ana' }, expires_in_minutes: 0, metadata: {}, tracking: {}, provider_account_id: '', splits: [], ...overrides }, caller, 'test', 'pay_1');

describe('the charge request’s idempotency key', () => {
  it('is one per (payment, account) for an API payment, so a repeat never charges twice', () => {
    expect(chargeRequest(draft({}), candidate, 60).idempotency_key).toBe('pay_1:pa_1');
  });

  it('on the payment page is one per method, and for a card typed there one per card fields token', () => {
    const onPage = (card?: { token: string }) => ({ ...draft({}), requested_account_id: '', ...(card ? { card: { ...card, installments: 1, brand: '' } } : {}) });
    expect(chargeRequest({ ...onPage(), method: 'pix' }, candidate, 60).idempotency_key).toBe('pay_1:pix:pa_1');
    const first = chargeRequest(onPage({ token: 'tok_first' }), candidate, 60).idempotency_key;
    const again = chargeRequest(onPage({ token: 'tok_first' }), candidate, 60).idempotency_key;
    const second = chargeRequest(onPage({ token: 'tok_second' }), candidate, 60).idempotency_key;
    expect(first).toMatch(/^pay_1:card:[0-9a-f]{12}:pa_1$/);
    expect(again).toBe(first);
    expect(second).not.toBe(first);
    // The key never carries the token itself.
    expect(first).not.toContain('tok_first');
  });
});
