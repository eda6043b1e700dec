import { context, propagation } from '@opentelemetry/api';
import amqp, { type ChannelModel, type ConfirmChannel, type ConsumeMessage, type Options } from 'amqplib';
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
  /**
   * Deliveries that may end without an answer (the consumer crashed or lost its connection before
   * acking: the quorum queue's `x-delivery-count`) before the bus parks the message in
   * `<queue>.dlq` without running the handler again: a poison message that kills the process
   * cannot crash-loop the consumer. Keep it below RabbitMQ 4's default `x-delivery-limit` (20).
   */
  maxReturns?: number;
  prefetch?: number;
}

/**
 * `attempt`: 1 for the first delivery, plus one per failure of the handler (each pass through
 * `<queue>.retry`). `returns`: how often this delivery came back without an answer (quorum
 * `x-delivery-count`: a crash or a lost connection of a consumer), 0 usually.
 */
export type EventHandler = (event: EventEnvelope, delivery: { attempt: number; returns: number }) => Promise<void>;

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
 * - consume() gives each consumer a durable quorum queue (replicated over the cluster's nodes) with
 *   manual acks. A handler that throws gets the message again after `retryDelayMs`, up to
 *   `maxAttempts` deliveries; then the message is parked in `<queue>.dlq` for a human. A message
 *   returned `maxReturns` times without an answer (the consumer died with it) is parked too.
 *   Dead-lettering between the queues is at-least-once. Handlers must be idempotent by event id
 *   (delivery is at least once). Classic queues of earlier versions are retired on attach
 *   (docs/rabbitmq.md).
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
    private readonly options: {
      url: string;
      exchange: string;
      logger: Logger;
      /**
       * Throwaway stacks only (tests, benchmarks): the broker deletes a consumer's queues once
       * unused this long (`x-expires`), so stacks that are never torn down leave nothing behind.
       * Never in production: a consumer stopped longer than this would lose its queue.
       */
      queueExpiresMs?: number;
    },
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
      options: { maxAttempts: 8, retryDelayMs: 1_000, maxReturns: 10, prefetch: 32, ...options },
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
   * The broker-side name of a consumer's queue: `<exchange>.<queue>.quorum`. Stacks that share a
   * broker (development, end-to-end tests, benchmarks, several environments) each have their own
   * exchange; prefixing keeps one stack's consumers from ever taking another stack's events. The
   * `.quorum` suffix is the queue type: RabbitMQ cannot turn the classic queue of the same name
   * (`legacyQueueName`) into a quorum queue, so the quorum queues got new names.
   */
  queueName(queue: string): string {
    return `${this.options.exchange}.${queue}.quorum`;
  }

  /** The classic queue earlier versions declared for a consumer (with its `.retry` and `.dlq`). */
  legacyQueueName(queue: string): string {
    return `${this.options.exchange}.${queue}`;
  }

  private async attach({ options: given, handler }: Registered): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    const channel = await connection.createConfirmChannel();
    channel.on('error', (error: Error) => this.options.logger.warn({ err: error.message }, 'amqp consumer channel error'));
    const options = { ...given, queue: this.queueName(given.queue) };
    const { queue } = options;
    await channel.assertExchange(this.options.exchange, 'topic', { durable: true });
    const quorum = quorumArguments(this.options.queueExpiresMs);
    await channel.assertQueue(queue, {
      durable: true,
      arguments: {
        ...quorum,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': `${queue}.retry`,
        // No x-delivery-limit: the broker would dead-letter into <queue>.retry, whose way back is a
        // dead-letter cycle without a rejection, which RabbitMQ drops. The bus parks instead.
      },
    });
    await channel.assertQueue(`${queue}.retry`, {
      durable: true,
      arguments: {
        ...quorum,
        'x-message-ttl': options.retryDelayMs,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': queue,
      },
    });
    await channel.assertQueue(`${queue}.dlq`, { durable: true, arguments: quorumArguments(this.options.queueExpiresMs, false) });
    for (const pattern of options.patterns) await channel.bindQueue(queue, this.options.exchange, pattern);
    await channel.prefetch(options.prefetch);
    await channel.consume(queue, (message) => {
      // An ack or nack on a channel the broker closed meanwhile (a broker restart mid-handler)
      // throws: the message was not settled, and the broker delivers it again on the next
      // connection. Never let that end the process as an unhandled rejection.
      if (message) {
        this.deliver(channel, message, options, handler).catch((error: Error) =>
          this.options.logger.warn({ queue, message_id: message.properties.messageId, err: error.message }, 'event not settled (channel closed); the broker delivers it again'),
        );
      }
    });
    await this.retireClassicQueues(connection, given);
  }

  /**
   * Retires the classic queues an earlier version declared for this consumer, now that its quorum
   * queues are bound and consumed (a blue/green drain, docs/rabbitmq.md): unbinds the classic queue
   * so new events go only to the quorum one, moves what waits in `.retry` and the queue itself into
   * the quorum queue and what `.dlq` holds into the quorum `.dlq` (each message acked only after the
   * broker confirmed its copy), then deletes each classic queue once empty — the queue itself only
   * when no consumer of an older replica still reads it. What cannot be finished now (an older
   * replica still running) is finished by the next attach. Moved messages may also have reached the
   * quorum queue by their binding: handlers are idempotent by event id.
   */
  private async retireClassicQueues(connection: ChannelModel, given: Required<ConsumerOptions>): Promise<void> {
    const legacy = this.legacyQueueName(given.queue);
    const target = this.queueName(given.queue);
    if (!(await queueExists(connection, legacy))) return;
    const channel = await connection.createConfirmChannel();
    channel.on('error', () => undefined); // a refused delete closes the channel; reported below
    const log = { queue: legacy, quorum_queue: target };
    try {
      for (const pattern of given.patterns) await channel.unbindQueue(legacy, this.options.exchange, pattern);
      const hasRetry = await queueExists(connection, `${legacy}.retry`);
      // The retry queue first: its messages expire into the classic queue.
      let moved = hasRetry ? await moveMessages(channel, `${legacy}.retry`, target) : 0;
      moved += await moveMessages(channel, legacy, target);
      await channel.deleteQueue(legacy, { ifUnused: true, ifEmpty: true });
      if (hasRetry) {
        moved += await moveMessages(channel, `${legacy}.retry`, target);
        await channel.deleteQueue(`${legacy}.retry`, { ifEmpty: true });
      }
      let parked = 0;
      if (await queueExists(connection, `${legacy}.dlq`)) {
        parked = await moveMessages(channel, `${legacy}.dlq`, `${target}.dlq`);
        await channel.deleteQueue(`${legacy}.dlq`, { ifEmpty: true });
      }
      this.options.logger.info({ ...log, moved, parked }, 'classic queues retired into quorum queues');
    } catch (error) {
      this.options.logger.warn({ ...log, err: (error as Error).message }, 'classic queue not retired yet (an older replica still consumes it?); the next start continues');
    } finally {
      await channel.close().catch(() => undefined);
    }
  }

  private async deliver(
    channel: ConfirmChannel,
    message: ConsumeMessage,
    options: Required<ConsumerOptions>,
    handler: EventHandler,
  ): Promise<void> {
    this.onMessage?.('consumed');
    const attempt = deliveryAttempt(message, options.queue);
    const returns = deliveryReturns(message);
    if (returns >= options.maxReturns) {
      // Came back maxReturns times without an answer: running it again would most likely kill
      // this consumer too.
      await this.park(channel, message, options.queue, `returned ${options.maxReturns} times without an answer (the consumer crashed or lost its connection)`);
      return;
    }
    let event: EventEnvelope;
    try {
      event = JSON.parse(message.content.toString('utf8')) as EventEnvelope;
    } catch {
      await this.park(channel, message, options.queue, 'unparseable message');
      return;
    }
    try {
      // The handler runs in the trace of the publisher (W3C headers of the message).
      const carrier = (message.properties.headers ?? {}) as Record<string, unknown>;
      await context.with(propagation.extract(context.active(), carrier), () => handler(event, { attempt, returns }));
      channel.ack(message);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (attempt >= options.maxAttempts) {
        await this.park(channel, message, options.queue, reason);
        return;
      }
      this.options.logger.warn({ event_id: event.id, type: event.type, attempt, err: reason }, 'event handler failed; will retry');
      // Dead-lettered into <queue>.retry, which hands it back after the TTL.
      channel.nack(message, false, false);
    }
  }

  /** Copies the message into `<queue>.dlq` and acks it once the broker confirmed the copy. */
  private async park(channel: ConfirmChannel, message: ConsumeMessage, queue: string, reason: string): Promise<void> {
    this.options.logger.error({ queue, message_id: message.properties.messageId, reason }, 'event parked in dead-letter queue');
    try {
      await new Promise<void>((resolve, reject) => {
        channel.sendToQueue(
          `${queue}.dlq`,
          message.content,
          { ...publishOptionsOf(message), headers: { ...message.properties.headers, 'x-parked-reason': reason.slice(0, 500) } },
          (error: unknown) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()),
        );
      });
      channel.ack(message);
    } catch (error) {
      // Not parked: left unacked, the broker delivers it again once this channel is gone.
      this.options.logger.warn({ queue, message_id: message.properties.messageId, err: (error as Error).message }, 'event not parked');
    }
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

/**
 * Arguments of a consumer's durable queues: quorum type, dead-lettering at least once (the broker
 * keeps a dead-lettered message until the target queue confirmed it; this needs `reject-publish`
 * overflow), and the throwaway stacks' expiry. `deadLetters: false` for the `.dlq`, which has none.
 */
export function quorumArguments(expiresMs: number | undefined, deadLetters = true): Record<string, unknown> {
  return {
    'x-queue-type': 'quorum',
    ...(deadLetters ? { 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' } : {}),
    ...(expiresMs ? { 'x-expires': expiresMs } : {}),
  };
}

/** 1 for the first delivery; each pass through `<queue>.retry` adds one (RabbitMQ's x-death count). */
export function deliveryAttempt(message: Pick<ConsumeMessage, 'properties'>, queue: string): number {
  const deaths = message.properties.headers?.['x-death'] as Array<{ queue?: string; count?: number }> | undefined;
  const rejectedHere = deaths?.find((death) => death.queue === queue)?.count ?? 0;
  return rejectedHere + 1;
}

/** How often this delivery came back to the queue unanswered (quorum queues' `x-delivery-count`). */
export function deliveryReturns(message: Pick<ConsumeMessage, 'properties'>): number {
  const count = Number(message.properties.headers?.['x-delivery-count'] ?? 0);
  return Number.isFinite(count) ? count : 0;
}

/** The publish options that copy a received message (same id, type, headers, persistence). */
function publishOptionsOf(message: Pick<ConsumeMessage, 'properties'>): Options.Publish {
  const { contentType, contentEncoding, headers, deliveryMode, correlationId, messageId, timestamp, type, appId } = message.properties;
  const options: Options.Publish = { persistent: deliveryMode === 2 || deliveryMode === undefined, headers };
  if (contentType) options.contentType = contentType as string;
  if (contentEncoding) options.contentEncoding = contentEncoding as string;
  if (correlationId) options.correlationId = correlationId as string;
  if (messageId) options.messageId = messageId as string;
  if (timestamp) options.timestamp = timestamp as number;
  if (type) options.type = type as string;
  if (appId) options.appId = appId as string;
  return options;
}

/** Whether the queue exists (a passive declare, on a channel of its own: a 404 closes it). */
async function queueExists(connection: ChannelModel, queue: string): Promise<boolean> {
  const channel = await connection.createChannel();
  channel.on('error', () => undefined);
  try {
    await channel.checkQueue(queue);
    await channel.close().catch(() => undefined);
    return true;
  } catch {
    return false;
  }
}

/** Moves every message of `from` into `to`, acking each only after the broker confirmed its copy. */
async function moveMessages(channel: ConfirmChannel, from: string, to: string): Promise<number> {
  let moved = 0;
  for (;;) {
    const message = await channel.get(from, { noAck: false });
    if (!message) return moved;
    channel.sendToQueue(to, message.content, publishOptionsOf(message));
    await channel.waitForConfirms();
    channel.ack(message);
    moved += 1;
  }
}
