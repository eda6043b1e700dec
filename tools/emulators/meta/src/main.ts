/** Entry point: Meta's access tokens on top of the kit's bootstrap (kit/emulator-main.ts). */
import { runEmulator } from '../../kit';
import { tokenId } from '../../kit/ad-tool-emulator';
import { loadEmulatorConfig } from './emulator-config';
import { createMetaEmulator } from './meta-emulator';

runEmulator('meta', loadEmulatorConfig, (config, options) => {
  const emulator = createMetaEmulator({ ...options, tokens: config.META_EMULATOR_TOKENS });
  // Tokens are secrets: only their ids are logged.
  return { emulator, ready: () => ({ tokens: config.META_EMULATOR_TOKENS.map((t) => ({ token_id: tokenId(t.token), pixels: t.pixels })) }) };
});
