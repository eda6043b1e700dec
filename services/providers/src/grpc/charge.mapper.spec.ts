import { providers } from '@orquestra/contracts';
import type { ProviderCharge } from '../adapters/provider-adapter';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import { toProtoCharge } from './charge.mapper';

const account = { _id: 'pa_1', provider: 'efi' } as ProviderAccountDoc;
const overWire = (charge: ProviderCharge) => providers.Charge.decode(providers.Charge.encode(toProtoCharge(account, charge)).finish());

describe('toProtoCharge', () => {
  it('leaves out what the provider did not report (no expiry, payment, failure or fee)', () => {
    const charge = overWire({ providerPaymentId: 'tx1', status: 'pending', amount: 1_990, amountPaid: 0, nextAction: { type: 'none' } });
    for (const field of ['expires_at', 'end_to_end_id', 'failure_code', 'failure_reason', 'provider_fee', 'paid_at'] as const) expect(charge[field]).toBeUndefined();
    expect(charge.status).toBe(providers.ChargeStatus.CHARGE_STATUS_PENDING);
  });

  it('tells a fee of zero from no fee reported', () => {
    const paidAt = new Date('2030-01-01T00:00:00.000Z');
    const charge = overWire({ providerPaymentId: 'tx1', status: 'paid', amount: 1_990, amountPaid: 1_990, providerFee: 0, endToEndId: 'E2E1', paidAt, nextAction: { type: 'none' } });
    expect(charge).toMatchObject({ provider_fee: 0, end_to_end_id: 'E2E1', paid_at: paidAt.toISOString(), status: providers.ChargeStatus.CHARGE_STATUS_PAID });
  });

  it('sends only the next action details the provider gave, and no QR image URL (payments sets ours)', () => {
    const charge = overWire({ providerPaymentId: 'tx1', status: 'pending', amount: 1_990, amountPaid: 0, nextAction: { type: 'boleto', digitableLine: '34191', url: 'https://b.example/1' } });
    expect(charge.next_action).toEqual({ type: 'boleto', digitable_line: '34191', url: 'https://b.example/1' });
  });

  it('leaves out what a refund report lacks (a dashboard refund has no key)', () => {
    const charge = overWire({ providerPaymentId: 'tx1', status: 'paid', amount: 1_990, amountPaid: 1_990, nextAction: { type: 'none' }, refunds: [{ providerRefundId: 'painel9', amount: 500, status: 'succeeded' }] });
    expect(charge.refunds).toEqual([{ provider_refund_id: 'painel9', amount: 500, status: providers.RefundStatus.REFUND_STATUS_SUCCEEDED }]);
  });
});
