import { providerRefundReportSchema, type ProviderRefundReport } from './events/provider-charge-updated';
import { ProviderRefund } from './generated/orquestra/providers/v1/providers';
import { refundReportFromProto, refundReportToProto } from './provider-refund';

const overWire = (refund: ProviderRefund) => ProviderRefund.decode(ProviderRefund.encode(refund).finish());
const EVERY: ProviderRefundReport = {
  provider_refund_id: 'D1',
  refund_key: 're01jxyz',
  amount: 500,
  status: 'failed',
  failure_code: 'insufficient_balance',
  failure_reason: 'Saldo insuficiente',
  reason: 'pedido cancelado',
  created_at: '2030-01-01T00:00:00.000Z',
};

describe('provider refund report ⇄ proto ProviderRefund', () => {
  it('round-trips every field, through the wire too', () => {
    expect(refundReportFromProto(overWire(refundReportToProto(EVERY)))).toStrictEqual(EVERY);
  });

  it('keeps what the provider did not report absent (a dashboard refund has no key)', () => {
    const dashboard: ProviderRefundReport = { provider_refund_id: 'painel9', amount: 250, status: 'succeeded' };
    const wire = overWire(refundReportToProto(dashboard));
    for (const field of ['refund_key', 'failure_code', 'failure_reason', 'reason', 'created_at'] as const) expect(wire[field]).toBeUndefined();
    expect(refundReportFromProto(wire)).toStrictEqual(dashboard);
  });
});

describe('providerRefundReportSchema', () => {
  it('reads the empty key of events published before keys had presence as absent', () => {
    const parsed = providerRefundReportSchema.parse({ provider_refund_id: 'painel9', refund_key: '', amount: 250, status: 'succeeded' });
    expect(parsed.refund_key).toBeUndefined();
    expect(providerRefundReportSchema.parse({ ...EVERY }).refund_key).toBe('re01jxyz');
  });
});
