import { context, propagation } from '@opentelemetry/api';
import amqp, { type Channel, type ChannelModel, type ConfirmChannel, type ConsumeMessage } from 'amqplib';
import type { Logger } from 'pino';
import { newEvent, type EventEnvelope } from './event-envelope';

export interface ConsumerOptions {
  /** Durable queue name, conventionally `<service>.<purpose>` (the broker's is `<exchange>.<queue>`). */
  queue: string;
  /** Routing-key patterns bound to the queue (`payment.*`, `#`). */
  patterns: string[];
  /** Deliveries before a message is parked in `<queue>.dlq`. */
  maxAttempts?: number;
  /** Wait between redeliveries (held in `<queue>.retry` by a per-queue TTL). */
  retryDelayMs?: number;
  prefetch?: number;
}

export type EventHandler = (event: EventEnvelope, delivery: { attempt: number }) => Promise<void>;

interface Registered {
  options: Required<ConsumerOptions>;
  handler: EventHandler;
}

/** A broadcast subscription (`EventBus.subscribe`): whether it is receiving now. */
export interface Subscription {
  /**
   * True from the moment its queue is bound until the connection is lost. While false, events
   * may be missed: a cache fed by the subscription must not be trusted (see InvalidatingCache).
   */
  readonly live: boolean;
}

interface Subscribed {
  patterns: string[];
  handler: (event: EventEnvelope) => void;
  onAttached: () => void;
  state: { live: boolean };
}

/**
 * The event bus on RabbitMQ: one durable topic exchange, routing key = event type.
 *
 * - publish() resolves only after the broker confirms the message (publisher confirms), so a
 *   caller (the outbox relay) marks an event sent only when the broker has it.
 * - consume() gives each consumer a durable queue with manual acks. A handler that throws gets the
 *   message again after `retryDelayMs`, up to `maxAttempts` deliveries; then the message is parked
 *   in `<queue>.dlq` for a human. Handlers must be idempotent by event id (delivery is at least once).
 * - The connection is re-established with backoff when the broker goes away; consumers are
 *   re-attached. Publishing while disconnected throws, and the outbox retries later.
 *
 * @example
 * const bus = new EventBus({ url, exchange: 'orquestra.events', logger });
 * await bus.start();
 * await bus.consume({ queue: 'notifications.event-log', patterns: ['#'] }, async (event) => store(event));
 * await bus.publish(envelope);
 */
export class EventBus {
  private connection: ChannelModel | undefined;
  private publishChannel: ConfirmChannel | undefined;
  private readonly consumers: Registered[] = [];
  private readonly subscriptions: Subscribed[] = [];
  private closing = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelayMs = 250;

  /** Counts every confirmed publish and every delivery received (redeliveries too); set by runService. */
  onMessage: ((direction: 'published' | 'consumed') => void) | undefined;

  constructor(
    private readonly options: { url: string; exchange: string; logger: Logger },
  ) {}

  get connected(): boolean {
    return this.publishChannel !== undefined;
  }

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const connection = await amqp.connect(this.options.url, { heartbeat: 15 });
    connection.on('error', (error: Error) => this.options.logger.warn({ err: error.message }, 'amqp connection error'));
    connection.on('close', () => this.onConnectionLost());
    const publishChannel = await connection.createConfirmChannel();
    publishChannel.on('error', (error: Error) => this.options.logger.warn({ err: error.message }, 'amqp channel error'));
    await publishChannel.assertExchange(this.options.exchange, 'topic', { durable: true });
    this.connection = connection;
    this.publishChannel = publishChannel;
    for (const consumer of this.consumers) await this.attach(consumer);
    for (const subscription of this.subscriptions) await this.attachSubscription(subscription);
    this.reconnectDelayMs = 250;
    this.options.logger.info('event bus connected');
  }

  private onConnectionLost(): void {
    this.connection = undefined;
    this.publishChannel = undefined;
    for (const subscription of this.subscriptions) subscription.state.live = false;
    if (this.closing || this.reconnectTimer) return;
    this.options.logger.warn({ retry_in_ms: this.reconnectDelayMs }, 'event bus disconnected; reconnecting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.connect().catch((error: Error) => {
        this.options.logger.warn({ err: error.message }, 'event bus reconnect failed');
        this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, 5_000);
        this.onConnectionLost();
      });
    }, this.reconnectDelayMs);
  }

  async publish(envelope: EventEnvelope, extraHeaders: Record<string, string> = {}): Promise<void> {
    const { trace, ...event } = envelope;
    // An outboxed event continues the trace of the write that produced it.
    const parent = trace ? propagation.extract(context.active(), trace) : context.active();
    return context.with(parent, () => this.publishNow(event, extraHeaders));
  }

  /**
   * Publishes a cache signal (libs/contracts "cache-signals") for `subscribe`rs: no outbox, and a
   * failure is logged, not thrown — the write it follows is done, and the receivers' caches expire.
   */
  async signal(type: string, scope: { merchant_id: string; mode: 'test' | 'live' }, object: Record<string, unknown>): Promise<void> {
    const envelope = newEvent(type, { merchant_id: scope.merchant_id, mode: scope.mode }, object);
    await this.publish(envelope).catch((error: Error) => this.options.logger.warn({ type, err: error.message }, 'cache signal not published; caches expire instead'));
  }

  private async publishNow(event: EventEnvelope, extraHeaders: Record<string, string>): Promise<void> {
    const channel = this.publishChannel;
    if (!channel) throw new Error('event bus is not connected');
    const headers: Record<string, string> = { ...extraHeaders };
    propagation.inject(context.active(), headers);
    const body = Buffer.from(JSON.stringify(event));
    await new Promise<void>((resolve, reject) => {
      channel.publish(
        this.options.exchange,
        event.type,
        body,
        {
          persistent: true,
          contentType: 'application/json',
          messageId: event.id,
          type: event.type,
          timestamp: event.created,
          headers,
        },
        (error: unknown) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()),
      );
    });
    this.onMessage?.('published');
  }

  async consume(options: ConsumerOptions, handler: EventHandler): Promise<void> {
    const registered: Registered = {
      options: { maxAttempts: 8, retryDelayMs: 1_000, prefetch: 32, ...options },
      handler,
    };
    this.consumers.push(registered);
    if (this.connection) await this.attach(registered);
  }

  /**
   * Every process gets every matching event: a broadcast, for signals each replica must act on
   * itself, such as "drop what you cached of this". The queue is the process's own (server-named,
   * exclusive, deleted with the connection), so nothing waits for a process that is gone, and
   * there is no retry or dead-lettering: a handler must not fail, and what it misses while the
   * subscription is not `live` is made good by `onAttached`, called each time the queue is bound
   * again after a reconnect (and the first time), before `live` turns true.
   */
  async subscribe(patterns: string[], handler: (event: EventEnvelope) => void, onAttached: () => void = () => undefined): Promise<Subscription> {
    const subscribed: Subscribed = { patterns, handler, onAttached, state: { live: false } };
    this.subscriptions.push(subscribed);
    if (this.connection) await this.attachSubscription(subscribed);
    const { state } = subscribed;
    return {
      get live() {
        return state.live;
      },
    };
  }

  private async attachSubscription(subscribed: Subscribed): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    const channel = await connection.createChannel();
    channel.on('error', (error: Error) => this.options.logger.warn({ err: error.message }, 'amqp subscription channel error'));
    channel.on('close', () => (subscribed.state.live = false));
    await channel.assertExchange(this.options.exchange, 'topic', { durable: true });
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
    for (const pattern of subscribed.patterns) await channel.bindQueue(queue, this.options.exchange, pattern);
    await channel.consume(
      queue,
      (message) => {
        if (!message) return;
        this.onMessage?.('consumed');
        try {
          subscribed.handler(JSON.parse(message.content.toString('utf8')) as EventEnvelope);
        } catch (error) {
          this.options.logger.warn({ err: (error as Error).message, type: message.properties.type }, 'broadcast handler failed');
        }
      },
      { noAck: true },
    );
    // Bound: from here on nothing is missed; what changed before is dropped by onAttached.
    subscribed.onAttached();
    subscribed.state.live = true;
  }

  /**
   * The broker-side name of a consumer's queue: `<exchange>.<queue>`. Stacks that share a broker
   * (development, end-to-end tests, benchmarks, several environments) each have their own exchange;
   * prefixing keeps one stack's consumers from ever taking another stack's events.
   */
  queueName(queue: string): string {
    return `${this.options.exchange}.${queue}`;
  }

  private async attach({ options: given, handler }: Registered): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    const channel = await connection.createChannel();
    channel.on('error', (error: Error) => this.options.logger.warn({ err: error.message }, 'amqp consumer channel error'));
    const options = { ...given, queue: this.queueName(given.queue) };
    const { queue } = options;
    await channel.assertExchange(this.options.exchange, 'topic', { durable: true });
    await channel.assertQueue(queue, {
      durable: true,
      arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': `${queue}.retry` },
    });
    await channel.assertQueue(`${queue}.retry`, {
      durable: true,
      arguments: {
        'x-message-ttl': options.retryDelayMs,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': queue,
      },
    });
    await channel.assertQueue(`${queue}.dlq`, { durable: true });
    for (const pattern of options.patterns) await channel.bindQueue(queue, this.options.exchange, pattern);
    await channel.prefetch(options.prefetch);
    await channel.consume(queue, (message) => {
      if (message) void this.deliver(channel, message, options, handler);
    });
  }

  private async deliver(
    channel: Channel,
    message: ConsumeMessage,
    options: Required<ConsumerOptions>,
    handler: EventHandler,
  ): Promise<void> {
    this.onMessage?.('consumed');
    const attempt = deliveryAttempt(message, options.queue);
    let event: EventEnvelope;
    try {
      event = JSON.parse(message.content.toString('utf8')) as EventEnvelope;
    } catch {
      this.park(channel, message, options.queue, 'unparseable message');
      return;
    }
    try {
      // The handler runs in the trace of the publisher (W3C headers of the message).
      const carrier = (message.properties.headers ?? {}) as Record<string, unknown>;
      await context.with(propagation.extract(context.active(), carrier), () => handler(event, { attempt }));
      channel.ack(message);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (attempt >= options.maxAttempts) {
        this.park(channel, message, options.queue, reason);
        return;
      }
      this.options.logger.warn({ event_id: event.id, type: event.type, attempt, err: reason }, 'event handler failed; will retry');
      // Dead-lettered into <queue>.retry, which hands it back after the TTL.
      channel.nack(message, false, false);
    }
  }

  private park(channel: Channel, message: ConsumeMessage, queue: string, reason: string): void {
    this.options.logger.error({ queue, message_id: message.properties.messageId, reason }, 'event parked in dead-letter queue');
    channel.sendToQueue(`${queue}.dlq`, message.content, {
      ...message.properties,
      headers: { ...message.properties.headers, 'x-parked-reason': reason.slice(0, 500) },
    });
    channel.ack(message);
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const connection = this.connection;
    this.connection = undefined;
    this.publishChannel = undefined;
    if (connection) await connection.close().catch(() => undefined);
  }
}

/** 1 for the first delivery; each pass through `<queue>.retry` adds one (RabbitMQ's x-death count). */
export function deliveryAttempt(message: Pick<ConsumeMessage, 'properties'>, queue: string): number {
  const deaths = message.properties.headers?.['x-death'] as Array<{ queue?: string; count?: number }> | undefined;
  const rejectedHere = deaths?.find((death) => death.queue === queue)?.count ?? 0;
  return rejectedHere + 1;
}
