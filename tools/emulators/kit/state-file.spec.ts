import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulatorLogger } from './logger';
import { decodeState, encodeState, refill, StateFile, type PersistentStore } from './state-file';
import { eventuallyExpect } from '@orquestra/platform/testing';

jest.setTimeout(30_000);

const logger = createEmulatorLogger('state-file-spec', 'silent');

interface Charge {
  id: string;
  createdAt: Date;
  pix: { at: Date; value: number }[];
}

/** A store shaped like the emulators' own: readonly Maps (nested, with number keys) and a counter. */
class Book implements PersistentStore<{ charges: Map<number, Map<string, Charge>>; next: number }> {
  readonly charges = new Map<number, Map<string, Charge>>();
  next = 1;

  snapshot() {
    return { charges: this.charges, next: this.next };
  }

  restore(snapshot: { charges: Map<number, Map<string, Charge>>; next: number }): void {
    refill(this.charges, snapshot.charges);
    this.next = snapshot.next;
  }
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'state-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('encodeState / decodeState', () => {
  it('keep Maps (nested, non-string keys) and Dates, and leave look-alike plain objects alone', () => {
    const at = new Date('2025-01-02T03:04:05.678Z');
    const value = {
      byAccount: new Map([[7, new Map([['tx1', { at, tags: ['a'] }]])]]),
      when: at,
      plain: { $date: 'not alone', other: 1 },
      list: [at, null, 3],
    };
    const decoded = decodeState(encodeState(value)) as typeof value;
    expect(decoded.byAccount).toBeInstanceOf(Map);
    expect(decoded.byAccount.get(7)).toBeInstanceOf(Map);
    expect(decoded.byAccount.get(7)?.get('tx1')?.at).toEqual(at);
    expect(decoded.byAccount.get(7)?.get('tx1')?.at).toBeInstanceOf(Date);
    expect(decoded.when).toEqual(at);
    expect(decoded.plain).toEqual({ $date: 'not alone', other: 1 });
    expect(decoded.list).toEqual([at, null, 3]);
  });
});

describe('StateFile', () => {
  it('restores into the same Map instances what an earlier process saved, with Dates as Dates', () => {
    const file = join(dir, 'nested', 'book.json');
    const first = new Book();
    first.charges.set(1, new Map([['tx', { id: 'tx', createdAt: new Date(1_000), pix: [{ at: new Date(2_000), value: 990 }] }]]));
    first.next = 42;
    const writer = new StateFile(file, { book: first }, logger);
    expect(writer.load()).toBe(false);
    writer.close();

    const second = new Book();
    second.charges.set(99, new Map());
    const sameMap = second.charges;
    expect(new StateFile(file, { book: second }, logger).load()).toBe(true);
    expect(second.charges).toBe(sameMap);
    expect([...second.charges.keys()]).toEqual([1]);
    const charge = second.charges.get(1)?.get('tx');
    expect(charge?.createdAt).toEqual(new Date(1_000));
    expect(charge?.pix[0]?.at).toBeInstanceOf(Date);
    expect(second.next).toBe(42);
    // Credentials live in these files: owner-only.
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('ignores a damaged file or one of another format version, and starts empty', () => {
    const file = join(dir, 'book.json');
    const book = new Book();
    writeFileSync(file, '{"version":1,"stores":{"book":');
    expect(new StateFile(file, { book }, logger).load()).toBe(false);
    writeFileSync(file, JSON.stringify({ version: 0, stores: { book: { next: 5 } } }));
    expect(new StateFile(file, { book }, logger).load()).toBe(false);
    expect(book.next).toBe(1);
  });

  it('writes once shortly after a burst of changes, and not after close', async () => {
    const file = join(dir, 'book.json');
    const book = new Book();
    const stateFile = new StateFile(file, { book }, logger, 50);
    for (let i = 0; i < 10; i++) {
      book.next += 1;
      stateFile.changed();
    }
    expect(existsSync(file)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect((decodeState(readFileSync(file, 'utf8')) as { stores: { book: { next: number } } }).stores.book.next).toBe(11);
    stateFile.close();
    rmSync(file);
    stateFile.changed();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(existsSync(file)).toBe(false);
  });

  it('schedules a write for every answered request of a watched server', async () => {
    const file = join(dir, 'book.json');
    const book = new Book();
    const stateFile = new StateFile(file, { book }, logger, 20);
    const server: Server = createServer((_req, res) => {
      book.next = 7;
      res.end('ok');
    });
    stateFile.watch(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`).then((r) => r.text());
      // Scheduled when the answer is finished (the caller may see it first), written after the debounce: polled for.
      await eventuallyExpect(() => expect((decodeState(readFileSync(file, 'utf8')) as { stores: { book: { next: number } } }).stores.book.next).toBe(7));
    } finally {
      stateFile.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
