/** Entry point: the attribution tool's tokens on top of the kit's bootstrap (kit/emulator-main.ts). */
import { runEmulator } from '../../kit';
import { tokenId } from '../../kit/ad-tool-emulator';
import { loadEmulatorConfig } from './emulator-config';
import { createUtmifyEmulator } from './utmify-emulator';

runEmulator('utmify', loadEmulatorConfig, (config, options) => {
  const emulator = createUtmifyEmulator({ ...options, tokens: config.UTMIFY_EMULATOR_TOKENS });
  // Tokens are secrets: only their ids are logged.
  return { emulator, ready: () => ({ tokens: config.UTMIFY_EMULATOR_TOKENS.map(tokenId) }) };
});
