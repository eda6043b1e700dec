import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SUBSCRIPTION_STATUSES, SUBSCRIPTION_TRANSITIONS, type SubscriptionStatus } from './subscription-states';

/** The arrows of the state diagram in docs/subscriptions.md, `from → to`, start and end markers left out. */
function diagramTransitions(markdown: string): Set<string> {
  const block = /```mermaid\n(stateDiagram[\s\S]*?)```/.exec(markdown)?.[1];
  if (!block) throw new Error('docs/subscriptions.md has no mermaid state diagram');
  const edges = new Set<string>();
  for (const line of block.split('\n')) {
    const match = /^\s*(\[\*\]|[a-z_]+)\s*-->\s*(\[\*\]|[a-z_]+)\s*(:.*)?$/.exec(line);
    if (match && match[1] !== '[*]' && match[2] !== '[*]') edges.add(`${match[1]} → ${match[2]}`);
  }
  return edges;
}

function tableTransitions(): Set<string> {
  return new Set(SUBSCRIPTION_STATUSES.flatMap((from: SubscriptionStatus) => SUBSCRIPTION_TRANSITIONS[from].map((to) => `${from} → ${to}`)));
}

describe('docs/subscriptions.md', () => {
  const markdown = readFileSync(path.resolve(__dirname, '../../../../docs/subscriptions.md'), 'utf8');

  it('draws exactly the transitions of SUBSCRIPTION_TRANSITIONS', () => {
    const drawn = diagramTransitions(markdown);
    const table = tableTransitions();
    expect([...drawn].filter((edge) => !table.has(edge))).toEqual([]); // drawn but not allowed
    expect([...table].filter((edge) => !drawn.has(edge))).toEqual([]); // allowed but not drawn
  });

  it('shows every status in the table, and the final ones as final', () => {
    for (const status of SUBSCRIPTION_STATUSES) expect(markdown).toContain(`| \`${status}\` |`);
    for (const status of SUBSCRIPTION_STATUSES) if (SUBSCRIPTION_TRANSITIONS[status].length === 0) expect(markdown).toContain(`${status} --> [*]`);
  });

  it('notices a disagreement (the check itself can fail)', () => {
    const edited = markdown.replace('  active --> expired', '  active --> nowhere');
    expect(diagramTransitions(edited).has('active → expired')).toBe(false);
    expect(diagramTransitions(markdown.replace('```mermaid\nstateDiagram-v2', '```mermaid\nstateDiagram-v2\n  expired --> active')).has('expired → active')).toBe(true);
  });
});
