import type { Query } from '../http/transport';
import type { Dispute } from '../types/dispute.types';
import type { List } from '../types/common.types';
import type { CreatePaymentParams, ListPaymentsParams, Payment, PaymentDetail, RefundPaymentParams, RefundResult } from '../types/payment.types';
import { Resource, segment, type IdempotentCallOptions } from './resource';

/** /v1/payments. */
export class PaymentsResource extends Resource {
  /**
   * Creates a payment. An Idempotency-Key is always sent (yours, or a fresh UUID reused on every
   * retry), so a retried create never makes a second payment.
   */
  create(params: CreatePaymentParams, options: IdempotentCallOptions = {}): Promise<Payment> {
    return this.call({ method: 'POST', path: '/v1/payments', body: params, idempotencyKey: options.idempotencyKey ?? true });
  }

  /** One payment with its attempts, refunds and events. Poll every 5 to 10 s while it is open. */
  retrieve(id: string): Promise<PaymentDetail> {
    return this.call({ method: 'GET', path: `/v1/payments/${segment(id)}` });
  }

  /** One page, newest first. */
  list(params: ListPaymentsParams = {}): Promise<List<Payment>> {
    return this.call({ method: 'GET', path: '/v1/payments', query: params as Query });
  }

  /** Every payment matching the filters, fetching pages as you iterate. */
  listAll(params: ListPaymentsParams = {}): AsyncGenerator<Payment> {
    return this.paginate<Payment, ListPaymentsParams>('/v1/payments', params);
  }

  /** Cancels a pending payment (the Pix stops working). Not retried automatically. */
  cancel(id: string): Promise<Payment> {
    return this.call({ method: 'POST', path: `/v1/payments/${segment(id)}/cancel` });
  }

  /** Refunds all that is left (amount omitted) or part of it. Idempotency-Key always sent. */
  refund(id: string, params: RefundPaymentParams = {}, options: IdempotentCallOptions = {}): Promise<RefundResult> {
    return this.call({ method: 'POST', path: `/v1/payments/${segment(id)}/refund`, body: params, idempotencyKey: options.idempotencyKey ?? true });
  }

  /** Re-reads the payment at the provider now. */
  sync(id: string): Promise<Payment> {
    return this.call({ method: 'POST', path: `/v1/payments/${segment(id)}/sync` });
  }

  /** Test mode: pays the payment in the provider's sandbox. */
  simulate(id: string): Promise<Payment> {
    return this.call({ method: 'POST', path: `/v1/payments/${segment(id)}/simulate` });
  }

  /** Test mode: opens a dispute on a paid payment. */
  simulateDispute(id: string, params: { amount?: number; reason?: string } = {}): Promise<Dispute> {
    return this.call({ method: 'POST', path: `/v1/payments/${segment(id)}/simulate-dispute`, body: params });
  }
}
