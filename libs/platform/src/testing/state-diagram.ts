/**
 * For the tests that keep a document's mermaid state diagram and a service's transition table in
 * step (docs/payment-states.md, docs/subscriptions.md): both as sets of `from → to` edges.
 */

/** The arrows of the first mermaid block of `markdown`, `from → to`, start and end markers left out. */
export function diagramTransitions(markdown: string, documentName: string): Set<string> {
  const block = /```mermaid\n([\s\S]*?)```/.exec(markdown)?.[1];
  if (!block) throw new Error(`${documentName} has no mermaid block`);
  const edges = new Set<string>();
  for (const line of block.split('\n')) {
    const match = /^\s*(\[\*\]|[a-z_]+)\s*-->\s*(\[\*\]|[a-z_]+)\s*(:.*)?$/.exec(line);
    if (match && match[1] !== '[*]' && match[2] !== '[*]') edges.add(`${match[1]} → ${match[2]}`);
  }
  return edges;
}

/** The edges a transition table allows. */
export function tableTransitions<S extends string>(transitions: Readonly<Record<S, readonly S[]>>): Set<string> {
  return new Set((Object.keys(transitions) as S[]).flatMap((from) => transitions[from].map((to) => `${from} → ${to}`)));
}
