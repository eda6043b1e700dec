import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostEmulator, localUrl, type EmulatorOptions } from './emulator-host';
import { FaultRegistry } from './fault-registry';
import { createEmulatorLogger } from './logger';

const logger = createEmulatorLogger('host-spec', 'silent');

/** A store holding one counter, and an emulator around it answering `n` on both ports. */
function counterEmulator(options: EmulatorOptions, hooks: { sweep?: () => void; stops?: string[] } = {}) {
  const store = { n: 0, snapshot: () => ({ n: store.n }), restore: (s: { n: number }) => (store.n = s.n) };
  const faults = new FaultRegistry();
  const answer = createServer((_req, res) => res.end(String(++store.n)));
  const stops = hooks.stops ?? [];
  const webhooks = { idle: async () => undefined, close: async () => void stops.push('webhooks') };
  let urls: { api: string; control: string } | undefined;
  const { lifecycle, restored } = hostEmulator('counter', options, {
    api: answer,
    control: createServer((_req, res) => res.end(String(store.n))),
    faults,
    stores: { store },
    webhooks,
    logger,
    ...(hooks.sweep ? { sweep: { everyMs: 10, run: hooks.sweep } } : {}),
    onListening: ({ apiPort, controlPort }, urlOf) => {
      urls = { api: urlOf(apiPort), control: urlOf(controlPort) };
    },
    onStop: () => stops.push('own timers'),
  });
  return { lifecycle, restored, store, faults, urls: () => urls };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'emulator-host-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('hostEmulator', () => {
  it('listens on free ports, tells the emulator its URLs, and keeps the state file across a restart', async () => {
    const stateFile = join(dir, 'counter.json');
    const first = counterEmulator({ stateFile });
    expect(first.restored).toBe(false);
    const ports = await first.lifecycle.start();
    expect(first.urls()).toEqual({ api: `http://127.0.0.1:${ports.apiPort}`, control: `http://127.0.0.1:${ports.controlPort}` });
    expect(await (await fetch(`${first.urls()?.api}/`)).text()).toBe('1');
    expect(await (await fetch(`${first.urls()?.api}/`)).text()).toBe('2');
    await first.lifecycle.stop();
    expect(existsSync(stateFile)).toBe(true);

    const second = counterEmulator({ stateFile });
    expect(second.restored).toBe(true);
    expect(second.store.n).toBe(2);
  });

  it('drops connections during a global outage', async () => {
    const emulator = counterEmulator({});
    const { apiPort } = await emulator.lifecycle.start();
    emulator.faults.set(undefined, { outage: true });
    await expect(fetch(`http://127.0.0.1:${apiPort}/`)).rejects.toThrow();
    expect(emulator.faults.injected).toBe(1);
    await emulator.lifecycle.stop();
  });

  it('sweeps while listening, and stops its own timers, then webhooks, then the servers', async () => {
    let sweeps = 0;
    const stops: string[] = [];
    const emulator = counterEmulator({}, { sweep: () => (sweeps += 1), stops });
    expect(sweeps).toBe(0);
    await emulator.lifecycle.start();
    await new Promise((resolve) => setTimeout(resolve, 60));
    await emulator.lifecycle.stop();
    const swept = sweeps;
    expect(swept).toBeGreaterThan(0);
    expect(stops).toEqual(['own timers', 'webhooks']);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(sweeps).toBe(swept);
  });
});

describe('localUrl', () => {
  it('shows the wildcard address as localhost and brackets IPv6', () => {
    expect(localUrl('0.0.0.0', 9443)).toBe('http://localhost:9443');
    expect(localUrl('::1', 80)).toBe('http://[::1]:80');
    expect(localUrl('127.0.0.1', 1)).toBe('http://127.0.0.1:1');
  });
});
