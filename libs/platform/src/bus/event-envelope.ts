/**
 * The envelope of every event on the bus (ARCHITECTURE.md "Events"). The routing key is `type`.
 * `data.object` is the public resource as the REST API shows it.
 */
export interface EventEnvelope<T = Record<string, unknown>> {
  id: string;
  type: string;
  /** Unix seconds. */
  created: number;
  merchant_id: string;
  mode: 'test' | 'live';
  /** Id of the API key that created the resource, when one did. */
  source: string | null;
  data: { object: T };
  /**
   * W3C trace context (traceparent, tracestate) of the write that produced the event, kept while
   * the event waits in an outbox so its publication continues the same trace. Travels as AMQP
   * headers, never in the message body.
   */
  trace?: Record<string, string>;
}

/** The public event object (spec §6) built from an envelope. */
export function toPublicEvent(envelope: EventEnvelope): {
  id: string;
  object: 'event';
  type: string;
  created: number;
  data: { object: unknown };
} {
  return { id: envelope.id, object: 'event', type: envelope.type, created: envelope.created, data: envelope.data };
}
