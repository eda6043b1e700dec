/**
 * What `npm start` prints while the stack's processes start: a line per process as it becomes
 * ready ("✓ payments ready (1.8 s)") and, in a terminal, one counter line kept at the bottom
 * ("starting 9/19…") that each new line replaces. Not in a terminal (a log file, CI, `npm start --
 * --background`), plain lines only, each carrying the count, and no control characters.
 */

/** One process that became ready, `seconds` after it was started. */
export interface ReadyEvent {
  name: string;
  seconds: number;
}

export interface ProgressOutput {
  write(text: string): unknown;
  /** True for a terminal (process.stdout.isTTY). */
  isTTY?: boolean;
}

/** Erases the terminal's current line and returns the cursor to its start (ANSI CSI 2K). */
const CLEAR_LINE = '\r\x1b[2K';

export const formatSeconds = (seconds: number): string => `${seconds.toFixed(1)} s`;

export function formatReady(event: ReadyEvent): string {
  return `✓ ${event.name} ready (${formatSeconds(event.seconds)})`;
}

export function formatCounter(done: number, total: number): string {
  return `starting ${done}/${total}…`;
}

export class StartProgress {
  private done = 0;
  private total = 0;
  private readonly tty: boolean;

  constructor(private readonly out: ProgressOutput) {
    this.tty = out.isTTY === true;
  }

  /** The number of processes about to start. */
  starting(total: number): void {
    this.total = total;
    this.done = 0;
    if (this.tty) this.out.write(formatCounter(0, total));
    else this.out.write(`starting ${total} processes\n`);
  }

  ready(event: ReadyEvent): void {
    this.done += 1;
    if (this.tty) this.out.write(`${CLEAR_LINE}${formatReady(event)}\n${formatCounter(this.done, this.total)}`);
    else this.out.write(`${formatReady(event)} [${this.done}/${this.total}]\n`);
  }

  /** Every process is ready (or the start failed: `ok` false), `seconds` after the first started. */
  finish(ok: boolean, seconds: number): void {
    const line = ok
      ? `✓ all ${this.total} processes ready in ${formatSeconds(seconds)}`
      : `✗ start-up stopped after ${formatSeconds(seconds)} with ${this.done}/${this.total} ready`;
    this.out.write(this.tty ? `${CLEAR_LINE}${line}\n` : `${line}\n`);
  }
}
