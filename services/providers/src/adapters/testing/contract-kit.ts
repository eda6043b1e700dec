/**
 * Helpers shared by the adapters' contract tests (an adapter over real HTTP against its emulator).
 * Test-only: nothing in the providers service imports this folder.
 */

/** Polls `probe` until it answers a value (every 25 ms), or fails after `timeoutMs`. */
export async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 5_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
