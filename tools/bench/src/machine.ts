/** What the numbers were measured on: recorded with every result. */
import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memTotalGiB: number;
  kernel: string;
  node: string;
  ferretdb: string;
  rabbitmq: string;
}

function quiet(run: () => string): string {
  try {
    return run().trim();
  } catch {
    return 'unknown';
  }
}

export function machineInfo(infraPids: { ferretdb: number[]; rabbitmq: number[] }): MachineInfo {
  const cpuinfo = quiet(() => readFileSync('/proc/cpuinfo', 'utf8'));
  const ferretPid = infraPids.ferretdb[0];
  return {
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    memTotalGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    kernel: os.release(),
    node: process.version,
    ferretdb:
      ferretPid === undefined
        ? 'not found'
        : quiet(() => {
            const out = execFileSync(readlinkSync(`/proc/${ferretPid}/exe`), ['--version'], { encoding: 'utf8', timeout: 5_000 });
            return /^version:\s*(\S+)/m.exec(out)?.[1] ?? out.split('\n')[0] ?? 'unknown';
          }) + ` (handler ${/--handler=(\S+)/.exec(quiet(() => readFileSync(`/proc/${ferretPid}/cmdline`, 'utf8').split('\0').join(' ')))?.[1] ?? 'default'})`,
    rabbitmq: quiet(() => /^Version:\s*(.+)$/m.exec(execFileSync('dpkg', ['-s', 'rabbitmq-server'], { encoding: 'utf8' }))?.[1] ?? 'unknown'),
  };
}
