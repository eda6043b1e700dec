import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CliError } from './io';

/** What `orq login` stores (and `orq listen` adds its signing secret to). */
export interface CliConfig {
  api_key?: string;
  base_url?: string;
  /** The `whsec_…` secret `orq listen` signs forwarded events with; kept so it stays the same across runs. */
  listen_secret?: string;
}

/** `$XDG_CONFIG_HOME/orquestra/config.json`, or `~/.config/orquestra/config.json`. */
export function configPath(env: Readonly<Record<string, string | undefined>>): string {
  const base = env['XDG_CONFIG_HOME'] || path.join(env['HOME'] || env['USERPROFILE'] || '.', '.config');
  return path.join(base, 'orquestra', 'config.json');
}

export function readConfig(file: string): CliConfig {
  if (!existsSync(file)) return {};
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as CliConfig) : {};
  } catch {
    throw new CliError(`O arquivo de configuração ${file} não é JSON válido: corrija-o ou apague-o e rode orq login de novo.`);
  }
}

/**
 * Writes the file readable by its owner only (0600; its directory 0700): it holds an API key.
 * Written to a temporary file and renamed, so a crash never leaves half a file.
 */
export function writeConfig(file: string, config: CliConfig): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFileSync is reduced by the umask; make it exact.
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}
