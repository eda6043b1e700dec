import type { RequestLog } from '@orquestra/node';
import type { Command } from 'commander';
import { clientFor, resolveCredentials, type GlobalOptions } from '../context';
import { abortableSleep, type CliIo } from '../io';
import { parseInteger } from '../parsers';

interface TailOptions {
  limit: number;
  follow?: boolean;
  interval: number;
  status?: string;
  json?: boolean;
}

/** One line per call: time, method, path, status, duration, request id. */
export function requestLogLine(log: RequestLog): string {
  return `${log.created_at}  ${log.method.padEnd(6)} ${String(log.status).padEnd(3)} ${`${log.duration_ms} ms`.padStart(8)}  ${log.request_id}  ${log.path}`;
}

function byTime(a: RequestLog, b: RequestLog): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * `orq logs tail`: the merchant's recent API calls (GET /v1/request-logs), oldest of the page
 * first; with --follow, new ones as they come (up to 100 per --interval). The log's own reads
 * are not logged.
 */
export function registerLogs(program: Command, io: CliIo): void {
  const logs = program.command('logs').description('o log das chamadas recentes à API');
  logs
    .command('tail')
    .description('as chamadas recentes das chaves desta conta (modo da chave): método, caminho, status e id da requisição')
    .option('--limit <n>', 'quantas das mais recentes mostrar primeiro', parseInteger('--limit', 1, 100), 20)
    .option('-f, --follow', 'continua mostrando as novas')
    .option('--interval <ms>', 'intervalo entre consultas com --follow', parseInteger('--interval', 200, 60_000), 2000)
    .option('--status <status>', 'só esta classe (2xx, 4xx, 5xx) ou este status (404)')
    .option('--json', 'uma linha JSON por chamada')
    .action(async (options: TailOptions, command: Command) => {
      const client = clientFor(resolveCredentials(command.optsWithGlobals<GlobalOptions>(), io));
      const sleep = io.sleep ?? abortableSleep;
      const print = (log: RequestLog) => io.out(options.json ? JSON.stringify(log) : requestLogLine(log));
      const filter = options.status ? { status: options.status } : {};
      // With --follow the first page is as long as every later one, so all it holds counts as shown.
      const first = await client.requestLogs.list({ limit: options.follow ? 100 : options.limit, ...filter });
      first.data.slice(0, options.limit).sort(byTime).forEach(print);
      if (!options.follow) return;
      // Entries reach the log in batches from every gateway replica, so one may land behind one
      // already shown: each poll reads the newest page and prints what the previous page lacked.
      let shown = new Set(first.data.map((log) => log.id));
      while (!io.signal.aborted) {
        await sleep(options.interval, io.signal);
        if (io.signal.aborted) break;
        const page = await client.requestLogs.list({ limit: 100, ...filter });
        page.data.filter((log) => !shown.has(log.id)).sort(byTime).forEach(print);
        shown = new Set(page.data.map((log) => log.id));
      }
    });
}
