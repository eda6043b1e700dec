import type { Db } from 'mongodb';
import type { Connection } from 'mongoose';

/**
 * Drops a test's database and closes its connection, whatever happens.
 *
 * The embedded test store (mongo-java-server) can refuse `dropDatabase` with "index not found"
 * when a write that was still in flight when the test ended touched a collection while the drop
 * walked its indexes. A teardown that throws there leaves the connection open, and a jest run in
 * band then never exits. So: the drop is tried twice, then collection by collection, and the
 * connection is closed in every case. Errors of the drop are not the test's result.
 */
export async function dropTestDatabase(target: Connection | Db | undefined): Promise<void> {
  if (!target) return;
  const connection = isConnection(target) ? target : undefined;
  const db = connection ? connection.db : (target as Db);
  try {
    if (db) await dropEverything(db);
  } finally {
    // A driver Db belongs to its MongoClient, which the caller closes.
    if (connection) await connection.close().catch(() => undefined);
  }
}

function isConnection(target: Connection | Db): target is Connection {
  return typeof (target as Connection).getClient === 'function';
}

async function dropEverything(db: Db): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await db.dropDatabase();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const collections = await db.listCollections({}, { nameOnly: true }).toArray().catch(() => []);
  for (const { name } of collections) await db.collection(name).drop().catch(() => undefined);
}
