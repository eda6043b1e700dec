import { EmulatorClock } from './clock';

describe('EmulatorClock', () => {
  const base = new Date('2026-03-02T12:00:00.000Z');

  it('runs on the base time plus what it was moved forward by', () => {
    const clock = new EmulatorClock(() => base);
    clock.advance(86_400_000);
    expect(clock.now().toISOString()).toBe('2026-03-03T12:00:00.000Z');
    clock.setTo(new Date('2026-03-10T00:00:00.000Z'));
    expect(clock.now().toISOString()).toBe('2026-03-10T00:00:00.000Z');
    expect(clock.offset()).toBe(clock.now().getTime() - base.getTime());
  });

  it('never goes back', () => {
    const clock = new EmulatorClock(() => base);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.setTo(new Date('2026-03-01T00:00:00.000Z'))).toThrow(RangeError);
    expect(clock.now()).toEqual(base);
  });

  it('takes back a remembered offset and forgets it on reset', () => {
    const clock = new EmulatorClock(() => base);
    clock.restoreOffset(3_600_000);
    expect(clock.now().toISOString()).toBe('2026-03-02T13:00:00.000Z');
    clock.reset();
    expect(clock.now()).toEqual(base);
  });
});
