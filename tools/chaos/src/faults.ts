/**
 * The faults a chaos run injects, each with its repair: a replica killed with SIGKILL (restarted
 * afterwards, as Kubernetes restarts a pod), the store process restarted, the broker killed and
 * started again, and one provider account's emulator client hanging (accepts, never answers).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import amqp from 'amqplib';
import { MongoClient } from 'mongodb';
import type { RunningStack } from './stack-api';

export interface Fault {
  name: string;
  /** How long the fault lasts before its repair (a killed replica stays dead this long). */
  holdMs: number;
  inject(): Promise<void>;
  repair(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await sleep(200);
  }
}

/**
 * Runs a start command without blocking: the load runs in this same process, and a synchronous
 * spawn would freeze its requests (and their timers) for as long as the command takes, which both
 * hides errors and lengthens the measured recovery.
 */
function run(command: string, args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

function pidFrom(file: string): number {
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no pid in ${file}`);
  return pid;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** SIGKILL one replica of the stack (e.g. `payments-2`); the repair starts it again and waits until it is ready. */
export function killReplica(stack: RunningStack, name: string, holdMs: number): Fault {
  return {
    name: `SIGKILL ${name}`,
    holdMs,
    async inject() {
      const target = stack.processes.processes.find((p) => p.name === name && p.child.exitCode === null && p.child.signalCode === null);
      if (!target) throw new Error(`${name} is not running`);
      const exited = new Promise((resolve) => target.child.once('exit', resolve));
      target.child.kill('SIGKILL');
      await exited;
    },
    repair: () => stack.restart(name),
  };
}

/**
 * Restarts the store process: SIGTERM (the H2 backend writes its file and stops), then its start
 * command, and waits until it answers a ping. Only for the chaos run's own store (chaos.sh).
 */
export function restartStore(options: { pidFile: string; start: string; mongoUrl: string }): Fault {
  return {
    name: 'restart the store',
    holdMs: 0,
    async inject() {
      const pid = pidFrom(options.pidFile);
      process.kill(pid, 'SIGTERM');
      await until('the store to stop', async () => !alive(pid), 30_000);
    },
    async repair() {
      const status = await run('bash', ['-c', options.start]);
      if (status !== 0) throw new Error(`the store's start command failed (${status})`);
      await until(
        'the store to answer',
        async () => {
          const client = await MongoClient.connect(options.mongoUrl, { serverSelectionTimeoutMS: 1_000 });
          try {
            await client.db('admin').command({ ping: 1 });
            return true;
          } finally {
            await client.close();
          }
        },
        60_000,
      );
    },
  };
}

/** Kills the broker's Erlang VM with SIGKILL and starts it again. Only for the chaos run's own node (chaos.sh). */
export function restartBroker(options: { beamPidFile: string; start: string; amqpUrl: string }): Fault {
  return {
    name: 'SIGKILL and restart the broker',
    holdMs: 0,
    async inject() {
      const pid = pidFrom(options.beamPidFile);
      process.kill(pid, 'SIGKILL');
      await until('the broker to die', async () => !alive(pid), 10_000);
    },
    async repair() {
      const status = await run('bash', [options.start]);
      if (status !== 0) throw new Error(`the broker's start script failed (${status})`);
      await until(
        'the broker to accept connections',
        async () => {
          const connection = await amqp.connect(options.amqpUrl, { timeout: 1_000 });
          await connection.close();
          return true;
        },
        90_000,
      );
    },
  };
}

/** One provider account's client at the Efí emulator hangs: requests are accepted and never answered. */
export function hangAccount(controlUrl: string, clientId: string, holdMs: number): Fault {
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${controlUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
  };
  return {
    name: 'hang provider account A (Efí emulator)',
    holdMs,
    inject: () => control('POST', '/__control/faults', { client_id: clientId, hang: true }),
    repair: () => control('DELETE', `/__control/faults?client_id=${encodeURIComponent(clientId)}`),
  };
}
