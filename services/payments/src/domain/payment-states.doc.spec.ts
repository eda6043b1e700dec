import { readFileSync } from 'node:fs';
import path from 'node:path';
import { diagramTransitions as edgesOf, tableTransitions as allowedBy } from '@orquestra/platform/testing';
import { PAYMENT_STATUSES, TRANSITIONS } from './payment-status';

const diagramTransitions = (markdown: string) => edgesOf(markdown, 'docs/payment-states.md');
const tableTransitions = () => allowedBy(TRANSITIONS);

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
