import { AuthenticationError, Orquestra } from '@orquestra/node';
import type { Command } from 'commander';
import { configPath, readConfig, writeConfig } from '../config';
import { resolveBaseUrl, type GlobalOptions } from '../context';
import { CliError, type CliIo } from '../io';
import { keyMode, maskKey } from '../keys';

/**
 * `orq login`: checks a key against the API (one authenticated GET of the event log, which every
 * kind of key may read) and saves it with the base URL in the config file (0600).
 */
export function registerLogin(program: Command, io: CliIo): void {
  program
    .command('login')
    .description('guarda uma chave de API (verificada na API) no arquivo de configuração')
    .action(async (_options: unknown, command: Command) => {
      const options = command.optsWithGlobals<GlobalOptions>();
      const file = configPath(io.env);
      const config = readConfig(file);
      const baseUrl = resolveBaseUrl(options, io, config);
      const apiKey = (options.apiKey ?? io.env['ORQUESTRA_API_KEY'] ?? (await askForKey(io))).trim();
      if (!apiKey.startsWith('svc_')) throw new CliError('Isso não parece uma chave de API: as chaves começam com svc_test_ ou svc_live_.', 2);

      const client = new Orquestra({ apiKey, baseUrl, timeoutMs: 15_000, retry: { maxRetries: 1 } });
      try {
        await client.events.list({ limit: 1 });
      } catch (error) {
        if (error instanceof AuthenticationError) {
          throw new CliError(`A API recusou a chave ${maskKey(apiKey)} (revogada ou inexistente em ${baseUrl}). Nada foi salvo.`);
        }
        throw error;
      }
      writeConfig(file, { ...config, api_key: apiKey, base_url: baseUrl });
      io.out(`Conectado: chave ${maskKey(apiKey)} (modo ${keyMode(apiKey)}) em ${baseUrl}.`);
      io.out(`Configuração salva em ${file} (somente o seu usuário pode lê-la).`);
    });
}

async function askForKey(io: CliIo): Promise<string> {
  if (!io.interactive || !io.promptSecret) {
    throw new CliError('Informe a chave: orq login --api-key svc_test_… (ou defina ORQUESTRA_API_KEY).', 2);
  }
  return io.promptSecret('Chave de API (svc_test_… ou svc_live_…): ');
}
