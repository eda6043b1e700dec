import { Mode } from './generated/orquestra/common/v1/common';

export type ModeName = 'test' | 'live';

/** Proto enum → the API's mode name. Anything but MODE_LIVE is treated as test (never the other way). */
export function modeName(mode: Mode): ModeName {
  return mode === Mode.MODE_LIVE ? 'live' : 'test';
}

export function modeFromName(name: ModeName): Mode {
  return name === 'live' ? Mode.MODE_LIVE : Mode.MODE_TEST;
}
