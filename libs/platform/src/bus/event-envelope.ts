import { newId } from '../ids';

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

/** Whose an event is: the resource's merchant and mode, and the API key that created it. */
export interface EventOwner {
  merchant_id: string;
  mode: 'test' | 'live';
  /** Id of the key that created the resource; '', null or absent when none did (a system change). */
  source_key_id?: string | null;
}

/**
 * A new event about a resource of `owner`, ready for an outbox: a fresh `evt_` id, created now
 * (unix seconds), the owner's merchant and mode, `source` the creating key or null.
 *
 * @example
 *   await payouts.updateOne(filter, withOutbox({ $set: change }, [newEvent('payout.paid', doc, publicPayoutObject(doc))]));
 */
export function newEvent(type: string, owner: EventOwner, object: Record<string, unknown>): EventEnvelope {
  return {
    id: newId('event'),
    type,
    created: Math.floor(Date.now() / 1000),
    merchant_id: owner.merchant_id,
    mode: owner.mode,
    source: owner.source_key_id || null,
    data: { object },
  };
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
