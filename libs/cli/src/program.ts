import { OrquestraError } from '@orquestra/node';
import { Command, CommanderError, Option } from 'commander';
import { registerListen } from './commands/listen.command';
import { registerLogin } from './commands/login.command';
import { registerLogs } from './commands/logs.command';
import { registerPayments } from './commands/payments.command';
import { registerTrigger } from './commands/trigger.command';
import { CliError, type CliIo } from './io';

export const CLI_VERSION = '0.1.0';

/** The `orq` program with its commands, writing through `io`. */
export function createProgram(io: CliIo): Command {
  const program = new Command('orq')
    .description('Orquestra na linha de comando: login, listen, trigger, payments, logs')
    .version(CLI_VERSION, '-v, --version')
    .addOption(new Option('--api-key <key>', 'chave de API (padrão: ORQUESTRA_API_KEY, depois a do orq login)'))
    .addOption(new Option('--base-url <url>', 'endereço da API (padrão: ORQUESTRA_BASE_URL, depois o do orq login, depois http://localhost:8080)'))
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text.replace(/\n$/, '')),
      writeErr: (text) => io.err(text.replace(/\n$/, '')),
    });
  registerLogin(program, io);
  registerListen(program, io);
  registerTrigger(program, io);
  registerPayments(program, io);
  registerLogs(program, io);
  // Subcommands inherit exitOverride and the output settings only when set before they are added.
  for (const command of allCommands(program)) command.exitOverride().configureOutput(program.configureOutput());
  return program;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...allCommands(child)]);
}

/** One line for a failure: the API's Portuguese message, its code and param, and the request id. */
export function describeError(error: unknown): string {
  if (error instanceof OrquestraError) {
    const details = [error.code, error.param ? `param ${error.param}` : '', error.requestId ? `request id ${error.requestId}` : ''].filter(Boolean);
    return `Erro: ${error.message} (${details.join(', ')})`;
  }
  if (error instanceof Error) return `Erro: ${error.message}`;
  return `Erro: ${String(error)}`;
}

/** Runs `orq` with `argv` (as process.argv: node, script, args…) and returns the exit status. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    io.err(describeError(error));
    return error instanceof CliError ? error.exitCode : 1;
  }
}
