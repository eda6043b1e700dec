import { readFileSync } from 'node:fs';
import path from 'node:path';
import { diagramTransitions as edgesOf, tableTransitions as allowedBy } from '@orquestra/platform/testing';
import { SUBSCRIPTION_STATUSES, SUBSCRIPTION_TRANSITIONS } from './subscription-states';

const diagramTransitions = (markdown: string) => edgesOf(markdown, 'docs/subscriptions.md');
const tableTransitions = () => allowedBy(SUBSCRIPTION_TRANSITIONS);

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
