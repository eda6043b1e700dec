import { common, type payments } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import { assertMethodInput, needsHostedCheckout, vaultCardRoute } from './method-input';

const request = (overrides: Partial<payments.CreatePaymentRequest>): payments.CreatePaymentRequest =>
  ({ method: 'card', amount: 1000, provider_account_id: 'pa_1', card: { token: 'pm_card_visa', id: '', installments: 1, brand: '' }, ...overrides }) as payments.CreatePaymentRequest;

function refusal(run: () => void): { code: string; param: string | undefined } | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, param: error.param };
    throw error;
  }
}

describe('assertMethodInput', () => {
  it('lets pix, boleto, no method and a card token on a named account through', () => {
    for (const method of ['', 'pix', 'boleto']) expect(refusal(() => assertMethodInput(request({ method, card: undefined, provider_account_id: '' })))).toBeUndefined();
    expect(refusal(() => assertMethodInput(request({})))).toBeUndefined();
  });

  it('lets a card without token through to routing (hosted checkout), with or without an account', () => {
    expect(refusal(() => assertMethodInput(request({ card: undefined, provider_account_id: '' })))).toBeUndefined();
    expect(refusal(() => assertMethodInput(request({ card: { token: '', id: '', installments: 3, brand: '', without_cvc: false }, provider_account_id: '' })))).toBeUndefined();
    expect(needsHostedCheckout('card', undefined)).toBe(true);
    expect(needsHostedCheckout('card', { token: '' })).toBe(true);
    expect(needsHostedCheckout('card', { token: 'pm_card_visa' })).toBe(false);
    expect(needsHostedCheckout('pix', undefined)).toBe(false);
  });

  it('refuses a card token without its account, or bad installments', () => {
    expect(refusal(() => assertMethodInput(request({ provider_account_id: '' })))).toEqual({ code: 'parameter_missing', param: 'provider_account_id' });
    expect(refusal(() => assertMethodInput(request({ card: { token: 'pm_card_visa', id: '', installments: 13, brand: '', without_cvc: false } })))).toEqual({ code: 'parameter_invalid', param: 'card.installments' });
    expect(refusal(() => assertMethodInput(request({ method: 'ted' })))).toEqual({ code: 'method_not_available', param: 'method' });
  });

  it('lets a vault card (saved card_… or card fields tok_…) go to routing without an account, full keys only for a saved card', () => {
    const saved = { token: '', id: 'card_1', installments: 1, brand: '', without_cvc: true };
    expect(refusal(() => assertMethodInput(request({ card: saved, provider_account_id: '' })))).toBeUndefined();
    expect(refusal(() => assertMethodInput(request({ card: { ...saved, id: '', token: 'tok_1' }, provider_account_id: '' })))).toBeUndefined();
    expect(refusal(() => assertMethodInput(request({ card: saved, caller: { merchant_id: 'm', mode: common.Mode.MODE_TEST, key_id: 'k', restricted: true, request_id: '' } })))).toEqual({ code: 'restricted_key', param: 'card.id' });
    expect(refusal(() => assertMethodInput(request({ card: { ...saved, token: 'tok_1' } })))).toEqual({ code: 'parameter_invalid', param: 'card' });
    expect(vaultCardRoute(saved)).toEqual({ vault_card: true, vault_card_without_cvc: true });
    expect(vaultCardRoute({ token: 'tok_1', without_cvc: false })).toEqual({ vault_card: true, vault_card_without_cvc: false });
    expect(vaultCardRoute({ token: 'pm_card_visa' })).toEqual({ vault_card: false, vault_card_without_cvc: false });
    expect(needsHostedCheckout('card', saved)).toBe(false);
  });
});
