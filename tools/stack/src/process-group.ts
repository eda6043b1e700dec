import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  logFile: string;
}

/**
 * Starts node processes with their own environment and log file, and stops them all: SIGTERM
 * first (graceful shutdown), SIGKILL for anything still alive after `graceMs`.
 */
export class ProcessGroup {
  readonly processes: ManagedProcess[] = [];

  constructor(private readonly logDir: string) {
    mkdirSync(logDir, { recursive: true });
  }

  start(name: string, script: string, env: Record<string, string>, options: { inheritOutput?: boolean } = {}): ManagedProcess {
    const logFile = path.join(this.logDir, `${name}.log`);
    const log = createWriteStream(logFile, { flags: 'a' });
    const child = spawn(process.execPath, ['--enable-source-maps', ...extraNodeArgs(name), script], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SERVICE_NAME: name, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    if (options.inheritOutput) {
      child.stderr?.pipe(process.stderr);
    }
    const managed = { name, child, logFile };
    this.processes.push(managed);
    return managed;
  }

  /** Exits that happened: a process that died during start-up fails the start. */
  exited(): ManagedProcess[] {
    return this.processes.filter((p) => p.child.exitCode !== null || p.child.signalCode !== null);
  }

  async stop(graceMs = 10_000): Promise<void> {
    const alive = this.processes.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
    await Promise.all(
      alive.map(
        (p) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
            p.child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            p.child.kill('SIGTERM');
          }),
      ),
    );
  }
}

/**
 * Extra Node.js flags for the stack's processes, for profiling (node refuses --cpu-prof in
 * NODE_OPTIONS): ORQUESTRA_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles every process,
 * ORQUESTRA_NODE_ARGS_FOR='payments,gateway' limits them to those processes. A profile is written
 * when the process exits cleanly (the stack's stop).
 */
function extraNodeArgs(name: string): string[] {
  const args = (process.env['ORQUESTRA_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);
  const only = (process.env['ORQUESTRA_NODE_ARGS_FOR'] ?? '').split(',').filter(Boolean);
  return only.length === 0 || only.includes(name) ? args : [];
}
