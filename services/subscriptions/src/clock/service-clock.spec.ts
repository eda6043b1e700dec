import { mkdtempSync, writeFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clockFrom, fileClock, realClock } from './service-clock';

describe('service clock', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clock-'));

  it('is the real time without a test clock file', () => {
    expect(clockFrom(undefined)).toBe(realClock);
    expect(Math.abs(realClock().getTime() - Date.now())).toBeLessThan(50);
  });

  it('adds the offset the file says, and follows a change of the file', () => {
    const path = join(dir, 'clock.json');
    const clock = fileClock(path);
    expect(Math.abs(clock().getTime() - Date.now())).toBeLessThan(50);
    writeFileSync(path, JSON.stringify({ offset_ms: 7 * 86_400_000 }));
    expect(clock().getTime() - Date.now()).toBeGreaterThan(7 * 86_400_000 - 50);
    writeFileSync(path, JSON.stringify({ offset_ms: 14 * 86_400_000 }));
    // Same-second writes can keep the mtime: a test writer moves it explicitly, as here.
    const later = new Date(Date.now() + 5_000);
    utimesSync(path, later, later);
    expect(clock().getTime() - Date.now()).toBeGreaterThan(14 * 86_400_000 - 50);
  });

  it('refuses a malformed offset instead of running on a wrong day', () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify({ offset_ms: -1 }));
    expect(() => fileClock(path)()).toThrow(/offset_ms/);
  });
});
