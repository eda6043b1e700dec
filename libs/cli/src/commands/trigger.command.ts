import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { clientFor, resolveCredentials, type GlobalOptions } from '../context';
import { CliError, type CliIo } from '../io';
import { requireTestKey } from '../keys';
import { TRIGGERS } from './trigger.catalog';

export function triggerHelp(): string {
  const width = Math.max(...Object.keys(TRIGGERS).map((name) => name.length));
  return ['', 'Eventos:', ...Object.entries(TRIGGERS).map(([name, trigger]) => `  ${name.padEnd(width)}  ${trigger.summary}`)].join('\n');
}

/** `orq trigger <event>`: makes the event happen in test mode and prints the ids it created. */
export function registerTrigger(program: Command, io: CliIo): void {
  program
    .command('trigger')
    .description('faz um evento acontecer em modo de teste (cria os objetos e usa simulate)')
    .argument('<event>', 'o tipo de evento (veja a lista abaixo)')
    .addHelpText('after', triggerHelp())
    .action(async (event: string, _options: unknown, command: Command) => {
      const trigger = TRIGGERS[event];
      if (!trigger) throw new CliError(`Evento não suportado por orq trigger: ${event}.${triggerHelp()}`, 2);
      const credentials = resolveCredentials(command.optsWithGlobals<GlobalOptions>(), io);
      requireTestKey(credentials.apiKey, 'orq trigger');
      const tag = randomUUID();
      io.err(`Disparando ${event}: ${trigger.summary}…`);
      const created = await trigger.run(clientFor(credentials), tag);
      for (const [kind, id] of created) io.out(`${kind} ${id}`);
      io.err(`Pronto: ${event} disparado. Acompanhe com orq listen ou orq payments get <id>.`);
    });
}
