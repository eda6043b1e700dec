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

/**
 * Runs `assertion` (jest `expect` calls, say) until it stops throwing, or rethrows its last failure
 * once `timeoutMs` has passed: for background work (an outbox relay, a consumer, a due-work job, a
 * webhook) that must have happened, instead of a fixed sleep that a loaded machine outlasts. Answers
 * what the assertion returned. The deadline is generous on purpose: it only costs time on failure.
 * For "exactly N" counts, wait with this until N is reached, then re-check after a short pause.
 */
export async function eventuallyExpect<T>(assertion: () => T | Promise<T>, timeoutMs = 15_000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
