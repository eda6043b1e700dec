import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');
const RABBITMQCTL = '/usr/lib/rabbitmq/bin/rabbitmqctl';

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

  stopApp(): void {
    const result = this.ctl('stop_app');
    if (!result.ok) throw new Error(`rabbitmqctl stop_app failed: ${result.output}`);
  }

  startApp(): void {
    const result = this.ctl('start_app');
    if (!result.ok) throw new Error(`rabbitmqctl start_app failed: ${result.output}`);
  }
}
