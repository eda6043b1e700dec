import { Registry } from 'prom-client';
import { PaymentMetrics } from './payment-metrics';

describe('payment metrics', () => {
  it('counts payments entering each status by method, provider and mode', async () => {
    const registry = new Registry();
    const metrics = new PaymentMetrics(registry);
    metrics.entering({ status: 'pending', method: 'pix', provider: 'efi', mode: 'test' });
    metrics.entering({ status: 'succeeded', method: 'pix', provider: 'efi', mode: 'test' });
    metrics.entering({ status: 'pending', method: 'pix', provider: 'efi', mode: 'test' });
    metrics.entering({ status: 'requires_method', method: '', provider: '', mode: 'live' });
    const text = await registry.metrics();
    expect(text).toContain('orquestra_payment_status_changes_total{status="pending",method="pix",provider="efi",mode="test"} 2');
    expect(text).toContain('orquestra_payment_status_changes_total{status="succeeded",method="pix",provider="efi",mode="test"} 1');
    expect(text).toContain('orquestra_payment_status_changes_total{status="requires_method",method="none",provider="none",mode="live"} 1');
  });
});
