import type { RequestOptions, WithLastResponse } from '../http/transport';
import type { Dispute } from '../types/dispute.types';
import type { CreatePaymentParams, ListPaymentsParams, Payment, PaymentDetail, RefundPaymentParams, RefundResult } from '../types/payment.types';
import { Resource, segment, type ListPromise } from './resource';

/** /v1/payments. */
export class PaymentsResource extends Resource {
  /**
   * Creates a payment. An Idempotency-Key is always sent (yours, or a fresh UUID reused on every
   * retry), so a retried create never makes a second payment.
   */
  create(params: CreatePaymentParams, options: RequestOptions = {}): Promise<WithLastResponse<Payment>> {
    return this.call({ method: 'POST', path: '/v1/payments', body: params, idempotencyKey: true }, options);
  }

  /** One payment with its attempts, refunds and events. Poll every 5 to 10 s while it is open. */
  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<PaymentDetail>> {
    return this.call({ method: 'GET', path: `/v1/payments/${segment(id)}` }, options);
  }

  /** One page, newest first. */
  list(params: ListPaymentsParams = {}, options?: RequestOptions): ListPromise<Payment> {
    return this.pageList<Payment>('/v1/payments', params, options);
  }

  /** Every payment matching the filters, fetching pages as you iterate. */
  listAll(params: ListPaymentsParams = {}, options?: RequestOptions): AsyncGenerator<Payment> {
    return this.paginate<Payment>('/v1/payments', params, options);
  }

  /** Cancels a pending payment (the Pix stops working). Not retried automatically. */
  cancel(id: string, options?: RequestOptions): Promise<WithLastResponse<Payment>> {
    return this.call({ method: 'POST', path: `/v1/payments/${segment(id)}/cancel` }, options);
  }

  /** Refunds all that is left (amount omitted) or part of it. Idempotency-Key always sent. */
  refund(id: string, params: RefundPaymentParams = {}, options: RequestOptions = {}): Promise<WithLastResponse<RefundResult>> {
    return this.call({ method: 'POST', path: `/v1/payments/${segment(id)}/refund`, body: params, idempotencyKey: true }, options);
  }

  /** Re-reads the payment at the provider now. */
  sync(id: string, options?: RequestOptions): Promise<WithLastResponse<Payment>> {
    return this.call({ method: 'POST', path: `/v1/payments/${segment(id)}/sync` }, options);
  }

  /** Test mode: pays the payment in the provider's sandbox. */
  simulate(id: string, options?: RequestOptions): Promise<WithLastResponse<Payment>> {
    return this.call({ method: 'POST', path: `/v1/payments/${segment(id)}/simulate` }, options);
  }

  /** Test mode: opens a dispute on a paid payment. */
  simulateDispute(id: string, params: { amount?: number; reason?: string } = {}, options?: RequestOptions): Promise<WithLastResponse<Dispute>> {
    return this.call({ method: 'POST', path: `/v1/payments/${segment(id)}/simulate-dispute`, body: params }, options);
  }
}
