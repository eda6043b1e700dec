import { CliError } from './io';

export type KeyMode = 'test' | 'live' | 'unknown';

/** §5.2: test keys start with svc_test_, live keys with svc_live_. */
export function keyMode(apiKey: string): KeyMode {
  if (apiKey.startsWith('svc_test_')) return 'test';
  if (apiKey.startsWith('svc_live_')) return 'live';
  return 'unknown';
}

/** The key as the CLI ever shows it: its prefix and last 4 characters. */
export function maskKey(apiKey: string): string {
  const mode = keyMode(apiKey);
  const prefix = mode === 'unknown' ? '' : `svc_${mode}_`;
  return `${prefix}…${apiKey.slice(-4)}`;
}

/** Commands that create and drive objects with simulate refuse anything but a test key. */
export function requireTestKey(apiKey: string, command: string): void {
  const mode = keyMode(apiKey);
  if (mode === 'test') return;
  throw new CliError(
    mode === 'live'
      ? `${command} cria objetos e os movimenta com simulate: só funciona com uma chave de teste (svc_test_…), e a chave em uso (${maskKey(apiKey)}) é de produção.`
      : `${command} só funciona com uma chave de teste (svc_test_…).`,
  );
}
