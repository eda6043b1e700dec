/**
 * Test or live: the mode every call of the dashboard acts in, chosen by the switch in the header
 * and kept in localStorage, so a reload (or a new tab) stays in the mode the owner chose.
 */
export type Mode = 'test' | 'live';

const STORAGE_KEY = 'orquestra.dashboard.mode';
let mode: Mode = readStored();
const listeners = new Set<(mode: Mode) => void>();

function readStored(): Mode {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) === 'live' ? 'live' : 'test';
  } catch {
    return 'test';
  }
}

export function currentMode(): Mode {
  return mode;
}

export function setMode(next: Mode): void {
  mode = next;
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, next);
  } catch {
    // storage blocked: the mode still holds for this page
  }
  for (const listener of listeners) listener(next);
}

export function onModeChange(listener: (mode: Mode) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
