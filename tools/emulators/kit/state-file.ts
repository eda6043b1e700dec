/**
 * Keeps an emulator's memory in a JSON file, so that a restarted local stack (`npm run stop && npm
 * start`) finds the accounts, charges and webhook registrations the providers service made before,
 * as it would at a real provider. Opt-in: only the stack launcher sets `<NAME>_EMULATOR_STATE_FILE`;
 * tests keep everything in memory.
 *
 * Each store says what it keeps (`snapshot()`) and how to take it back (`restore()`); logs of what
 * happened (webhook deliveries, stats), access tokens and injected faults are left out on purpose:
 * a restart starts them afresh, as a provider's sandbox session would.
 *
 * @example
 * const file = new StateFile('.local/stack/emulators/efi.json', { state, infracoes }, logger);
 * file.load();                 // before the servers listen
 * file.watch(apiServer);       // every answered request schedules a write
 * await emulator.stop(); file.close(); // the last write
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Server } from 'node:http';
import type { Logger } from './logger';

/** What a store hands to the file and takes back from it. */
export interface PersistentStore<S = unknown> {
  snapshot(): S;
  restore(snapshot: S): void;
}

/** Bumped when a snapshot's shape changes incompatibly: an older file is then ignored. */
const FORMAT_VERSION = 1;

/** A write at most this long after the first change that needs it (requests come in bursts). */
const DEFAULT_WRITE_DELAY_MS = 500;

/** JSON with the two things plain JSON loses here: Maps (with non-string keys too) and Dates. */
export function encodeState(value: unknown): string {
  return JSON.stringify(value, function replacer(this: Record<string, unknown>, key: string, encoded: unknown) {
    // `encoded` is already Date#toJSON's string; the holder still has the Date.
    const original = this[key];
    if (original instanceof Date) return { $date: original.toISOString() };
    if (encoded instanceof Map) return { $map: [...encoded.entries()] };
    return encoded;
  });
}

export function decodeState(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const tagged = value as { $date?: unknown; $map?: unknown };
      if (typeof tagged.$date === 'string' && Object.keys(value).length === 1) return new Date(tagged.$date);
      if (Array.isArray(tagged.$map) && Object.keys(value).length === 1) return new Map(tagged.$map as [unknown, unknown][]);
    }
    return value;
  });
}

/** Replaces a Map's content in place (stores keep their Maps `readonly`). */
export function refill<K, V>(target: Map<K, V>, source: Map<K, V> | undefined): void {
  target.clear();
  for (const [key, value] of source ?? []) target.set(key, value);
}

export class StateFile {
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly stores: Record<string, PersistentStore>,
    private readonly logger: Logger,
    private readonly writeDelayMs = DEFAULT_WRITE_DELAY_MS,
  ) {}

  /**
   * Restores every store from the file, if there is one. A file that cannot be read (damaged, or
   * written by an incompatible version) is logged and ignored: the emulator starts empty, as it did
   * before persistence, and the next write replaces the file.
   */
  load(): boolean {
    if (!existsSync(this.file)) return false;
    try {
      const content = decodeState(readFileSync(this.file, 'utf8')) as { version?: unknown; stores?: Record<string, unknown> };
      if (content.version !== FORMAT_VERSION || !content.stores) throw new Error(`format ${String(content.version)} is not ${FORMAT_VERSION}`);
      for (const [name, store] of Object.entries(this.stores)) {
        const snapshot = content.stores[name];
        // The file was written by this store's own snapshot(), at this format version.
        if (snapshot !== undefined) store.restore(snapshot);
      }
      this.logger.info({ file: this.file }, 'state restored');
      return true;
    } catch (err) {
      this.logger.warn({ file: this.file, err }, 'state file ignored: starting empty');
      return false;
    }
  }

  /** Schedules a write; changes until it happens ride along. */
  changed(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.save();
    }, this.writeDelayMs);
    this.timer.unref();
  }

  /** Any answered request may have changed something (even a read expires a charge lazily). */
  watch(server: Server): void {
    server.on('request', (_req, res) => res.once('finish', () => this.changed()));
  }

  /** Writes now: to a temporary file first, so a crash mid-write never leaves half a file. */
  save(): void {
    const snapshots = Object.fromEntries(Object.entries(this.stores).map(([name, store]) => [name, store.snapshot()]));
    const temporary = `${this.file}.tmp`;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(temporary, encodeState({ version: FORMAT_VERSION, stores: snapshots }), { mode: 0o600 });
      renameSync(temporary, this.file);
    } catch (err) {
      this.logger.error({ file: this.file, err }, 'state not saved');
    }
  }

  /** The last write (at shutdown, after background work such as webhook senders has stopped). */
  close(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.save();
    this.closed = true;
  }
}
