/**
 * Polls `read` until it answers `expected` (compared as JSON), or throws with what it last saw:
 * for state another process changes (a signal crossing the broker, a replica's cache).
 */
export async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = await read();
    if (JSON.stringify(seen) === JSON.stringify(expected)) return;
    if (Date.now() > deadline) throw new Error(`saw ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
