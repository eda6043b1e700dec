import { randomBytes } from 'node:crypto';
import { AuthenticationError, PermissionError } from '@orquestra/node';
import type { Command } from 'commander';
import { configPath, readConfig, writeConfig } from '../config';
import { clientFor, resolveCredentials, type GlobalOptions } from '../context';
import { clock } from '../format';
import { abortableSleep, CliError, type CliIo } from '../io';
import { maskKey } from '../keys';
import { EventPoller } from '../listen/event-poller';
import { forwardEvent } from '../listen/forwarder';
import { parseInteger, parseList } from '../parsers';

interface ListenOptions {
  forwardTo?: string;
  events: string[];
  interval: number;
  printSecret?: boolean;
}

/**
 * The secret forwarded events are signed with: kept in the config file so it stays the same from
 * one run to the next (the receiver's .env is set once), created on first use.
 */
export function listenSecret(io: CliIo): string {
  const file = configPath(io.env);
  const config = readConfig(file);
  if (config.listen_secret) return config.listen_secret;
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  try {
    writeConfig(file, { ...config, listen_secret: secret });
  } catch (error) {
    io.err(`Aviso: não foi possível guardar o segredo em ${file} (${(error as Error).message}); ele vale só para esta execução.`);
  }
  return secret;
}

function parseForwardUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`--forward-to espera uma URL, por exemplo http://localhost:3000/webhooks (recebido: ${value}).`, 2);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError('--forward-to deve ser uma URL http(s).', 2);
  return url.toString();
}

/**
 * `orq listen --forward-to URL`: receives the merchant's events without a public URL, by polling
 * the event log (GET /v1/events) every --interval ms, and POSTs each new one, signed like a real
 * webhook delivery, to the local URL. One line per event with the local answer's status.
 */
export function registerListen(program: Command, io: CliIo): void {
  program
    .command('listen')
    .description('recebe os eventos da sua conta e os encaminha assinados para uma URL local')
    .option('--forward-to <url>', 'para onde enviar cada evento (ex.: http://localhost:3000/webhooks)')
    .option('--events <tipos>', 'só estes tipos, separados por vírgula (payment.succeeded,refund.*)', parseList, [])
    .option('--interval <ms>', 'intervalo entre consultas ao log de eventos', parseInteger('--interval', 200, 60_000), 1000)
    .option('--print-secret', 'só imprime o segredo de assinatura (whsec_…) e sai')
    .action(async (options: ListenOptions, command: Command) => {
      const secret = listenSecret(io);
      if (options.printSecret) {
        io.out(secret);
        return;
      }
      if (!options.forwardTo) throw new CliError('Informe --forward-to <url> (por exemplo http://localhost:3000/webhooks).', 2);
      const url = parseForwardUrl(options.forwardTo);
      const credentials = resolveCredentials(command.optsWithGlobals<GlobalOptions>(), io);
      const client = clientFor(credentials);
      const sleep = io.sleep ?? abortableSleep;
      const poller = new EventPoller(client, { sinceSeconds: Math.floor(Date.now() / 1000), types: options.events });

      io.err(`Pronto! Encaminhando os eventos de ${maskKey(credentials.apiKey)} (${credentials.baseUrl}) para ${url}`);
      io.err(`Segredo de assinatura (Service-Signature) desta máquina: ${secret}`);
      io.err(`Consulta o log de eventos a cada ${options.interval} ms${options.events.length ? `, só ${options.events.join(', ')}` : ''}. Ctrl-C para sair.`);

      let failures = 0;
      while (!io.signal.aborted) {
        let events;
        try {
          events = await poller.poll();
          failures = 0;
        } catch (error) {
          if (error instanceof AuthenticationError || error instanceof PermissionError) throw error;
          if (io.signal.aborted) break;
          failures += 1;
          const pause = Math.min(options.interval * 2 ** failures, 30_000);
          io.err(`Falha ao ler o log de eventos (${(error as Error).message}); nova tentativa em ${Math.round(pause / 1000)} s.`);
          await sleep(pause, io.signal);
          continue;
        }
        for (const event of events) {
          if (io.signal.aborted) break;
          const result = await forwardEvent(event, {
            url,
            secret,
            signal: io.signal,
            ...(io.fetch ? { fetch: io.fetch } : {}),
            sleep,
            onRetry: (attempt, delayMs, reason) => io.err(`  ${event.id}: ${url} não respondeu (${reason}); tentativa ${attempt + 1} em ${delayMs} ms`),
          });
          const outcome = 'status' in result ? `[${result.status}] POST ${url}` : `falhou: ${result.error} (${result.tries} tentativas)`;
          io.out(`${clock(new Date())}  ${event.type.padEnd(27)} ${event.id}  → ${outcome}`);
        }
        await sleep(options.interval, io.signal);
      }
    });
}
