import { Counter, type Registry } from 'prom-client';

/** What a payment metric needs to know of the payment. */
export interface PaymentMetricLabels {
  status: string;
  method: string | null | undefined;
  provider: string | null | undefined;
  mode: string;
}

/**
 * Payments by status, method and provider: one count per payment entering a status (created in
 * it, or moved into it). `rate(orquestra_payment_status_changes_total{status="succeeded"}[5m])` is
 * the paid rate; the ratio of succeeded to failed by provider is the approval rate.
 */
export class PaymentMetrics {
  private readonly entered: Counter<'status' | 'method' | 'provider' | 'mode'>;

  constructor(registry: Registry) {
    this.entered = new Counter({
      name: 'orquestra_payment_status_changes_total',
      help: 'Payments entering a status (at creation or by a transition), by status, method, provider and mode.',
      labelNames: ['status', 'method', 'provider', 'mode'],
      registers: [registry],
    });
  }

  entering(payment: PaymentMetricLabels): void {
    this.entered.inc({
      status: payment.status,
      // A payment waiting for the buyer's choice has neither yet.
      method: payment.method || 'none',
      provider: payment.provider || 'none',
      mode: payment.mode,
    });
  }
}
