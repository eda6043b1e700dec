import { MongoNetworkError, MongoNotConnectedError, MongoServerSelectionError, MongoTopologyClosedError } from 'mongodb';
import mongoose, { type Connection } from 'mongoose';
import type { Logger } from 'pino';

// Mongoose keeps the stack of every query's first execution (for its "Query was already executed"
// error); with --enable-source-maps each of those is mapped through the bundle's source map, which
// cost a busy service about 1 % of its CPU in the benchmark's profiles. That error still names the
// query; only its original stack is left out.
mongoose.set('skipOriginalStackTraces', true);

/**
 * Opens the service's own database. Each service owns exactly one database
 * (`<DB_PREFIX><service>`) and never reads another service's.
 */
export async function connectDatabase(options: {
  url: string;
  dbName: string;
  logger: Logger;
  /**
   * Told the name of every command sent to the store (`find`, `update`, `findAndModify`, …):
   * what one request costs the store, counted by the service's metrics. Turns on the driver's
   * command monitoring, which also decodes every reply once more for its succeeded event.
   */
  onCommand?: (commandName: string, collection: string) => void;
}): Promise<Connection> {
  const { onCommand } = options;
  const connection = mongoose.createConnection(options.url, {
    dbName: options.dbName,
    serverSelectionTimeoutMS: 10_000,
    maxPoolSize: 50,
    // Indexes are created explicitly by `ensureIndexes` at start, not lazily per model.
    autoIndex: false,
    monitorCommands: onCommand !== undefined,
  });
  await connection.asPromise();
  // The connection handshake is not a monitored command: nothing before this point is missed.
  if (onCommand) connection.getClient().on('commandStarted', (event) => onCommand(event.commandName, collectionOf(event.command[event.commandName])));
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

/**
 * The store could not be reached (no server selected in time, the connection dropped, the client
 * closed): the request may be repeated once the store is back, so callers answer
 * `service_unavailable` (503 with `Retry-After: 1`, see grpc-server.ts) rather than an internal error.
 */
export function isStoreUnavailableError(error: unknown): boolean {
  // Duck-typed, not `instanceof Error`: Node's own errors come from another realm under jest's vm.
  for (let depth = 0, current = error as Error | undefined; depth < 4 && typeof current === 'object' && current !== null; depth++, current = current.cause as Error | undefined) {
    if (current instanceof MongoNetworkError || current instanceof MongoServerSelectionError || current instanceof MongoNotConnectedError || current instanceof MongoTopologyClosedError) return true;
    // mongoose wraps a failed server selection in its own class (not a subclass of the driver's), and
    // while its connection is down it holds operations, then fails them with a plain MongooseError
    // whose only mark is its message ("Operation `payments.insertOne()` buffering timed out after 10000ms").
    if (current.name === 'MongooseServerSelectionError' || (current.name === 'MongooseError' && /buffering timed out/.test(current.message))) return true;
    // A connection the store closed while a command was being written: the driver lets Node's own
    // socket error through unwrapped ("This socket has been ended by the other party", EPIPE, from
    // Connection.writeCommand), seen when the store restarts under load. Only when thrown from the
    // driver's connection (npm packages stay external to the bundles, so its frames keep their
    // path): the same codes from a provider's HTTP call are not the store, and must not be retried
    // elsewhere as if nothing had been sent.
    if (SOCKET_GONE.has(String((current as NodeJS.ErrnoException).code)) && DRIVER_CONNECTION_FRAME.test(current.stack ?? '')) return true;
  }
  return false;
}

/** Node's codes for a TCP connection reset or ended by its peer. */
const SOCKET_GONE = new Set(['EPIPE', 'ECONNRESET']);
/** A stack frame in the mongodb driver's connection code (`node_modules/mongodb/{lib,src}/cmap/…`). */
const DRIVER_CONNECTION_FRAME = /[\\/]node_modules[\\/]mongodb[\\/](?:lib|src)[\\/]cmap[\\/]/;

/** The collection a command names (`{ find: 'payments' }`); '' for commands on the database (`{ aggregate: 1 }`, `ping`). */
function collectionOf(target: unknown): string {
  return typeof target === 'string' ? target : '';
}
