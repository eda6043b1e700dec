import { readFileSync, statSync } from 'node:fs';

/**
 * The service's "now": the real time, or — only where TEST_CLOCK_FILE is set (the end-to-end test
 * stack, never Helm) — the real time plus an offset read from that file, so a test can run cycles
 * weeks apart in seconds. Every replica reads the same file, so they agree on the day. The file is
 * JSON `{"offset_ms": <non-negative integer>}`; it is read again only when its mtime changes.
 */
export type Clock = () => Date;

export const realClock: Clock = () => new Date();

export function fileClock(path: string): Clock {
  let seenMtimeMs = -1;
  let offsetMs = 0;
  return () => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      // No file yet: the real time (a test that never moved the clock).
      return new Date();
    }
    if (mtimeMs !== seenMtimeMs) {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as { offset_ms?: unknown };
      const next = parsed.offset_ms;
      if (typeof next !== 'number' || !Number.isInteger(next) || next < 0) throw new Error(`${path}: offset_ms must be a non-negative integer`);
      offsetMs = next;
      seenMtimeMs = mtimeMs;
    }
    return new Date(Date.now() + offsetMs);
  };
}

export function clockFrom(testClockFile: string | undefined): Clock {
  return testClockFile ? fileClock(testClockFile) : realClock;
}
