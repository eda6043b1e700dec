/**
 * Everything the commands touch outside themselves, injected so the unit specs drive the real
 * commands with captured output, a scratch config directory and a stop signal.
 */
export interface CliIo {
  /** The process environment (ORQUESTRA_API_KEY, ORQUESTRA_BASE_URL, XDG_CONFIG_HOME, HOME). */
  env: Readonly<Record<string, string | undefined>>;
  /** Standard output: results (JSON, tables, one line per forwarded event). */
  out(text: string): void;
  /** Standard error: progress, warnings and errors. */
  err(text: string): void;
  /** Whether standard input is a terminal (login may then ask for the key). */
  interactive: boolean;
  /** Reads one line without echoing it (the API key at `orq login`). */
  promptSecret?(question: string): Promise<string>;
  /** Aborted on Ctrl-C: the long-running commands (listen, logs tail --follow) then stop cleanly. */
  signal: AbortSignal;
  /** Replaces fetch for the forwarding in `orq listen` (tests); the API calls go through the SDK. */
  fetch?: typeof fetch;
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
}

/** Resolves after `ms`, or at once when the signal aborts (no rejection: callers check the signal). */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A failure the CLI reports in one line and turns into exit status `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
