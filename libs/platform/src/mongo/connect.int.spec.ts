import { createServer, connect, type AddressInfo } from 'node:net';
import pino from 'pino';
import { MongoClient, MongoServerSelectionError } from 'mongodb';
import mongoose, { type Connection } from 'mongoose';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '../testing';
import { connectDatabase, isDuplicateKeyError, isStoreUnavailableError } from './connect';

jest.setTimeout(60_000);

describe('connectDatabase', () => {
  let db: Connection;
  const commands: string[] = [];

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    db = await connectDatabase({
      url: infra.mongoUrl,
      dbName: `${uniqueDbPrefix('connect')}db`,
      logger: pino({ level: 'silent' }),
      onCommand: (name) => commands.push(name),
    });
  });

  afterAll(async () => {
    await dropTestDatabase(db);
  });

  it('tells onCommand the name of every command sent to the store', async () => {
    commands.length = 0;
    const things = db.collection<{ _id: string; n: number }>('things');
    await things.insertOne({ _id: 'a', n: 1 });
    await things.findOneAndUpdate({ _id: 'a' }, { $inc: { n: 1 } });
    await things.find({}).toArray();
    expect(commands).toEqual(['insert', 'findAndModify', 'find']);
  });

  it('tells a store out of reach from other store errors', async () => {
    const things = db.collection<{ _id: string }>('reach');
    await things.insertOne({ _id: 'a' });
    const duplicate = await things.insertOne({ _id: 'a' }).catch((error: unknown) => error);
    expect(isDuplicateKeyError(duplicate)).toBe(true);
    expect(isStoreUnavailableError(duplicate)).toBe(false);
    expect(isStoreUnavailableError(new Error('boom'))).toBe(false);
    // Nothing listens on port 1: no server is selected in time, through mongoose as the services use it.
    // mongoose holds operations while disconnected and fails them after bufferTimeoutMS; the driver
    // fails its own after serverSelectionTimeoutMS.
    const unreachable = mongoose.createConnection('mongodb://127.0.0.1:1/none', { serverSelectionTimeoutMS: 300 });
    unreachable.on('error', () => undefined);
    try {
      const held = await unreachable.model('Reach', new mongoose.Schema({ a: Number }, { bufferTimeoutMS: 300 })).findOne({}).catch((caught: unknown) => caught);
      expect(held).toMatchObject({ name: 'MongooseError' });
      expect(isStoreUnavailableError(held)).toBe(true);
      const client = new MongoClient('mongodb://127.0.0.1:1/none', { serverSelectionTimeoutMS: 300 });
      const selected = await client.db('none').collection('x').findOne({}).catch((caught: unknown) => caught);
      await client.close();
      expect(selected).toBeInstanceOf(MongoServerSelectionError);
      expect(isStoreUnavailableError(selected)).toBe(true);
    } finally {
      await unreachable.close().catch(() => undefined);
    }
  });

  it('tells a connection the store ended from other errors: Node’s own socket error, when the driver lets it through', async () => {
    // A peer that closes every connection at once: writing after its FIN is the driver's
    // "This socket has been ended by the other party" (EPIPE) of a store restarting under load.
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const socket = connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1' });
      socket.on('error', () => undefined); // the write's callback is told too
      await new Promise((resolve) => socket.once('end', resolve));
      const written = await new Promise<unknown>((resolve) => socket.write('x', resolve));
      socket.destroy();
      expect(written).toMatchObject({ code: 'EPIPE', message: 'This socket has been ended by the other party' });
      // Not from the driver (a provider's HTTP call, say): not the store.
      expect(isStoreUnavailableError(written)).toBe(false);
      // As the driver let it through in the chaos run's store restart: the same error, thrown from
      // its Connection.writeCommand (the frames of that run's log).
      const fromDriver = written as Error;
      fromDriver.stack = [
        'Error: This socket has been ended by the other party',
        '    at Socket.writeAfterFIN [as write] (node:net:857:14)',
        '    at Connection.writeCommand (/work/main/node_modules/mongodb/src/cmap/connection.ts:718:21)',
        '    at async Connection.sendWire (/work/main/node_modules/mongodb/src/cmap/connection.ts:464:7)',
      ].join('\n');
      expect(isStoreUnavailableError(fromDriver)).toBe(true);
      // Wrapped by a caller that keeps it as the cause.
      expect(isStoreUnavailableError(new Error('saving the payment failed', { cause: fromDriver }))).toBe(true);
      expect(isStoreUnavailableError(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
