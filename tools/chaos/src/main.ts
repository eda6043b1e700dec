/**
 * `npm run chaos` (tools/chaos/chaos.sh): faults under load on a stack with two replicas of every
 * service. While SDK clients create Pix payments, it injects in turn: SIGKILL of one replica of
 * payments, of providers and of the gateway (each restarted after a while), a restart of the store
 * process, SIGKILL and restart of the broker, and a hanging provider account. Then it checks the
 * charges at the Efí emulator (double charges), the events against the log and the merchant's
 * webhook receiver (lost, duplicated), and reports per fault the failed tries, the errors the
 * merchant's code saw after the SDK's retries, and the time to recover. `--short` (CI): only the
 * payments and providers kills, about a minute. Writes .local/chaos/<timestamp>.{json,md}.
 * Exits 1 when a target is missed. See docs/reliability.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { blame, chargeAudit, eventAudit, faultFigures, type EmulatorCharge, type FaultFigures, type FaultWindow } from './audit';
import { hangAccount, killReplica, restartBroker, restartStore, type Fault } from './faults';
import { startLoad } from './load';
import { startReceiver } from './receiver';
import { formatReport, targetsMet, type ChaosReport } from './report';
import { parseReplicas, REPO_ROOT, seedStack, startStack, type RunningStack } from './stack-api';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string) => console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${message}`);

interface Options {
  short: boolean;
  lanes: number;
  portOffset: number;
  /** Only the faults whose name contains this text (a study of one fault), when set. */
  only?: string;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { short: false, lanes: 4, portOffset: 6000 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--short') options.short = true;
    else if (arg === '--lanes') options.lanes = Number(argv[++i]);
    else if (arg === '--port-offset') options.portOffset = Number(argv[++i]);
    else if (arg === '--only') options.only = argv[++i];
    else throw new Error(`unknown argument ${arg}; usage: chaos [--short] [--lanes n] [--port-offset n] [--only <fault name text>]`);
  }
  if (!Number.isInteger(options.lanes) || options.lanes < 1 || options.lanes > 64) throw new Error('--lanes must be an integer in 1…64');
  if (!Number.isInteger(options.portOffset) || options.portOffset < 0 || options.portOffset > 6000) throw new Error('--port-offset must be an integer in 0…6000');
  if (options.only !== undefined && !options.only.trim()) throw new Error('--only needs a part of a fault\'s name, e.g. --only store');
  return options;
}

/** One API call of the harness; a read is tried again for up to 30 s on 5xx or no answer (the audit must not fail on a slow stack). */
async function json<T>(url: string, init: RequestInit & { key: string }): Promise<T> {
  const deadline = Date.now() + ((init.method ?? 'GET') === 'GET' ? 30_000 : 0);
  for (;;) {
    let failure: string;
    try {
      const response = await fetch(url, { ...init, headers: { authorization: `Bearer ${init.key}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });
      if (response.ok) return (await response.json()) as T;
      failure = `${response.status} ${await response.text()}`;
      if (response.status < 500) throw new Error(`${init.method ?? 'GET'} ${url}: ${failure}`);
    } catch (error) {
      if ((error as Error).message.startsWith(init.method ?? 'GET')) throw error;
      failure = (error as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`${init.method ?? 'GET'} ${url}: ${failure}`);
    await sleep(500);
  }
}

/** Runs `tasks` with at most `width` at once. */
async function pooled<T>(items: T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await task(items[next++] as T);
  }));
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const env = process.env;
  const mongoUrl = env['MONGO_URL'];
  const amqpUrl = env['AMQP_URL'];
  if (!mongoUrl || !amqpUrl) throw new Error('MONGO_URL and AMQP_URL are required (run through tools/chaos/chaos.sh)');
  const runId = randomBytes(3).toString('hex');
  const stateDir = path.join(REPO_ROOT, '.local', 'chaos', 'stacks', runId);
  const certDir = path.join(REPO_ROOT, '.local', 'certs');
  const replicas = parseReplicas(env['ORQUESTRA_REPLICAS'] ?? '2');
  mkdirSync(stateDir, { recursive: true });
  log(`run ${runId}: starting a stack with ${JSON.stringify(replicas)} replicas (port offset ${options.portOffset})…`);
  let stack: RunningStack | undefined;
  const stop = async () => {
    const running = stack;
    stack = undefined;
    await running?.stop();
  };
  process.on('SIGINT', () => void stop().finally(() => process.exit(130)));
  process.on('SIGTERM', () => void stop().finally(() => process.exit(143)));
  const receiver = await startReceiver();
  try {
    stack = await startStack({
      portOffset: options.portOffset,
      mongoUrl,
      amqpUrl,
      dbPrefix: `chaos_${runId}_`,
      stateDir,
      certDir,
      logLevel: 'warn',
      readyTimeoutMs: 240_000,
      replicas,
      overrides: {
        // A hanging account is given up on in 3 s (8 s by default) and its breaker opens after 3 failures in a row.
        providers: { PROVIDER_TIMEOUT_MS: '3000', BREAKER_CONSECUTIVE_FAILURES: '3' },
        payments: { PROVIDER_CALL_DEADLINE_MS: '6000' },
        // Webhook retries after 1 s (30 s by default), so the audit sees the redeliveries within its wait.
        notifications: { WEBHOOK_RETRY_BASE_MS: '1000', WEBHOOK_RETRY_MAX_DELAY_MS: '4000', WEBHOOK_POLL_INTERVAL_MS: '250' },
      },
    });
    const seed = await seedStack({
      ports: stack.ports,
      certDir,
      stateFile: path.join(stateDir, 'seed.json'),
      email: `chaos-${runId}@orquestra.dev`,
      withSecondTestAccount: true,
    });
    const accountA = seed.testProviderAccountId;
    const accountB = seed.secondTestProviderAccountId;
    if (!accountB) throw new Error('the seed did not connect the second test account');
    const api = `${stack.baseUrl}/v1`;
    await json(`${api}/webhook-endpoints`, { method: 'POST', key: seed.testKey, body: JSON.stringify({ url: `${receiver.url}/chaos`, events: ['payment.*'] }) });

    const hold = options.short ? 3_000 : 5_000;
    const faults: Fault[] = [killReplica(stack, 'payments-2', hold), killReplica(stack, 'providers-2', hold)];
    if (!options.short) {
      faults.push(killReplica(stack, 'gateway-2', hold));
      if (env['CHAOS_STORE_PIDFILE'] && env['CHAOS_STORE_START']) faults.push(restartStore({ pidFile: env['CHAOS_STORE_PIDFILE'], start: env['CHAOS_STORE_START'], mongoUrl }));
      else log('store restart skipped: CHAOS_STORE_PIDFILE/CHAOS_STORE_START not set (chaos.sh sets them for its own store)');
      if (env['CHAOS_BROKER_PIDFILE'] && env['CHAOS_BROKER_START']) faults.push(restartBroker({ beamPidFile: env['CHAOS_BROKER_PIDFILE'], start: env['CHAOS_BROKER_START'], amqpUrl }));
      else log('broker restart skipped: CHAOS_BROKER_PIDFILE/CHAOS_BROKER_START not set (chaos.sh sets them for its own node)');
      faults.push(hangAccount(stack.controlUrls.efi, seed.emulatorClient.clientId, 8_000));
    }
    if (options.only !== undefined) {
      const only = options.only.toLowerCase();
      const chosen = faults.filter((fault) => fault.name.toLowerCase().includes(only));
      if (chosen.length === 0) throw new Error(`--only ${options.only}: no fault of this run is named so (${faults.map((fault) => fault.name).join('; ')})`);
      faults.splice(0, faults.length, ...chosen);
      log(`only: ${chosen.map((fault) => fault.name).join('; ')}`);
    }
    const calmMs = options.short ? 5_000 : 8_000;
    const observeMs = options.short ? 6_000 : 10_000;

    log(`load: ${options.lanes} SDK lanes creating Pix payments`);
    const load = startLoad({ baseUrl: stack.baseUrl, apiKey: seed.testKey, lanes: options.lanes });
    const loadStarted = Date.now();
    const windows: FaultWindow[] = [];
    const harnessErrors: string[] = [];
    try {
      await sleep(calmMs);
      for (const fault of faults) {
        log(`fault: ${fault.name}`);
        const at = Date.now();
        try {
          await fault.inject();
          await sleep(fault.holdMs);
          await fault.repair();
        } catch (error) {
          // The run still audits what happened so far; a fault the harness could not inject or repair fails it.
          log(`fault ${fault.name} could not be injected or repaired: ${(error as Error).message}`);
          harnessErrors.push(`${fault.name}: ${(error as Error).message}`);
          windows.push({ name: `${fault.name} (not repaired)`, at, repairedAt: Date.now(), until: Date.now() });
          break;
        }
        const repairedAt = Date.now();
        log(`repaired after ${((repairedAt - at) / 1000).toFixed(1)} s`);
        await sleep(observeMs);
        windows.push({ name: fault.name, at, repairedAt, until: Date.now() });
      }
    } finally {
      await load.stop();
    }
    // The last fault's window runs to the end of the load (its slow tries end there).
    const last = windows[windows.length - 1];
    if (last) last.until = Date.now();
    const loadSeconds = (Date.now() - loadStarted) / 1000;
    log(`load stopped: ${load.requests.length} creates in ${loadSeconds.toFixed(0)} s, ${load.payments.length} payments`);

    // Orphan charges are removed as due work (the first try after ~1 s, then 5 s…), and webhook retries run: let them.
    log('settling (orphan charges, outbox, webhook retries)…');
    await sleep(options.short ? 8_000 : 15_000);

    const clientIds = [seed.emulatorClient.clientId, seed.secondEmulatorClientId];
    const charges: EmulatorCharge[] = [];
    for (const clientId of clientIds) {
      const listed = await fetch(`${stack.controlUrls.efi}/__control/charges?client_id=${encodeURIComponent(clientId)}`).then((r) => r.json() as Promise<{ charges: EmulatorCharge[] }>);
      charges.push(...listed.charges);
    }
    // Every payment of the run's merchant, not only those the clients got back: a create whose
    // answer was lost (its process or the store died after it stored the payment) is a payment too.
    const stored: Array<{ id: string; provider_payment_id: string }> = [];
    for (let after = ''; ; ) {
      const page = await json<{ data: Array<{ id: string; provider_payment_id: string | null }>; has_more: boolean }>(`${api}/payments?limit=100${after ? `&starting_after=${after}` : ''}`, { key: seed.testKey });
      for (const p of page.data) stored.push({ id: p.id, provider_payment_id: p.provider_payment_id ?? '' });
      if (!page.has_more || page.data.length === 0) break;
      after = page.data[page.data.length - 1]?.id ?? '';
    }
    const known = new Set(load.payments.map((p) => p.id));
    const unseenPayments = stored.filter((p) => !known.has(p.id)).map((p) => p.id);
    const charged = chargeAudit(stored, [accountA, accountB], charges);

    // The truth: the events each payment says it emitted.
    const emitted = new Set<string>();
    await pooled(stored, 4, async (payment) => {
      const read = await json<{ events: Array<{ id: string; type: string }> }>(`${api}/payments/${payment.id}`, { key: seed.testKey });
      for (const event of read.events) if (event.type.startsWith('payment.')) emitted.add(event.id);
    });
    // The event log, every page of it.
    const logged = new Set<string>();
    for (let after = ''; ; ) {
      const page = await json<{ data: Array<{ id: string }>; has_more: boolean }>(`${api}/events?limit=100${after ? `&starting_after=${after}` : ''}`, { key: seed.testKey });
      for (const event of page.data) logged.add(event.id);
      if (!page.has_more || page.data.length === 0) break;
      after = page.data[page.data.length - 1]?.id ?? '';
    }
    // Deliveries still on their way (a retry after the broker's restart) get up to 60 s.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && [...emitted].some((id) => !receiver.delivered.includes(id))) await sleep(500);
    const events = eventAudit(emitted, logged, receiver.delivered);

    // Every process must still run: a replica that died on its own (not one the run killed and restarted) is a finding.
    const dead = stack.processes.exited().map((p) => `${p.name} (${p.child.signalCode ?? `exit ${p.child.exitCode}`})`);
    const figures: FaultFigures[] = windows.map((_w, i) => faultFigures(windows, i, load.tries, load.requests));
    const owner = blame(windows, load.tries);
    const errorsByCode: Record<string, number> = {};
    for (const r of load.requests) if (!r.ok) errorsByCode[r.error ?? 'unknown'] = (errorsByCode[r.error ?? 'unknown'] ?? 0) + 1;
    const report: ChaosReport = {
      runId,
      startedAt: new Date(loadStarted).toISOString(),
      short: options.short,
      replicas,
      lanes: options.lanes,
      loadSeconds,
      requests: load.requests.length,
      payments: load.payments.length,
      unseenPayments,
      failedTries: load.tries.filter((t) => !t.ok).length,
      clientErrors: load.requests.filter((r) => !r.ok).length,
      errorsByCode,
      faults: figures,
      charges: charged,
      events,
      balancer: stack.balancer?.stats() ?? null,
      harnessErrors,
      dead,
      failedTryList: load.tries
        .filter((t) => !t.ok)
        .map((t) => ({ at: new Date(t.start).toISOString(), ms: t.end - t.start, outcome: t.outcome, fault: windows[owner.get(t) ?? -1]?.name ?? '' })),
    };
    const outDir = path.join(REPO_ROOT, '.local', 'chaos');
    mkdirSync(outDir, { recursive: true });
    const stamp = report.startedAt.replace(/[:.]/g, '-');
    writeFileSync(path.join(outDir, `${stamp}.json`), JSON.stringify(report, null, 2));
    const markdown = formatReport(report);
    writeFileSync(path.join(outDir, `${stamp}.md`), markdown);
    console.log(`\n${markdown}\nWritten to .local/chaos/${stamp}.{json,md}`);
    return targetsMet(report).every((t) => t.ok || !t.gate) ? 0 : 1;
  } finally {
    await stop();
    await receiver.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`chaos failed: ${error.stack ?? error.message}`);
    process.exit(2);
  },
);
