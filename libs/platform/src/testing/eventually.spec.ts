import { eventually, eventuallyExpect } from './eventually';

describe('eventuallyExpect', () => {
  it('answers once the assertion passes, after the background work happened', async () => {
    let done = 0;
    setTimeout(() => (done = 3), 60);
    await expect(eventuallyExpect(() => {
      expect(done).toBe(3);
      return 'seen';
    }, 5_000, 10)).resolves.toBe('seen');
  });

  it('takes async assertions', async () => {
    let ready = false;
    setTimeout(() => (ready = true), 30);
    await eventuallyExpect(async () => expect(await Promise.resolve(ready)).toBe(true), 5_000, 10);
  });

  it('rethrows the last failure once the deadline has passed', async () => {
    const started = Date.now();
    await expect(eventuallyExpect(() => expect(1).toBe(2), 100, 10)).rejects.toThrow(/Expected: 2/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });
});

describe('eventually', () => {
  it('throws with what it last saw', async () => {
    await expect(eventually(async () => 'a', 'b', 50)).rejects.toThrow('saw "a", expected "b"');
  });
});
