import { providers as providersContract, type routing } from '@orquestra/contracts';
import type { PaymentDoc } from '../db/payment.model';
import { chargedPayment } from './charged-payment';

const { ChargeStatus } = providersContract;
const expires = '2030-01-10T12:00:00.000Z';
const candidate: routing.Candidate = { account_id: 'pa_a', provider: 'efi', priority: 10, reason: 'priority', fees: [{ method: 'pix', percent_bps: 100, fixed: 0 }] } as routing.Candidate;
const draft = (method: string) => ({ _id: 'pay_1', method, amount: 10_000, status: 'pending', fee: 0, net: 10_000 }) as unknown as PaymentDoc;
const charge = (status: providersContract.ChargeStatus, overrides: Partial<providersContract.Charge> = {}): providersContract.Charge => ({
  provider: 'efi', account_id: 'pa_a', provider_payment_id: 'tx1', status,
  next_action: { type: 'pix_qr', qr_code: '000201' },
  expires_at: expires, amount: 10_000, amount_paid: 0, refunds: [],
  ...overrides,
});
const options = { qrCodeUrl: (id: string) => `https://api.example.com/qr/${id}.png`, boletoCancelAfterDays: 3 };

describe('chargedPayment', () => {
  it('a pending Pix: our QR image URL, the account fee, expiry as due work', () => {
    const payment = chargedPayment(draft('pix'), candidate, charge(ChargeStatus.CHARGE_STATUS_PENDING), options);
    expect(payment).toMatchObject({ status: 'pending', provider: 'efi', provider_account_id: 'pa_a', provider_payment_id: 'tx1', fee: 100, net: 9_900, paid_at: null, failure_code: '' });
    expect(payment.next_action).toMatchObject({ type: 'pix_qr', qr_code: '000201', qr_code_url: 'https://api.example.com/qr/pay_1.png' });
    expect(payment.due_at).toEqual(new Date(expires));
  });

  it('a boleto is canceled only days after its due date (late compensation)', () => {
    const payment = chargedPayment(draft('boleto'), candidate, charge(ChargeStatus.CHARGE_STATUS_PENDING, { provider_fee: 250 }), options);
    expect(payment).toMatchObject({ fee: 250, net: 9_750 });
    expect(payment.due_at).toEqual(new Date(new Date(expires).getTime() + 3 * 86_400_000));
  });

  it('a card paid in the create call is succeeded at once, with nothing left to do', () => {
    const payment = chargedPayment(draft('card'), candidate, charge(ChargeStatus.CHARGE_STATUS_PAID, { paid_at: '2030-01-01T00:00:00.000Z' }), options);
    expect(payment).toMatchObject({ status: 'succeeded', paid_at: new Date('2030-01-01T00:00:00.000Z'), next_action: null, due_at: null });
  });

  it('a decline is failed with its code, card_declined when the provider names none', () => {
    expect(chargedPayment(draft('card'), candidate, charge(ChargeStatus.CHARGE_STATUS_FAILED, { failure_reason: 'Recusado' }), options)).toMatchObject({
      status: 'failed', failure_code: 'card_declined', failure_reason: 'Recusado', next_action: null, due_at: null, paid_at: null,
    });
    expect(chargedPayment(draft('card'), candidate, charge(ChargeStatus.CHARGE_STATUS_FAILED, { failure_code: 'insufficient_funds' }), options).failure_code).toBe('insufficient_funds');
  });
});
