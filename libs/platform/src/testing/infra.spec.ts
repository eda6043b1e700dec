import { connect, type ChannelModel, type ConsumeMessage } from 'amqplib';
import { MongoClient } from 'mongodb';
import { ensureTestInfra, uniqueDbPrefix, type TestInfra } from './infra';

// Generous: on a fresh machine the first call fetches and builds the store and starts RabbitMQ.
const SETUP_TIMEOUT_MS = 240_000;

describe('ensureTestInfra', () => {
  const prefix = uniqueDbPrefix('infra spec');
  let infra: TestInfra;
  let mongo: MongoClient | undefined;
  let broker: ChannelModel | undefined;

  beforeAll(async () => {
    infra = await ensureTestInfra();
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await mongo?.db(`${prefix}store`).dropDatabase();
    await mongo?.close();
    await broker?.close();
    await infra?.stop();
  });

  it('returns URLs for both services', () => {
    expect(infra.mongoUrl).toMatch(/^mongodb(\+srv)?:\/\//);
    expect(infra.amqpUrl).toMatch(/^amqps?:\/\//);
  });

  it('gives a store that keeps what is written', async () => {
    mongo = await new MongoClient(infra.mongoUrl, { serverSelectionTimeoutMS: 10_000 }).connect();
    const payments = mongo.db(`${prefix}store`).collection<{ _id: string; amount: number; status: string }>('payments');

    await payments.insertOne({ _id: 'pay_1', amount: 1234, status: 'pending' });
    await payments.updateOne({ _id: 'pay_1' }, { $set: { status: 'paid' } });

    expect(await payments.findOne({ _id: 'pay_1' })).toEqual({ _id: 'pay_1', amount: 1234, status: 'paid' });
    expect(await payments.countDocuments({ status: 'pending' })).toBe(0);
  });

  it('gives a broker that delivers a published message to a consumer', async () => {
    broker = await connect(infra.amqpUrl);
    const channel = await broker.createChannel();
    const { queue } = await channel.assertQueue(`${prefix}queue`, { exclusive: true, autoDelete: true });

    const received = new Promise<ConsumeMessage>((resolve) => {
      void channel.consume(queue, (message) => {
        if (!message) return;
        channel.ack(message);
        resolve(message);
      });
    });
    channel.sendToQueue(queue, Buffer.from(JSON.stringify({ hello: 'pix' })), {
      messageId: 'msg_1',
      contentType: 'application/json',
    });

    const message = await received;
    expect(message.properties.messageId).toBe('msg_1');
    expect(JSON.parse(message.content.toString('utf8'))).toEqual({ hello: 'pix' });
    await channel.close();
  });
});

describe('uniqueDbPrefix', () => {
  it('is a safe, distinct name prefix per call', () => {
    const a = uniqueDbPrefix('Payments API!');
    const b = uniqueDbPrefix('Payments API!');

    expect(a).toMatch(/^t_payments_api_[a-z0-9]{6}_$/);
    expect(b).not.toBe(a);
    expect(uniqueDbPrefix('---')).toMatch(/^t_x_[a-z0-9]{6}_$/);
  });
});
