import pino from 'pino';
import type { Connection } from 'mongoose';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '../testing';
import { connectDatabase } from './connect';

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
});
