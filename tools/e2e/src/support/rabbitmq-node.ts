import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');
const RABBITMQCTL = process.env.E2E_RABBITMQ_CTL ?? '/usr/lib/rabbitmq/bin/rabbitmqctl';

/**
 * Control of the local RabbitMQ node the stack uses: by default the one tools/infra/infra.sh starts
 * (node orquestra@localhost, Erlang cookie under .local/rabbitmq/home); tools/e2e/run-nothing-lost.sh
 * points E2E_RABBITMQ_NODE / E2E_RABBITMQ_HOME at a private node instead.
 */
export class RabbitNode {
  readonly node = process.env.E2E_RABBITMQ_NODE ?? 'orquestra@localhost';
  readonly home = process.env.E2E_RABBITMQ_HOME ?? path.join(ROOT, '.local/rabbitmq/home');

  ctl(...args: string[]): { ok: boolean; output: string } {
    const run = spawnSync(RABBITMQCTL, ['-n', this.node, ...args], {
      env: { ...process.env, HOME: this.home, ERL_EPMD_ADDRESS: '127.0.0.1' },
      encoding: 'utf8',
      timeout: 90_000,
    });
    return { ok: run.status === 0, output: `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? run.error.message : ''}` };
  }

  /**
   * Why this node cannot be the broker at `amqpUrl` (null when it is): the suite stops and starts
   * it, which only makes sense for a local node we control.
   */
  whyNotControllable(amqpUrl: string): string | null {
    let url: URL;
    try {
      url = new URL(amqpUrl);
    } catch {
      return `AMQP_URL ${amqpUrl} is not a URL`;
    }
    if (!['127.0.0.1', 'localhost'].includes(url.hostname)) return `AMQP_URL points at ${url.hostname}, not a local node`;
    const status = this.ctl('status', '--formatter', 'json');
    if (!status.ok) return `rabbitmqctl -n ${this.node} status failed: ${status.output.trim().split('\n').slice(-2).join(' ')}`;
    try {
      const listeners = (JSON.parse(status.output) as { listeners: Array<{ protocol: string; port: number }> }).listeners;
      const port = Number(url.port || 5672);
      if (!listeners.some((l) => l.protocol === 'amqp' && l.port === port)) return `node ${this.node} does not listen on AMQP port ${port}`;
    } catch {
      return `rabbitmqctl status answered something unreadable`;
    }
    return null;
  }

  /**
   * Kills the broker the hard way: SIGKILL to its Erlang VM, as a crash or an OOM kill would. No
   * connection is closed cleanly; publishes in flight get no confirm. Waits until it is gone.
   */
  async kill(): Promise<void> {
    const pid = Number(this.ctl('eval', 'list_to_integer(os:getpid()).').output.trim());
    if (!Number.isInteger(pid) || pid <= 1) throw new Error(`cannot find the Erlang VM pid of ${this.node}`);
    process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`RabbitMQ VM ${pid} survived SIGKILL`);
  }

  /** Starts the node again (the private node's start script, or infra.sh for the shared one) and waits for it. */
  start(): void {
    const script = process.env.E2E_RABBITMQ_START;
    const run = script
      ? spawnSync('bash', [script], { encoding: 'utf8', timeout: 30_000 })
      : spawnSync('bash', [path.join(ROOT, 'tools/infra/infra.sh'), 'up'], { encoding: 'utf8', timeout: 180_000 });
    if (run.status !== 0) throw new Error(`could not start RabbitMQ: ${run.stdout}${run.stderr}`);
    // await_startup needs the node registered with epmd first: poll until it answers.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const ready = this.ctl('await_startup', '--timeout', '10');
      if (ready.ok) return;
      if (Date.now() > deadline) throw new Error(`RabbitMQ did not come back in 120 s: ${ready.output}`);
      spawnSync('sleep', ['1']);
    }
  }
}
