import { formatCounter, formatReady, StartProgress } from './start-progress';

/** An output that records what was written, as a terminal or as a file. */
function output(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, out: { isTTY, write: (text: string) => chunks.push(text) } };
}

describe('start progress', () => {
  it('formats a ready process with its start-up time in seconds, and the counter', () => {
    expect(formatReady({ name: 'payments', seconds: 1.8 })).toBe('✓ payments ready (1.8 s)');
    expect(formatReady({ name: 'efi-emulator', seconds: 0.04 })).toBe('✓ efi-emulator ready (0.0 s)');
    expect(formatReady({ name: 'gateway', seconds: 12.345 })).toBe('✓ gateway ready (12.3 s)');
    expect(formatCounter(9, 16)).toBe('starting 9/16…');
  });

  it('in a terminal, prints each ready line above one counter line that it rewrites', () => {
    const { chunks, out } = output(true);
    const progress = new StartProgress(out);
    progress.starting(3);
    progress.ready({ name: 'efi-emulator', seconds: 0.4 });
    progress.ready({ name: 'payments', seconds: 1.8 });
    progress.ready({ name: 'gateway', seconds: 2.25 });
    progress.finish(true, 3.1);
    expect(chunks).toEqual([
      'starting 0/3…',
      '\r\x1b[2K✓ efi-emulator ready (0.4 s)\nstarting 1/3…',
      '\r\x1b[2K✓ payments ready (1.8 s)\nstarting 2/3…',
      '\r\x1b[2K✓ gateway ready (2.3 s)\nstarting 3/3…',
      '\r\x1b[2K✓ all 3 processes ready in 3.1 s\n',
    ]);
    // What the terminal shows at the end: the ready lines and the summary, no counter left over.
    expect(render(chunks.join(''))).toEqual(['✓ efi-emulator ready (0.4 s)', '✓ payments ready (1.8 s)', '✓ gateway ready (2.3 s)', '✓ all 3 processes ready in 3.1 s', '']);
  });

  it('not in a terminal, prints plain lines with the count and no control characters', () => {
    const { chunks, out } = output(false);
    const progress = new StartProgress(out);
    progress.starting(2);
    progress.ready({ name: 'accounts', seconds: 1 });
    progress.finish(false, 60);
    const text = chunks.join('');
    expect(text).toBe('starting 2 processes\n✓ accounts ready (1.0 s) [1/2]\n✗ start-up stopped after 60.0 s with 1/2 ready\n');
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(text).not.toMatch(/[\r\x1b]/);
  });
});

/** The lines a terminal ends up showing: \r returns to the line's start, ESC[2K erases it. */
function render(text: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    if (text.startsWith('\x1b[2K', i)) {
      current = '';
      i += 3;
    } else if (text[i] === '\r') {
      current = '';
    } else if (text[i] === '\n') {
      lines.push(current);
      current = '';
    } else {
      current += text.charAt(i);
    }
  }
  return [...lines, current];
}
