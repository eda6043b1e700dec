import mongoose, { type Connection } from 'mongoose';
import type { Logger } from 'pino';

/**
 * Opens the service's own database. Each service owns exactly one database
 * (`<DB_PREFIX><service>`) and never reads another service's.
 */
export async function connectDatabase(options: {
  url: string;
  dbName: string;
  logger: Logger;
}): Promise<Connection> {
  const connection = mongoose.createConnection(options.url, {
    dbName: options.dbName,
    serverSelectionTimeoutMS: 10_000,
    maxPoolSize: 50,
    // Indexes are created explicitly by `ensureIndexes` at start, not lazily per model.
    autoIndex: false,
  });
  await connection.asPromise();
  options.logger.info({ db: options.dbName }, 'database connected');
  return connection;
}

/** Creates every declared index of every model on the connection (idempotent). */
export async function ensureIndexes(connection: Connection): Promise<void> {
  for (const model of Object.values(connection.models)) {
    await model.createIndexes();
  }
}

/** True when the error is a duplicate-key violation of a unique index (E11000). */
export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}
