import { propagation, ROOT_CONTEXT, trace, type Link } from '@opentelemetry/api';
import type { PaymentDoc } from '../db/payment.model';

const tracer = trace.getTracer('orquestra-payments');

/**
 * Runs `work` in the trace of the payment's creation (PaymentDoc.trace), in a span named `name`
 * that links to the span active now (the provider's webhook, say). Events written by `work` carry
 * that trace through the outbox, RabbitMQ and on to their webhook deliveries, so one payment's life
 * reads as one trace. Without a stored trace, `work` runs where it is.
 */
export function inPaymentTrace<T>(payment: Pick<PaymentDoc, '_id' | 'trace'>, name: string, work: () => Promise<T>): Promise<T> {
  if (!payment.trace || Object.keys(payment.trace).length === 0) return work();
  const current = trace.getActiveSpan()?.spanContext();
  const links: Link[] = current ? [{ context: current }] : [];
  return tracer.startActiveSpan(name, { links, attributes: { 'orquestra.payment_id': payment._id } }, propagation.extract(ROOT_CONTEXT, payment.trace), async (span) => {
    try {
      return await work();
    } finally {
      span.end();
    }
  });
}
