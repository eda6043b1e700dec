import { common } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import { CreatePaymentSchema } from '../schemas/create-payment.schema';
import { assertCreatePaymentAllowed } from './create-payment.guard';

const full: common.Caller = { merchant_id: 'acct_1', mode: common.Mode.MODE_TEST, key_id: 'key_1', restricted: false, request_id: 'r' };
const restricted: common.Caller = { ...full, restricted: true };
const body = (extra: object) => CreatePaymentSchema.parse({ amount: 1000, customer: { name: 'Ana' }, ...extra });

function codeOf(run: () => void): { code: string; param: string | undefined } | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, param: error.param };
    throw error;
  }
}

describe('create-payment guard', () => {
  it('lets plain Pix payments through for both key kinds', () => {
    expect(codeOf(() => assertCreatePaymentAllowed(body({ method: 'pix' }), full))).toBeUndefined();
    expect(codeOf(() => assertCreatePaymentAllowed(body({ method: 'pix' }), restricted))).toBeUndefined();
  });

  it('refuses splits to restricted keys (403, §5.4) and lets a full key’s through to payments', () => {
    const splits = { splits: [{ subaccount_id: 'sub_1', amount: 100 }] };
    expect(codeOf(() => assertCreatePaymentAllowed(body(splits), restricted))).toEqual({ code: 'restricted_key', param: 'splits' });
    expect(codeOf(() => assertCreatePaymentAllowed(body(splits), full))).toBeUndefined();
  });

  it('lets a card payment through with a token, or without card data (hosted checkout)', () => {
    expect(codeOf(() => assertCreatePaymentAllowed(body({ method: 'card' }), full))).toBeUndefined();
    expect(codeOf(() => assertCreatePaymentAllowed(body({ method: 'card', card: { token: 'pm_card_visa', installments: 3 } }), full))).toBeUndefined();
  });

  it('refuses card data on a non-card payment and a saved card for restricted keys', () => {
    expect(codeOf(() => assertCreatePaymentAllowed(body({ method: 'pix', card: { token: 't' } }), full))).toEqual({
      code: 'parameter_invalid',
      param: 'card',
    });
    expect(codeOf(() => assertCreatePaymentAllowed(body({ method: 'card', card: { id: 'card_1' } }), restricted))).toEqual({
      code: 'restricted_key',
      param: 'card.id',
    });
    expect(codeOf(() => assertCreatePaymentAllowed(body({ method: 'card', card: { token: 'tok_1' } }), restricted))).toBeUndefined();
  });
});
