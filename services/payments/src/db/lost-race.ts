import { AppError } from '@orquestra/platform';

/** What one try of an optimistic write answers when another writer changed the document first. */
export const LOST_RACE = Symbol('lost race');

/**
 * Enough tries for every contender to win in turn: a try is lost only when another writer won
 * between its read and its write, and 20 parallel refunds of one payment settle well inside this.
 */
const MAX_TRIES = 100;
/** Waits grow with each lost try, randomly, so contenders spread out instead of colliding again. */
const MAX_WAIT_MS = 40;

/**
 * Runs a read → compute → conditional write (`{ _id, version: read.version }`) until it is not
 * lost to a concurrent writer, a bounded number of times. `tryOnce` answers LOST_RACE when its
 * write matched nothing because the document moved on; anything else ends the retries.
 */
export async function retryLostRaces<T>(what: string, tryOnce: () => Promise<T | typeof LOST_RACE>): Promise<T> {
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const result = await tryOnce();
    if (result !== LOST_RACE) return result;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(MAX_WAIT_MS, 2 ** attempt)));
  }
  throw new AppError('service_unavailable', { cause: new Error(`${what}: lost to concurrent writers ${MAX_TRIES} times`) });
}
