import amqp, { type ChannelModel } from 'amqplib';
import pino from 'pino';
import { ensureTestInfra, eventuallyExpect, testEnvelope, uniqueDbPrefix } from '../testing';
import { EventBus, type ConsumerOptions, type EventHandler } from './event-bus';
import type { EventEnvelope } from './event-envelope';

// The consumers' quorum queues against the real RabbitMQ (docs/rabbitmq.md): the queue type as the
// broker holds it, a delivery surviving its consumer's death, the delivery limit that parks a
// poison message, and the retirement of the classic queues of earlier versions.

jest.setTimeout(60_000);
const logger = pino({ level: 'silent' });
/** The broker drops these test queues ten minutes after the last use (x-expires). */
const EXPIRES_MS = 10 * 60_000;

const envelope = testEnvelope;

describe('EventBus quorum queues against a real RabbitMQ', () => {
  let amqpUrl: string;
  let exchange: string;
  let raw: ChannelModel;
  const buses: EventBus[] = [];

  beforeAll(async () => {
    amqpUrl = (await ensureTestInfra()).amqpUrl;
    exchange = `${uniqueDbPrefix('quorum')}events`;
    raw = await amqp.connect(amqpUrl);
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    await raw.close();
  });

  async function startBus(): Promise<EventBus> {
    const bus = new EventBus({ url: amqpUrl, exchange, logger, queueExpiresMs: EXPIRES_MS });
    buses.push(bus);
    await bus.start();
    return bus;
  }

  /** Runs `use` on a channel of its own (a refused declare closes the channel it was sent on). */
  async function onChannel<T>(use: (channel: amqp.ConfirmChannel) => Promise<T>): Promise<T> {
    const channel = await raw.createConfirmChannel();
    channel.on('error', () => undefined);
    try {
      return await use(channel);
    } finally {
      await channel.close().catch(() => undefined);
    }
  }

  const exists = (queue: string) => onChannel((channel) => channel.checkQueue(queue).then(() => true, () => false));

  async function publishTo(queue: string, event: EventEnvelope, options: amqp.Options.Publish = {}): Promise<void> {
    await onChannel(async (channel) => {
      channel.sendToQueue(queue, Buffer.from(JSON.stringify(event)), { persistent: true, messageId: event.id, type: event.type, ...options });
      await channel.waitForConfirms();
    });
  }

  /** A consumer whose handler records each delivery and never answers: a process that hangs, then dies. */
  async function dyingConsumer(options: ConsumerOptions, seen: Array<{ id: string; attempt: number; returns: number }>): Promise<EventBus> {
    const bus = await startBus();
    const handler: EventHandler = (event, delivery) => {
      seen.push({ id: event.id, ...delivery });
      return new Promise<void>(() => undefined);
    };
    await bus.consume(options, handler);
    return bus;
  }

  it('declares a consumer queue, its retry queue and its dead-letter queue as quorum queues', async () => {
    const bus = await startBus();
    await bus.consume({ queue: 'typed', patterns: ['typed.*'] }, async () => undefined);
    const queue = bus.queueName('typed');
    expect(queue).toBe(`${exchange}.typed.quorum`);
    // The arguments the bus declares (the same declaration again is accepted: equivalent)…
    const declared: Array<[string, Record<string, unknown>]> = [
      [queue, { 'x-queue-type': 'quorum', 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish', 'x-expires': EXPIRES_MS, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': `${queue}.retry` }],
      [`${queue}.retry`, { 'x-queue-type': 'quorum', 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish', 'x-expires': EXPIRES_MS, 'x-message-ttl': 1_000, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': queue }],
      [`${queue}.dlq`, { 'x-queue-type': 'quorum', 'x-expires': EXPIRES_MS }],
    ];
    for (const [name, args] of declared) {
      const declare = (type: string) =>
        onChannel((channel) => channel.assertQueue(name, { durable: true, arguments: { ...args, 'x-queue-type': type } }).then(() => 'declared', (error: Error) => error.message));
      expect(await declare('quorum')).toBe('declared');
      // …and the broker refuses the same queue as a classic one, naming the type it holds.
      expect(await declare('classic')).toMatch(/PRECONDITION_FAILED - inequivalent arg 'x-queue-type'.*current is .*quorum/);
    }
    // Quorum queues are never exclusive: a second connection may consume it.
    const count = await onChannel((channel) => channel.checkQueue(queue));
    expect(count).toMatchObject({ queue, consumerCount: 1 });
  });

  it('delivers a message again, with its x-delivery-count, after the consumer holding it died', async () => {
    const options = { queue: 'crash', patterns: ['crash.*'] };
    const seen: Array<{ id: string; attempt: number; returns: number }> = [];
    const dying = await dyingConsumer(options, seen);
    const sent = envelope('crash.now');
    await dying.publish(sent);
    await eventuallyExpect(() => expect(seen).toHaveLength(1));
    await dying.close(); // the unacked delivery goes back to the queue

    const survivor = await startBus();
    const received: Array<{ id: string; attempt: number; returns: number }> = [];
    await survivor.consume(options, async (event, delivery) => {
      received.push({ id: event.id, ...delivery });
    });
    await eventuallyExpect(() => expect(received).toEqual([{ id: sent.id, attempt: 1, returns: 1 }]));
    expect(seen).toEqual([{ id: sent.id, attempt: 1, returns: 0 }]);
    await eventuallyExpect(async () => expect(await onChannel((channel) => channel.checkQueue(survivor.queueName('crash')))).toMatchObject({ messageCount: 0 }));
  });

  it('parks a message that killed its consumer maxReturns times, without running the handler again', async () => {
    const options = { queue: 'poison', patterns: ['poison.*'], maxReturns: 2, retryDelayMs: 100 };
    const seen: Array<{ id: string; attempt: number; returns: number }> = [];
    const sent = envelope('poison.pill');
    let first = true;
    for (let death = 1; death <= 2; death += 1) {
      const dying = await dyingConsumer(options, seen);
      if (first) await dying.publish(sent);
      first = false;
      await eventuallyExpect(() => expect(seen).toHaveLength(death));
      await dying.close();
    }
    // Two deliveries (x-delivery-count 0 and 1) died with their consumer; the third consumer sees
    // x-delivery-count 2 and parks it unseen.
    expect(seen.map((delivery) => delivery.returns)).toEqual([0, 1]);
    const bus = await startBus();
    const handled: string[] = [];
    await bus.consume(options, async (event) => {
      handled.push(event.id);
    });
    const parked = await eventuallyExpect(async () => {
      const message = await onChannel((channel) => channel.get(`${bus.queueName('poison')}.dlq`, { noAck: true }));
      expect(message).toBeTruthy();
      return message as amqp.GetMessage;
    });
    expect(JSON.parse(parked.content.toString('utf8'))).toMatchObject({ id: sent.id });
    expect(parked.properties.headers?.['x-parked-reason']).toMatch(/returned 2 times without an answer/);
    expect(parked.properties.messageId).toBe(sent.id);
    expect(handled).toEqual([]);
  });

  it('retires the classic queues of an earlier version into the quorum queues, losing nothing', async () => {
    const bus = await startBus();
    const legacy = bus.legacyQueueName('legacy');
    // What the earlier version declared: a classic queue, its retry queue and its dead-letter queue.
    await onChannel(async (channel) => {
      await channel.assertExchange(exchange, 'topic', { durable: true });
      await channel.assertQueue(legacy, { durable: true, arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': `${legacy}.retry` } });
      await channel.assertQueue(`${legacy}.retry`, { durable: true, arguments: { 'x-message-ttl': 60_000, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': legacy } });
      await channel.assertQueue(`${legacy}.dlq`, { durable: true });
      await channel.bindQueue(legacy, exchange, 'legacy.*');
    });
    // An older replica still reads the classic queue, holding two deliveries it has not answered.
    const older = await raw.createChannel();
    const held: string[] = [];
    await older.consume(legacy, (message) => message && held.push(message.properties.messageId as string), { noAck: false });
    const inFlight = [envelope('legacy.a'), envelope('legacy.b')];
    for (const event of inFlight) await bus.publish(event); // routed to the classic queue only
    await eventuallyExpect(() => expect(held).toHaveLength(2));
    const retrying = envelope('legacy.retrying');
    await publishTo(`${legacy}.retry`, retrying);
    const parked = envelope('legacy.parked');
    await publishTo(`${legacy}.dlq`, parked, { headers: { 'x-parked-reason': 'handler failed' } });

    const received: string[] = [];
    const handler: EventHandler = async (event) => {
      received.push(event.id);
    };
    await bus.consume({ queue: 'legacy', patterns: ['legacy.*'] }, handler);
    // What waited for a retry is moved; the classic queue is unbound but kept for its consumer.
    await eventuallyExpect(() => expect(received).toEqual([retrying.id]));
    expect(await exists(legacy)).toBe(true);
    const fresh = envelope('legacy.fresh');
    await bus.publish(fresh);
    await eventuallyExpect(() => expect(received).toContain(fresh.id));
    expect(held).toHaveLength(2); // the fresh event went to the quorum queue only

    // The older replica dies with its two deliveries; the next replica's attach moves them and
    // deletes the classic queues.
    await older.close();
    const next = await startBus();
    await next.consume({ queue: 'legacy', patterns: ['legacy.*'] }, handler);
    await eventuallyExpect(() => expect([...received].sort()).toEqual([...inFlight, retrying, fresh].map((event) => event.id).sort()));
    for (const name of [legacy, `${legacy}.retry`, `${legacy}.dlq`]) expect(await exists(name)).toBe(false);
    const moved = await onChannel((channel) => channel.get(`${bus.queueName('legacy')}.dlq`, { noAck: true }));
    expect(moved && JSON.parse(moved.content.toString('utf8'))).toMatchObject({ id: parked.id });
    expect(moved && moved.properties.headers?.['x-parked-reason']).toBe('handler failed');
    expect(received.filter((id) => id === fresh.id)).toHaveLength(1);
  });
});
