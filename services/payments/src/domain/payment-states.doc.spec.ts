import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PAYMENT_STATUSES, TRANSITIONS, type PaymentStatus } from './payment-status';

/** The arrows of the mermaid state diagram in docs/payment-states.md, `from → to`, start and end markers left out. */
function diagramTransitions(markdown: string): Set<string> {
  const block = /```mermaid\n([\s\S]*?)```/.exec(markdown)?.[1];
  if (!block) throw new Error('docs/payment-states.md has no mermaid block');
  const edges = new Set<string>();
  for (const line of block.split('\n')) {
    const match = /^\s*(\[\*\]|[a-z_]+)\s*-->\s*(\[\*\]|[a-z_]+)\s*(:.*)?$/.exec(line);
    if (match && match[1] !== '[*]' && match[2] !== '[*]') edges.add(`${match[1]} → ${match[2]}`);
  }
  return edges;
}

function tableTransitions(): Set<string> {
  return new Set((Object.keys(TRANSITIONS) as PaymentStatus[]).flatMap((from) => TRANSITIONS[from].map((to) => `${from} → ${to}`)));
}

describe('docs/payment-states.md', () => {
  const markdown = readFileSync(path.resolve(__dirname, '../../../../docs/payment-states.md'), 'utf8');

  it('draws exactly the transitions of TRANSITIONS', () => {
    const drawn = diagramTransitions(markdown);
    const table = tableTransitions();
    expect([...drawn].filter((edge) => !table.has(edge))).toEqual([]); // drawn but not allowed
    expect([...table].filter((edge) => !drawn.has(edge))).toEqual([]); // allowed but not drawn
  });

  it('shows every status, and the final ones as final', () => {
    for (const status of PAYMENT_STATUSES) expect(markdown).toContain(`\`${status}\``);
    for (const status of PAYMENT_STATUSES) if (TRANSITIONS[status].length === 0) expect(markdown).toContain(`${status} --> [*]`);
  });

  it('notices a disagreement (the check itself can fail)', () => {
    const edited = markdown.replace('  pending --> processing\n', '');
    expect(diagramTransitions(edited).has('pending → processing')).toBe(false);
    expect(diagramTransitions(markdown.replace('```mermaid', '```mermaid\n  canceled --> pending')).has('canceled → pending')).toBe(true);
  });
});
