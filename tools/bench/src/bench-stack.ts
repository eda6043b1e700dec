/**
 * The benchmark's own stack: offset ports, databases and exchange under a unique `bench_<rand>_`
 * prefix, warn-level logs, so it never touches a developer's stack (same pattern as
 * tools/stack/src/test-stack-main.ts). Unlike the e2e stack it keeps the services' default
 * timeouts and breaker settings: the ones `npm start` and production run with. Stopped with SIGTERM at the end, on failure and on Ctrl-C;
 * its databases and exchange are then dropped unless asked to keep them.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import amqp from 'amqplib';
import { MongoClient } from 'mongodb';
import { parseReplicas, REPO_ROOT, seedStack, startStack, type ReplicaInfo, type RunningStack, type SeedResult } from './stack-api';

export interface BenchStack {
  stack: RunningStack;
  seed: SeedResult;
  dbPrefix: string;
  stateDir: string;
  certDir: string;
}

export async function startBenchStack(options: {
  runId: string;
  dbPrefix: string;
  portOffset: number;
  mongoUrl: string;
  amqpUrl: string;
  /** Replicas per service (`2`, `payments=2,…`; empty: one each). */
  replicas: string;
  onStarted: (stack: RunningStack) => void;
  /** Called with each service replica's pid right after it is spawned (the CPU limit's cgroups). */
  onProcessStarted?: (replica: ReplicaInfo, pid: number | undefined) => void;
}): Promise<BenchStack> {
  const { dbPrefix } = options;
  const stateDir = path.join(REPO_ROOT, '.local', 'bench', 'stacks', options.runId);
  const certDir = path.join(REPO_ROOT, '.local', 'certs');
  mkdirSync(stateDir, { recursive: true });
  const stack = await startStack({
    portOffset: options.portOffset,
    mongoUrl: options.mongoUrl,
    amqpUrl: options.amqpUrl,
    dbPrefix,
    stateDir,
    certDir,
    logLevel: 'warn',
    readyTimeoutMs: 180_000,
    replicas: parseReplicas(options.replicas),
    ...(options.onProcessStarted ? { onProcessStarted: options.onProcessStarted } : {}),
    // A throwaway stack: the broker drops its quorum queues six hours after their last use
    // (dropBenchData deletes the exchange only; docs/rabbitmq.md).
    shared: { EVENT_QUEUES_EXPIRE_MS: String(6 * 60 * 60 * 1000) },
  });
  options.onStarted(stack);
  const seed = await seedStack({
    ports: stack.ports,
    certDir,
    stateFile: path.join(stateDir, 'seed.json'),
    email: `bench-${options.runId}@orquestra.dev`,
    withLiveAccount: false,
    // Account B (priority 20) takes over while A (priority 10) is down in the failover run.
    withSecondTestAccount: true,
  });
  if (!seed.secondTestProviderAccountId) throw new Error('the seed did not connect the second test account');
  return { stack, seed, dbPrefix, stateDir, certDir };
}

/** Drops the run's databases (`<prefix>*`) and deletes its events exchange (and so its bindings). */
export async function dropBenchData(options: { dbPrefix: string; mongoUrl: string; amqpUrl: string }): Promise<string[]> {
  const dropped: string[] = [];
  const mongo = await MongoClient.connect(options.mongoUrl, { serverSelectionTimeoutMS: 5_000 });
  try {
    const { databases } = await mongo.db('admin').admin().listDatabases({ nameOnly: true });
    for (const { name } of databases) {
      if (!name.startsWith(options.dbPrefix)) continue;
      await mongo.db(name).dropDatabase();
      dropped.push(name);
    }
  } finally {
    await mongo.close();
  }
  const connection = await amqp.connect(options.amqpUrl);
  try {
    const channel = await connection.createChannel();
    await channel.deleteExchange(`${options.dbPrefix}events`);
    dropped.push(`exchange ${options.dbPrefix}events`);
    await channel.close();
  } finally {
    await connection.close();
  }
  return dropped;
}
