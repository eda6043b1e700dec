#!/usr/bin/env node
// The `orq` executable: wires the process (arguments, environment, terminal, Ctrl-C) to the CLI.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { runCli } from './program';

/** Reads a line from the terminal without echoing it. */
function promptSecret(question: string): Promise<string> {
  process.stderr.write(question);
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const reader = createInterface({ input: process.stdin, output: silent, terminal: true });
  return new Promise((resolve) => {
    reader.question('', (answer) => {
      reader.close();
      process.stderr.write('\n');
      resolve(answer);
    });
  });
}

// `orq payments list | head`: the reader left; stop quietly, as other command-line tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

const stop = new AbortController();
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A second Ctrl-C leaves at once.
    if (interrupted) process.exit(130);
    interrupted = true;
    stop.abort();
  });
}

void runCli(process.argv, {
  env: process.env,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  interactive: Boolean(process.stdin.isTTY),
  promptSecret,
  signal: stop.signal,
}).then((code) => {
  process.exitCode = code;
  // Leave even if a keep-alive socket lingers, once what was written has been flushed (pipes are
  // asynchronous on some systems, and a long JSON answer must not be cut).
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
});
