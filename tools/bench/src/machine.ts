/** What the numbers were measured on: recorded with every result. */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { storeSettings } from './proc-stats';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memTotalGiB: number;
  kernel: string;
  node: string;
  /** The store behind MONGO_URL: mongo-java-server's version, backend, heap limit and JVM. */
  store: string;
  rabbitmq: string;
}

function quiet(run: () => string): string {
  try {
    return run().trim();
  } catch {
    return 'unknown';
  }
}

/** `mongo-java-server 1.47.0 (memory backend, heap ≤ 1g, Java 17.0.15)`, from the running JVM. */
function describeStore(pid: number | undefined): string {
  if (pid === undefined) return 'not a local mongo-java-server (MONGO_URL names another server)';
  const settings = storeSettings(pid);
  // infra.sh runs it with `-cp <lib>/*:<classes>`: the core jar's name carries the version.
  const jars = settings.classpath
    .split(':')
    .filter((entry) => entry.endsWith('/*'))
    .flatMap((entry) => quiet(() => readdirSync(path.dirname(entry)).join('\n')).split('\n'));
  const version = jars.map((jar) => /^mongo-java-server-core-(.+)\.jar$/.exec(jar)?.[1]).find(Boolean) ?? 'unknown';
  // `java -version` writes to stderr.
  const java = spawnSync(quiet(() => readlinkSync(`/proc/${pid}/exe`)), ['-version'], { encoding: 'utf8', timeout: 10_000 });
  const javaVersion = /version "([^"]+)"/.exec(`${java.stderr ?? ''}`)?.[1] ?? 'unknown';
  return `mongo-java-server ${version} (${settings.backend} backend, heap ≤ ${settings.maxHeap}, Java ${javaVersion})`;
}

export function machineInfo(infraPids: { store: number[]; rabbitmq: number[] }): MachineInfo {
  const cpuinfo = quiet(() => readFileSync('/proc/cpuinfo', 'utf8'));
  return {
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    memTotalGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    kernel: os.release(),
    node: process.version,
    store: describeStore(infraPids.store[0]),
    rabbitmq: quiet(() => /^Version:\s*(.+)$/m.exec(execFileSync('dpkg', ['-s', 'rabbitmq-server'], { encoding: 'utf8' }))?.[1] ?? 'unknown'),
  };
}
